// The SimGrid platform build_platform makes of a scenario, step by step (sim/platform/builder.hpp): node sets with
// their NIC links and node-local disks, fabric peers on a converged network, storage servers with their disks,
// front ends and internal limits, PFS metadata hosts, fabric links, node routes and copy routes. Each test case
// runs its own engine; bandwidths are in bytes per second, as the builder converts them.
#include "sim/platform/platform.hpp"

#include "tests/sim/test_engine.hpp"

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace aisim::models;
namespace sg4 = simgrid::s4u;
using aisim::test::TestEngine;

namespace {

Scenario parse(const char* text) {
  auto r = parse_scenario(Json::parse(text), "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  return *r.scenario;
}

sg4::Host* host(const sg4::Engine& e, const std::string& name) {
  auto* h = e.host_by_name_or_null(name);
  INFO(name);
  REQUIRE(h != nullptr);
  return h;
}

double bandwidth(const sg4::Engine& e, const std::string& name) {
  auto* l = e.link_by_name_or_null(name);
  INFO(name);
  REQUIRE(l != nullptr);
  return l->get_bandwidth();
}

// The names of the links from one host to another, in order, and the route's latency: what flows pay on it
// (RouteLatency); the SimGrid links themselves carry none.
std::vector<std::string> route(const sg4::Engine& e, const std::string& from, const std::string& to,
                               const aisim::sim::Platform* p = nullptr, double* latency = nullptr) {
  std::vector<sg4::Link*> links;
  double lat = 0;
  host(e, from)->route_to(host(e, to), links, &lat);
  REQUIRE(lat == 0);
  if (latency)
    *latency = p->routes.route(host(e, from), host(e, to)).latency_s;
  std::vector<std::string> names;
  for (const auto* l : links)
    names.push_back(l->get_name());
  return names;
}

using Names = std::vector<std::string>;

// Every link's name, sorted.
Names link_names(const sg4::Engine& e) {
  Names names;
  for (const auto* l : e.get_all_links())
    names.push_back(l->get_name());
  std::sort(names.begin(), names.end());
  return names;
}

constexpr double kGbps = 1e9 / 8; // bytes per second in one Gbit/s
// Data bytes per line byte on Ethernet with jumbo frames (models/cluster/wire.hpp): RoCEv2 (a jbof's and a pfs's
// default client) and TCP/IP (an NFS array's, an object store's).
constexpr double kRoce = 4096.0 / 4178;
constexpr double kTcpJumbo = 8948.0 / 9038;
constexpr double kLinkLatency = 1e-6;

} // namespace

TEST_CASE("platform: fidelity full: a host per job's nodes on a leaf and per enclosure that can fail, a disk per "
          "drive that can fail, NIC, front-end and internal links",
          "[platform]") {
  TestEngine t;
  // 2 nodes with 2 x 100 Gb/s NICs and 2 local drives each, one job on each; 2 enclosures of 3 drives behind a
  // 20 GB/s PCIe switch, 2 x 100 Gb/s ports each, whose drives fail (so the enclosures stay apart); one switch.
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 2, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {
      "jbof": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 3, "drive": "d", "switch_uplink": "20GB/s",
               "ports_per_enclosure": 2, "port_speed": "100Gbps", "failures": {"drives": {"repair_time": "24h"}}},
      "local": {"kind": "local_nvme", "node_group": "node", "drives_per_node": 2, "drive": "d"}
    },
    "workloads": [{"name": "a", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}},
                  {"name": "b", "kind": "training", "gpus": 8, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "1h", "fidelity": "full"}
  })");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;

  // Hosts: the two nodes, the two enclosures and each node's own file system on the JBOF (its metadata
  // operations, at the node's rate); local NVMe has no server.
  CHECK(e.get_host_count() == 6);
  for (const char* h : {"node-0", "node-1", "jbof-0", "jbof-1"})
    CHECK(e.host_by_name_or_null(h) != nullptr);
  REQUIRE(p.node_metadata_host[0].size() == 2);
  CHECK(p.node_metadata_host[0][0] == host(e, "jbof-fs-node-0"));
  CHECK(p.node_metadata_host[0][0]->get_speed() == Approx(300e3)); // one node x 300k op/s, the default
  CHECK(p.metadata_host[0] == nullptr);
  REQUIRE(p.node_sets.size() == 2);
  CHECK(p.node_sets[0].name == "node-0");
  CHECK(p.node_sets[0].nodes == 1);
  CHECK(p.node_sets[0].gpus == 8);
  CHECK(p.node_sets[0].fabric_peer == nullptr); // separate storage network
  CHECK(p.node_sets_of_job == std::vector<std::vector<int>>{{0}, {1}});
  REQUIRE(p.servers.size() == 2);
  CHECK(p.servers[0].weight == 1);
  CHECK(p.servers_of_storage == std::vector<std::vector<int>>{{0, 1}, {}});
  CHECK(p.metadata_host == std::vector<sg4::Host*>{nullptr, nullptr});

  // Node-local drives, where nothing fails: one disk for both, named after the node and the system.
  const auto local = host(e, "node-1")->get_disks();
  REQUIRE(local.size() == 1);
  CHECK(local[0]->get_name() == "node-1-local-nvme0");
  CHECK(local[0]->get_read_bandwidth() == Approx(2 * 6e9));
  CHECK(local[0]->get_write_bandwidth() == Approx(2 * 4e9));
  CHECK(p.node_sets[1].local_disks.at(1).size() == 1);
  // An enclosure's 3 drives: one disk each at one drive's bandwidth.
  const auto disks = host(e, "jbof-1")->get_disks();
  REQUIRE(disks.size() == 3);
  CHECK(disks[2]->get_name() == "jbof-1-nvme2");
  for (const auto* d : disks) {
    CHECK(d->get_read_bandwidth() == Approx(6e9));
    CHECK(d->get_write_bandwidth() == Approx(4e9));
  }
  CHECK(p.servers[1].disks.size() == 3);

  // Links, each split into _UP and _DOWN: a NIC per node (2 x 100 Gb/s), a front end (2 x 100 Gb/s) and an
  // internal limit (the 20 GB/s switch uplink) per enclosure. One switch: no fabric links.
  // (__loopback__ is SimGrid's own, in every full zone.)
  CHECK(link_names(e) == Names{"__loopback__", "jbof-0-front-end_DOWN", "jbof-0-front-end_UP", "jbof-0-internal_DOWN",
                               "jbof-0-internal_UP", "jbof-1-front-end_DOWN", "jbof-1-front-end_UP",
                               "jbof-1-internal_DOWN", "jbof-1-internal_UP", "node-0-nic_DOWN", "node-0-nic_UP",
                               "node-1-nic_DOWN", "node-1-nic_UP"});
  CHECK(bandwidth(e, "node-0-nic_UP") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "node-0-nic_DOWN") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "jbof-0-front-end_UP") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "jbof-0-front-end_DOWN") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "jbof-1-internal_UP") == Approx(20e9));
  CHECK(bandwidth(e, "jbof-1-internal_DOWN") == Approx(20e9));

  // Writes go in through the front end, then the internal limit; reads come out the other way.
  double lat = 0;
  CHECK(route(e, "node-0", "jbof-1", &p, &lat) ==
        Names{"node-0-nic_UP", "jbof-1-front-end_DOWN", "jbof-1-internal_DOWN"});
  // Node to enclosure on one switch crosses two links with latency; the internal limit has none.
  CHECK(lat == Approx(2 * kLinkLatency));
  CHECK(route(e, "jbof-1", "node-0", &p, &lat) ==
        Names{"jbof-1-internal_UP", "jbof-1-front-end_UP", "node-0-nic_DOWN"});
  CHECK(lat == Approx(2 * kLinkLatency));
  CHECK(route(e, "node-1", "jbof-0") == Names{"node-1-nic_UP", "jbof-0-front-end_DOWN", "jbof-0-internal_DOWN"});
}

TEST_CASE(
    "platform: fidelity aggregate on spine-leaf: a merged class of leaves with its own uplink link, merged enclosures",
    "[platform]") {
  TestEngine t;
  // 10 nodes (2 x 100 Gb/s NICs, 2 local drives each), 4 per leaf: leaves 0 and 1 are full, leaf 2 holds nodes
  // 8-9. 3 enclosures (3 drives, 2 x 100 Gb/s), 2 per storage leaf: leaf 3 holds enclosures 0-1, leaf 4
  // enclosure 2. Oversubscription 2: each leaf's uplinks carry half its endpoints' bandwidth.
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 10, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "network": {"topology": "spine_leaf", "nodes_per_leaf": 4, "enclosures_per_leaf": 2, "spines": 2,
                "oversubscription": 2},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {
      "jbof": {"kind": "jbof", "enclosures": 3, "drives_per_enclosure": 3, "drive": "d",
               "ports_per_enclosure": 2, "port_speed": "100Gbps"},
      "local": {"kind": "local_nvme", "node_group": "node", "drives_per_node": 2, "drive": "d"}
    },
    "workloads": [{"name": "a", "kind": "training", "gpus": 80, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "1h"}
  })");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;
  const double node_Bps = 2 * 100 * kGbps * kRoce, enclosure_Bps = 2 * 100 * kGbps * kRoce; // data rates

  // Node sets: leaves 0-1 (4 nodes each) as one class, leaf 2 alone; servers: enclosures 0-1 as one, 2 alone;
  // and each node set's own file system on the JBOF.
  CHECK(e.get_host_count() == 6);
  REQUIRE(p.node_sets.size() == 2);
  CHECK(p.node_sets[0].name == "node-0-7-x2-leaves");
  CHECK(p.node_sets[0].nodes == 8);
  CHECK(p.node_sets[0].gpus == 64);
  CHECK(p.node_sets[1].name == "node-8-9");
  CHECK(p.node_sets[1].nodes == 2);
  REQUIRE(p.servers.size() == 2);
  CHECK(p.servers[0].host->get_name() == "jbof-0-1");
  CHECK(p.servers[0].weight == 2);
  CHECK(p.servers[1].host->get_name() == "jbof-2");
  CHECK(p.servers[1].weight == 1);

  // A set's NIC link carries all its nodes' NICs.
  CHECK(bandwidth(e, "node-0-7-x2-leaves-nic_UP") == Approx(8 * node_Bps));
  CHECK(bandwidth(e, "node-8-9-nic_DOWN") == Approx(2 * node_Bps));
  // Its local drives: one disk for all 8 nodes x 2 drives.
  const auto local = host(e, "node-0-7-x2-leaves")->get_disks();
  REQUIRE(local.size() == 1);
  CHECK(local[0]->get_read_bandwidth() == Approx(8 * 2 * 6e9));
  CHECK(local[0]->get_write_bandwidth() == Approx(8 * 2 * 4e9));
  // A merged server: its front ends and drives summed (2 enclosures x 3 drives), one disk.
  CHECK(bandwidth(e, "jbof-0-1-front-end_UP") == Approx(2 * enclosure_Bps));
  CHECK(bandwidth(e, "jbof-2-front-end_UP") == Approx(enclosure_Bps));
  const auto disks = host(e, "jbof-0-1")->get_disks();
  REQUIRE(disks.size() == 1);
  CHECK(disks[0]->get_read_bandwidth() == Approx(2 * 3 * 6e9));
  CHECK(disks[0]->get_write_bandwidth() == Approx(2 * 3 * 4e9));
  CHECK(e.link_by_name_or_null("jbof-0-1-internal_UP") == nullptr); // no switch_uplink: no internal limit

  // Fabric links: every leaf's uplinks (its endpoints' bandwidth / 2), and the class's own uplink link, the sum
  // of its two leaves'.
  CHECK(bandwidth(e, "leaf0-uplinks_UP") == Approx(4 * node_Bps / 2));
  CHECK(bandwidth(e, "leaf1-uplinks_UP") == Approx(4 * node_Bps / 2));
  CHECK(bandwidth(e, "leaf2-uplinks_UP") == Approx(2 * node_Bps / 2));
  CHECK(bandwidth(e, "storageleaf3-uplinks_DOWN") == Approx(2 * enclosure_Bps / 2));
  CHECK(bandwidth(e, "storageleaf4-uplinks_DOWN") == Approx(enclosure_Bps / 2));
  CHECK(bandwidth(e, "node-0-7-x2-leaves-uplinks_UP") == Approx(2 * 4 * node_Bps / 2));
  // 2 NICs + 2 front ends + 5 leaves + 1 class uplink, each split in two, and SimGrid's __loopback__.
  CHECK(e.get_link_count() == 2 * (2 + 2 + 5 + 1) + 1);

  // The class crosses its own uplink link instead of leaf 0's, then down the storage leaf.
  double lat = 0;
  CHECK(route(e, "node-0-7-x2-leaves", "jbof-2", &p, &lat) ==
        Names{"node-0-7-x2-leaves-nic_UP", "node-0-7-x2-leaves-uplinks_UP", "storageleaf4-uplinks_DOWN",
              "jbof-2-front-end_DOWN"});
  CHECK(lat == Approx(4 * kLinkLatency));
  CHECK(route(e, "jbof-2", "node-0-7-x2-leaves", &p, &lat) == Names{"jbof-2-front-end_UP", "storageleaf4-uplinks_UP",
                                                                    "node-0-7-x2-leaves-uplinks_DOWN",
                                                                    "node-0-7-x2-leaves-nic_DOWN"});
  CHECK(lat == Approx(4 * kLinkLatency));
  // The part-full leaf's set uses its leaf's uplinks.
  CHECK(route(e, "node-8-9", "jbof-0-1") ==
        Names{"node-8-9-nic_UP", "leaf2-uplinks_UP", "storageleaf3-uplinks_DOWN", "jbof-0-1-front-end_DOWN"});
  CHECK(route(e, "jbof-0-1", "node-8-9") ==
        Names{"jbof-0-1-front-end_UP", "storageleaf3-uplinks_UP", "leaf2-uplinks_DOWN", "node-8-9-nic_DOWN"});
}

TEST_CASE("platform: fidelity aggregate: runs that follow one another on the same leaves share one uplink link",
          "[platform]") {
  TestEngine t;
  // 8 nodes, 4 per leaf: run-1 holds all of them for the first hour, run-2 for the second. Each run is one set over
  // both leaves; both cross the same link for the leaves' uplinks (a run's last phase may overlap the next one's
  // start, and then they share it as their nodes would share each leaf's uplinks).
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 8, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "network": {"topology": "spine_leaf", "nodes_per_leaf": 4, "enclosures_per_leaf": 2, "spines": 2,
                "oversubscription": 2},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {"jbof": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 3, "drive": "d",
                         "ports_per_enclosure": 2, "port_speed": "100Gbps"}},
    "workloads": [
      {"name": "run-1", "kind": "training", "gpus": 64, "duration": "1h", "step_time": "1s", "global_batch": 8,
       "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
       "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}},
      {"name": "run-2", "kind": "training", "gpus": 64, "start": "1h", "step_time": "1s", "global_batch": 8,
       "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
       "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "2h"}
  })");
  const auto p = aisim::sim::build_platform(sc, build_cluster_network(sc));
  const auto& e = t.engine;
  REQUIRE(p.node_sets.size() == 2);
  CHECK(p.node_sets[0].name == "node-0-7-x2-leaves");
  CHECK(p.node_sets[1].name == "node-0-7-x2-leaves-run-2");
  CHECK(e.link_by_name_or_null("node-0-7-x2-leaves-run-2-uplinks_UP") == nullptr);
  CHECK(bandwidth(e, "node-0-7-x2-leaves-uplinks_UP") == Approx(2 * 4 * 2 * 100 * kGbps * kRoce / 2));
  CHECK(route(e, "node-0-7-x2-leaves-run-2", "jbof-0-1") ==
        Names{"node-0-7-x2-leaves-run-2-nic_UP", "node-0-7-x2-leaves-uplinks_UP", "storageleaf2-uplinks_DOWN",
              "jbof-0-1-front-end_DOWN"});
  CHECK(route(e, "node-0-7-x2-leaves", "jbof-0-1")[1] == "node-0-7-x2-leaves-uplinks_UP");
}

TEST_CASE("platform: PFS servers stay apart at fidelity aggregate, with their internal limits and one metadata host",
          "[platform]") {
  TestEngine t;
  // One switch; a JBOF of 2 enclosures (merged) and a PFS of 3 servers (2 drives, 2 x 100 Gb/s, 10 GB/s server
  // bandwidth) with 3 metadata servers of 40k op/s each.
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 2, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {
      "jbof": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 3, "drive": "d"},
      "pfs": {"kind": "pfs", "servers": 3, "drives_per_server": 2, "drive": "d", "ports_per_server": 2,
              "port_speed": "100Gbps", "server_bandwidth": "10GB/s", "metadata_servers": 3,
              "metadata_ops_per_server": "40k op/s"}
    },
    "workloads": [{"name": "a", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "pfs"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "1h"}
  })");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;

  // node-0-1, jbof-0-1, pfs-0, pfs-1, pfs-2, pfs-metadata and the node set's file system on the JBOF.
  CHECK(e.get_host_count() == 7);
  CHECK(p.servers_of_storage == std::vector<std::vector<int>>{{0}, {1, 2, 3}});
  CHECK(p.servers[0].host->get_name() == "jbof-0-1");
  for (int s = 1; s <= 3; ++s) {
    CHECK(p.servers[s].host->get_name() == "pfs-" + std::to_string(s - 1));
    CHECK(p.servers[s].weight == 1);
    // One disk for the server's 2 drives.
    REQUIRE(p.servers[s].disks.size() == 1);
    CHECK(p.servers[s].disks[0]->get_read_bandwidth() == Approx(2 * 6e9));
  }
  // The metadata host's speed is the summed operation rate; the JBOF has none.
  REQUIRE(p.metadata_host.size() == 2);
  CHECK(p.metadata_host[0] == nullptr);
  REQUIRE(p.metadata_host[1] != nullptr);
  CHECK(p.metadata_host[1] == host(e, "pfs-metadata"));
  CHECK(p.metadata_host[1]->get_speed() == Approx(3 * 40e3));

  CHECK(bandwidth(e, "pfs-2-front-end_DOWN") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "pfs-2-internal_DOWN") == Approx(10e9));
  CHECK(bandwidth(e, "pfs-2-internal_UP") == Approx(10e9));
  // The Lustre client reaches 90 % of the nodes' NICs: a client link of 2 nodes x 2 x 100 Gb/s x 0.9.
  CHECK(bandwidth(e, "node-0-1-pfs-client_UP") == Approx(2 * 2 * 100 * kGbps * 0.9));
  CHECK(route(e, "node-0-1", "pfs-2") ==
        Names{"node-0-1-nic_UP", "node-0-1-pfs-client_UP", "pfs-2-front-end_DOWN", "pfs-2-internal_DOWN"});
  CHECK(route(e, "pfs-0", "node-0-1") ==
        Names{"pfs-0-internal_UP", "pfs-0-front-end_UP", "node-0-1-pfs-client_DOWN", "node-0-1-nic_DOWN"});
  CHECK(route(e, "node-0-1", "jbof-0-1") == Names{"node-0-1-nic_UP", "jbof-0-1-front-end_DOWN"});
}

namespace {

// 2 nodes with 2 x 100 Gb/s storage NICs and 4 x 200 Gb/s GPU-fabric NICs, one JBOF; the job's all-reduce and
// the storage network vary.
Scenario converged_scenario(const std::string& storage_network, const std::string& allreduce) {
  Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 2, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps",
                                 "compute_nics": 4, "compute_nic_speed": "200Gbps"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {"jbof": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 3, "drive": "d"}},
    "workloads": [{"name": "a", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "1h"}
  })");
  doc["network"]["storage_network"] = storage_network;
  doc["workloads"][0]["allreduce_bytes_per_step"] = allreduce;
  return parse(doc.dump().c_str());
}

} // namespace

TEST_CASE("platform: converged network with all-reduce: a fabric peer per node set, behind the set's GPU-fabric NICs",
          "[platform]") {
  TestEngine t;
  const Scenario sc = converged_scenario("converged", "1GB");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;
  // node-0-1, its fabric peer, jbof-0 and the node set's file system on it.
  CHECK(e.get_host_count() == 4);
  REQUIRE(p.node_sets.size() == 1);
  CHECK(p.node_sets[0].fabric_peer == host(e, "node-0-1-fabric-peer"));
  // Storage rides the GPU-fabric NICs: 2 nodes x 4 x 200 Gb/s.
  CHECK(bandwidth(e, "node-0-1-nic_UP") == Approx(2 * 4 * 200 * kGbps * kRoce));
  // The collectives cross only the set's own NIC link.
  double lat = 0;
  CHECK(route(e, "node-0-1", "node-0-1-fabric-peer", &p, &lat) == Names{"node-0-1-nic_UP"});
  CHECK(lat == Approx(kLinkLatency));
  CHECK(route(e, "node-0-1-fabric-peer", "node-0-1") == Names{"node-0-1-nic_DOWN"});
  CHECK(route(e, "node-0-1", "jbof-0") == Names{"node-0-1-nic_UP", "jbof-0-front-end_DOWN"});
}

TEST_CASE("platform: converged network without all-reduce bytes: no fabric peer", "[platform]") {
  TestEngine t;
  const Scenario sc = converged_scenario("converged", "0B");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;
  CHECK(e.get_host_count() == 3); // node-0-1, jbof-0 and the node set's file system on it
  CHECK(e.host_by_name_or_null("node-0-1-fabric-peer") == nullptr);
  CHECK(p.node_sets[0].fabric_peer == nullptr);
  CHECK(bandwidth(e, "node-0-1-nic_UP") == Approx(2 * 4 * 200 * kGbps * kRoce)); // still the GPU-fabric NICs
}

TEST_CASE("platform: separate storage network: no fabric peer even with all-reduce, storage NICs only", "[platform]") {
  TestEngine t;
  const Scenario sc = converged_scenario("separate", "1GB");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;
  CHECK(e.get_host_count() == 3);
  CHECK(p.node_sets[0].fabric_peer == nullptr);
  CHECK(bandwidth(e, "node-0-1-nic_UP") == Approx(2 * 2 * 100 * kGbps * kRoce)); // 2 nodes x 2 x 100 Gb/s
}

TEST_CASE("platform: clients over TCP: connection pools on node routes, and an array's replication copy route",
          "[platform]") {
  TestEngine t;
  // One switch; an array of 2 controllers (20 GB/s, 2 x 100 Gb/s, 12 drives shared) replicating to an object
  // store of 2 gateways (10 GB/s); the job reads from the store and checkpoints to the array.
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 2, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {
      "warm": {"kind": "array", "controllers": 2, "controller_bandwidth": "20GB/s", "ports_per_controller": 2,
               "port_speed": "100Gbps", "drives_per_shelf": 12, "drive": "d",
               "replication": {"target": "cold", "mode": "async"}},
      "cold": {"kind": "object", "gateways": 2, "gateway_bandwidth": "10GB/s", "capacity": "10PB",
               "connections_per_node": 16, "connection_bandwidth": "500MB/s", "request_latency": "10ms",
               "object_size": "64MB"}
    },
    "workloads": [{"name": "a", "kind": "training", "gpus": 16, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "cold"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "warm"}}],
    "simulation": {"duration": "1h"}
  })");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;

  // node-0-1, warm-0-1 (both controllers, one leaf), cold-0-1 (both gateways), warm-metadata (the controllers'
  // file service: 2 x 60k op/s by default), and the object store's request limits instead of metadata: its GETs
  // and its PUTs, one prefix at S3's published rates by default.
  CHECK(e.get_host_count() == 6);
  CHECK(p.metadata_host[0] == host(e, "warm-metadata"));
  CHECK(p.metadata_host[0]->get_speed() == Approx(2 * 60e3));
  CHECK(p.metadata_host[1] == nullptr);
  CHECK(p.request_host[0][0] == nullptr);
  CHECK(p.request_host[1][0] == host(e, "cold-gets"));
  CHECK(p.request_host[1][0]->get_speed() == Approx(5500));
  CHECK(p.request_host[1][1]->get_speed() == Approx(3500));
  CHECK(p.servers_of_storage == std::vector<std::vector<int>>{{0}, {1}});
  CHECK(p.servers[0].weight == 2);
  CHECK(p.servers[1].weight == 2);
  // The array's 12 drives, 6 per controller, as one disk; the object store has none.
  const auto disks = host(e, "warm-0-1")->get_disks();
  REQUIRE(disks.size() == 1);
  CHECK(disks[0]->get_read_bandwidth() == Approx(12 * 6e9));
  CHECK(host(e, "cold-0-1")->get_disks().empty());
  CHECK(p.servers[1].disks.empty());

  // The array's internal limit is its controllers' bandwidth (1M IOPS x 1 MiB requests is far above it).
  CHECK(bandwidth(e, "warm-0-1-internal_UP") == Approx(2 * 20e9));
  CHECK(bandwidth(e, "warm-0-1-internal_DOWN") == Approx(2 * 20e9));
  CHECK(bandwidth(e, "warm-0-1-front-end_UP") == Approx(2 * 2 * 100 * kGbps * kTcpJumbo));
  CHECK(bandwidth(e, "cold-0-1-front-end_UP") == Approx(2 * 10e9));
  // Connection pool: 16 connections per node, each moving a 64 MB object per 10 ms + 64 MB / 500 MB/s; 2 nodes.
  const double per_connection = 64e6 / (10e-3 + 64e6 / 500e6);
  CHECK(bandwidth(e, "node-0-1-cold-client_UP") == Approx(2 * 16 * per_connection));
  // The array's NFS client runs over TCP (its default protocol): 16 connections (nconnect) of 25 Gb/s per node.
  CHECK(bandwidth(e, "node-0-1-warm-client_UP") == Approx(2 * 16 * 25 * kGbps));

  double lat = 0;
  CHECK(route(e, "node-0-1", "cold-0-1", &p, &lat) ==
        Names{"node-0-1-nic_UP", "node-0-1-cold-client_UP", "cold-0-1-front-end_DOWN"});
  CHECK(lat == Approx(2 * kLinkLatency)); // the pool has no latency of its own
  CHECK(route(e, "cold-0-1", "node-0-1") ==
        Names{"cold-0-1-front-end_UP", "node-0-1-cold-client_DOWN", "node-0-1-nic_DOWN"});
  CHECK(route(e, "node-0-1", "warm-0-1") ==
        Names{"node-0-1-nic_UP", "node-0-1-warm-client_UP", "warm-0-1-front-end_DOWN", "warm-0-1-internal_DOWN"});
  // Replication: out of the array through its internal limit and front end, into the store's front end.
  CHECK(route(e, "warm-0-1", "cold-0-1", &p, &lat) ==
        Names{"warm-0-1-internal_UP", "warm-0-1-front-end_UP", "cold-0-1-front-end_DOWN"});
  CHECK(lat == Approx(2 * kLinkLatency));
}

TEST_CASE("platform: fat tree: leaves never merge, and a route between pods climbs to the pod uplinks", "[platform]") {
  TestEngine t;
  // k = 4: edge switches of 2 endpoints, 2 edges per pod. Nodes 0-3 on edges 0 and 1 (pod 0); the one enclosure
  // is endpoint 4, on edge 2 (pod 1). Every switch-to-switch cable 100 Gb/s.
  const Scenario sc = parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 4, "gpu": "H100-SXM", "nics": 2, "nic_speed": "100Gbps"}]},
    "network": {"topology": "fat_tree", "k": 4, "link_speed": "100Gbps"},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {"jbof": {"kind": "jbof", "enclosures": 1, "drives_per_enclosure": 3, "drive": "d"}},
    "workloads": [{"name": "a", "kind": "training", "gpus": 32, "step_time": "1s", "global_batch": 8,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "jbof"},
                   "checkpoint": {"size": "100GB", "interval": "10min", "storage": "jbof"}}],
    "simulation": {"duration": "1h"}
  })");
  const auto net = build_cluster_network(sc);
  const auto p = aisim::sim::build_platform(sc, net);
  const auto& e = t.engine;

  // Both edges hold 2 nodes of the one job, yet a fat tree's leaves stay apart (pods would have to merge too).
  REQUIRE(p.node_sets.size() == 2);
  CHECK(p.node_sets[0].name == "node-0-1");
  CHECK(p.node_sets[1].name == "node-2-3");
  CHECK(e.get_host_count() == 5); // and each node set's file system on the JBOF
  // An edge's uplinks: k/2 cables; a pod's: (k/2)^2.
  CHECK(bandwidth(e, "edge0-uplinks_UP") == Approx(2 * 100 * kGbps * kRoce));
  CHECK(bandwidth(e, "pod1-uplinks_DOWN") == Approx(4 * 100 * kGbps * kRoce));
  // 2 NICs + 1 front end + 8 edges + 4 pods, each split in two, and SimGrid's __loopback__.
  CHECK(e.get_link_count() == 2 * (2 + 1 + 8 + 4) + 1);

  double lat = 0;
  CHECK(route(e, "node-2-3", "jbof-0", &p, &lat) == Names{"node-2-3-nic_UP", "edge1-uplinks_UP", "pod0-uplinks_UP",
                                                          "pod1-uplinks_DOWN", "edge2-uplinks_DOWN",
                                                          "jbof-0-front-end_DOWN"});
  CHECK(lat == Approx(6 * kLinkLatency));
  CHECK(route(e, "jbof-0", "node-0-1") == Names{"jbof-0-front-end_UP", "edge2-uplinks_UP", "pod1-uplinks_UP",
                                                "pod0-uplinks_DOWN", "edge0-uplinks_DOWN", "node-0-1-nic_DOWN"});
}
