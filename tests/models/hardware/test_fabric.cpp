#include "models/hardware/fabric.hpp"

#include <catch2/catch.hpp>

#include <limits>

using namespace aisim::models;

namespace {
constexpr double G = 1e9;

std::vector<FabricEndpoint> endpoints(int gpus, double gpu_bw, int storage, double storage_bw, int ports = 1) {
  std::vector<FabricEndpoint> e;
  for (int i = 0; i < gpus; ++i)
    e.push_back({EndpointKind::gpu_node, BytesPerSecond(gpu_bw), ports});
  for (int i = 0; i < storage; ++i)
    e.push_back({EndpointKind::storage, BytesPerSecond(storage_bw), 1});
  return e;
}

NetworkSpec leafy(const char* topology, int nodes_per_leaf, int enclosures_per_leaf, int spines, double over) {
  NetworkSpec s;
  s.topology = topology;
  s.link_latency = Seconds(1e-6);
  s.nodes_per_leaf = nodes_per_leaf;
  s.enclosures_per_leaf = enclosures_per_leaf;
  s.spines = spines;
  s.oversubscription = over;
  return s;
}

NetworkSpec plain(const char* topology) { return leafy(topology, 0, 0, 0, 1.0); }

std::vector<int> range(int a, int b) {
  std::vector<int> v;
  for (int i = a; i < b; ++i)
    v.push_back(i);
  return v;
}
} // namespace

TEST_CASE("single switch: the bound is the narrowest of drives, ports and NICs", "[fabric]") {
  NetworkSpec spec = plain("single_switch");
  Fabric f(spec, endpoints(4, 50 * G, 2, 100 * G));
  CHECK(f.links().empty());
  CHECK(f.route(0, 0).empty());
  CHECK(f.max_flow_Bps({{4, 1000 * G}, {5, 1000 * G}}, range(0, 4)) == Approx(200 * G)); // ports
  CHECK(f.max_flow_Bps({{4, 30 * G}, {5, 30 * G}}, range(0, 4)) == Approx(60 * G));      // drives
  CHECK(f.max_flow_Bps({{4, 1000 * G}, {5, 1000 * G}}, range(0, 2)) == Approx(100 * G)); // two NICs
}

TEST_CASE("spine-leaf: an oversubscribed storage leaf limits the flow", "[fabric]") {
  NetworkSpec spec = leafy("spine_leaf", 4, 2, 2, 4.0);
  Fabric f(spec, endpoints(8, 100 * G, 2, 200 * G));
  REQUIRE(f.leaf_count() == 3); // two GPU leaves of 4 nodes, one storage leaf
  CHECK(f.leaf_of(0) == 0);
  CHECK(f.leaf_of(7) == 1);
  CHECK(f.leaf_of(8) == 2);
  CHECK(f.links()[0].capacity_Bps == Approx(400 * G / 4));
  CHECK(f.links()[2].capacity_Bps == Approx(400 * G / 4));
  const auto r = f.route(0, 2);
  REQUIRE(r.size() == 2);
  CHECK((r[0].link == 0 && r[0].up));
  CHECK((r[1].link == 2 && !r[1].up));
  // Storage leaf uplink: 400 GB/s of ports / 4 = 100 GB/s.
  CHECK(f.max_flow_Bps({{8, 1e15}, {9, 1e15}}, range(0, 8)) == Approx(100 * G));
  NetworkSpec flat = spec;
  flat.oversubscription = 1.0;
  Fabric g(flat, endpoints(8, 100 * G, 2, 200 * G));
  CHECK(g.max_flow_Bps({{8, 1e15}, {9, 1e15}}, range(0, 8)) == Approx(400 * G));
  // To one GPU leaf only: its uplink (400 GB/s / 4) binds before the storage leaf does.
  CHECK(f.max_flow_Bps({{8, 1e15}, {9, 1e15}}, range(0, 4)) == Approx(100 * G));
}

TEST_CASE("fat tree: routes climb only as high as they must; edge uplinks bound the flow", "[fabric]") {
  NetworkSpec spec = plain("fat_tree");
  spec.k = 4;
  spec.link_speed = BytesPerSecond(100 * G);
  REQUIRE(endpoint_limit(spec) == 16);
  Fabric f(spec, endpoints(14, 100 * G, 2, 300 * G));
  CHECK(f.leaf_count() == 8);
  CHECK(f.leaf_of(14) == 7);
  CHECK(f.route(0, 1).size() == 2);                    // edge 0 -> edge 1, same pod
  CHECK(f.route(0, 7).size() == 4);                    // across pods: edge, pod, pod, edge
  CHECK(f.links()[0].capacity_Bps == Approx(200 * G)); // 2 uplinks of 100 GB/s per edge switch
  CHECK(f.links()[8].capacity_Bps == Approx(400 * G)); // 4 core links per pod
  // The storage edge switch has two 100 GB/s uplinks: 200 GB/s whatever the ports give.
  CHECK(f.max_flow_Bps({{14, 1e15}, {15, 1e15}}, range(0, 14)) == Approx(200 * G));
}

TEST_CASE("rail-optimized: each NIC reaches its own rail switch", "[fabric]") {
  NetworkSpec spec = leafy("rail_optimized", 2, 1, 2, 1.0);
  // Two nodes with 4 NICs of 25 GB/s (100 GB/s each) in one rail group; one enclosure of 400 GB/s.
  Fabric f(spec, endpoints(2, 100 * G, 1, 400 * G, 4));
  CHECK(f.leaf_count() == 2);
  CHECK(f.links()[0].capacity_Bps == Approx(200 * G));
  CHECK(f.max_flow_Bps({{2, 1e15}}, range(0, 2)) == Approx(200 * G));
  CHECK(f.max_flow_Bps({{2, 1e15}}, {0}) == Approx(100 * G));
}

TEST_CASE("inventory: the switches each topology needs and the ports in use", "[fabric][cost]") {
  // One switch: a port per NIC or enclosure port.
  const auto one = Fabric(plain("single_switch"), endpoints(4, 50 * G, 2, 100 * G, 2)).inventory();
  CHECK(one.switches == 1);
  CHECK(one.ports == 4 * 2 + 2);
  // Spine-leaf, 4:1: two GPU leaves of 4 single-port nodes (1 uplink each), a storage leaf of 2 ports (1 uplink),
  // two spines; each uplink takes a port at both ends.
  const auto sl = Fabric(leafy("spine_leaf", 4, 2, 2, 4.0), endpoints(8, 100 * G, 2, 200 * G)).inventory();
  CHECK(sl.switches == 3 + 2);
  CHECK(sl.ports == 8 + 2 + 2 * (1 + 1 + 1));
  // Rail-optimized: a rail group of two 4-NIC nodes is 4 rail switches; 8 downlinks, 8 uplinks at 1:1.
  const auto rail = Fabric(leafy("rail_optimized", 2, 1, 2, 1.0), endpoints(2, 100 * G, 1, 400 * G, 4)).inventory();
  CHECK(rail.switches == 4 + 1 + 2);
  CHECK(rail.ports == (8 + 2 * 8) + (1 + 2 * 1));
  // Fat tree k=4 with 6 endpoints: 3 edge switches (2 per edge) in 2 pods, 2 aggregation switches per pod, 4 core.
  NetworkSpec ft = plain("fat_tree");
  ft.k = 4;
  ft.link_speed = BytesPerSecond(100 * G);
  const auto tree = Fabric(ft, endpoints(4, 100 * G, 2, 100 * G)).inventory();
  CHECK(tree.switches == 3 + 2 * 2 + 4);
  CHECK(tree.ports == 6 + 3 * 2 * 2 + 2 * 2 * 2 * 2);
  // Within one pod, no core.
  const auto small = Fabric(ft, endpoints(3, 100 * G, 1, 100 * G)).inventory();
  CHECK(small.switches == 2 + 2);
  CHECK(small.ports == 4 + 2 * 2 * 2);
}

TEST_CASE("switches only: the fabric's own bound, without the endpoints' NICs and ports", "[fabric]") {
  const double inf = std::numeric_limits<double>::infinity();
  // One switch: nothing between the endpoints limits the flow.
  Fabric one(plain("single_switch"), endpoints(4, 100 * G, 2, 50 * G));
  CHECK(one.max_flow_Bps({{4, inf}, {5, inf}}, range(0, 4), true) == inf);
  CHECK(one.max_flow_Bps({{4, inf}, {5, inf}}, range(0, 4)) == Approx(100 * G)); // the two storage ports
  // Spine-leaf, storage leaf oversubscribed 4:1 (400 GB/s of ports, 100 GB/s of uplinks): the uplinks alone bind,
  // whatever the ports; a GPU leaf's own uplinks (4 x 100 GB/s / 4) bind as much when only its nodes read.
  Fabric f(leafy("spine_leaf", 4, 2, 2, 4.0), endpoints(8, 100 * G, 2, 200 * G));
  CHECK(f.max_flow_Bps({{8, inf}, {9, inf}}, range(0, 8), true) == Approx(100 * G));
  CHECK(f.max_flow_Bps({{8, inf}, {9, inf}}, range(0, 2), true) == Approx(100 * G));
  Fabric flat(leafy("spine_leaf", 4, 2, 2, 1.0), endpoints(8, 100 * G, 2, 200 * G));
  CHECK(flat.max_flow_Bps({{8, inf}, {9, inf}}, range(0, 8), true) == Approx(400 * G));
  CHECK(flat.max_flow_Bps({{8, inf}, {9, inf}}, range(0, 4), true) == Approx(400 * G));
}
