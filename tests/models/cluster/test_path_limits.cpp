// Each tier of the path between a job's nodes and a storage system, on its own (models/cluster/path_limits.hpp):
// the tiers a planner would add up by hand, lowest first.
#include "models/cluster/path_limits.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <set>
#include <string>

using namespace aisim::models;

namespace {
constexpr double G = 1e9;
// Data bytes per line byte on Ethernet with jumbo frames (models/cluster/wire.hpp): RoCEv2 for a jbof's and a
// pfs's default client, TCP/IP for an NFS array's.
constexpr double kRoce = 4096.0 / 4178;
constexpr double kTcp = 8948.0 / 9038;

Scenario parse(const std::string& storage, const std::string& extra = "", int nodes = 4) {
  const std::string text = R"({"schema_version": 1, "name": "t",
    "cluster": {"node_groups": [{"name": "n", "count": )" +
                           std::to_string(nodes) + R"(, "gpus_per_node": 8, "gpu": "H100-SXM", "nics": 1,
                                 "nic_speed": "100Gbps"}]},
    "drives": {"d": {"capacity": "7.68TB", "read_bandwidth": "2GB/s", "write_bandwidth": "1GB/s", "price": "$1000"}},
    "storage": {)" + storage +
                           R"(},
    "workloads": [{"name": "w", "kind": "training", "gpus": 32, "step_time": "1s", "global_batch": 32,
                   "sample_size": "1MB", "dataset": {"size": "1TB", "storage": "s"},
                   "checkpoint": {"size": "100GB", "interval": "30min", "storage": "s"}}])" +
                           extra + R"(,
    "simulation": {"duration": "1h"}})";
  auto r = parse_scenario(Json::parse(text), "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  return *r.scenario;
}

PathQuery query(IoOp op, int nodes = 4) {
  PathQuery q;
  q.storage = 0;
  q.op = op;
  q.group = 0;
  for (int n = 0; n < nodes; ++n)
    q.nodes.push_back(n);
  return q;
}

const TierLimit& tier(const std::vector<TierLimit>& limits, const std::string& name) {
  for (const auto& t : limits)
    if (t.tier == name)
      return t;
  FAIL("no tier " << name);
  return limits.front();
}
} // namespace

TEST_CASE("a JBOF path: NICs, ports, PCIe uplinks and drives, lowest first", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                              "ports_per_enclosure": 1, "port_speed": "200Gbps", "switch_uplink": "20GB/s"})");
  const auto net = build_cluster_network(sc);
  const auto w = path_limits(sc, net, query(IoOp::write));
  REQUIRE(w.size() == 4); // one switch: no fabric tier
  CHECK(w[0].tier == "drives");
  CHECK(w[0].Bps == Approx(16 * 1 * G)); // 16 drives x 1 GB/s of writes
  CHECK(tier(w, "internal").Bps == Approx(2 * 20 * G));
  CHECK(tier(w, "storage_ports").Bps == Approx(2 * 25 * G * kRoce));
  CHECK(tier(w, "node_nics").Bps == Approx(4 * 12.5 * G * kRoce));
  for (size_t i = 1; i < w.size(); ++i)
    CHECK(w[i - 1].Bps <= w[i].Bps);
  // Reads: the drives give 2 GB/s each, so the PCIe uplinks bind first.
  const auto r = path_limits(sc, net, query(IoOp::read));
  CHECK(r[0].tier == "drives");
  CHECK(r[0].Bps == Approx(32 * G));
  CHECK(r[1].tier == "internal");
  // One node alone: its own NIC.
  const auto one = path_limits(sc, net, query(IoOp::read, 1));
  CHECK(one[0].tier == "node_nics");
  CHECK(one[0].Bps == Approx(12.5 * G * kRoce));
}

TEST_CASE("host-side mirroring doubles the bytes on every tier; server-side RAID only on the drives", "[path_limits]") {
  const auto mirror = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                                  "ports_per_enclosure": 1, "port_speed": "200Gbps",
                                  "protection": {"scheme": "mirror", "copies": 2}})");
  const auto w = path_limits(mirror, build_cluster_network(mirror), query(IoOp::write));
  CHECK(tier(w, "node_nics").Bps == Approx(4 * 12.5 * G * kRoce / 2));
  CHECK(tier(w, "storage_ports").Bps == Approx(2 * 25 * G * kRoce / 2));
  CHECK(tier(w, "drives").Bps == Approx(16 * G / 2));
  const auto r = path_limits(mirror, build_cluster_network(mirror), query(IoOp::read));
  CHECK(tier(r, "node_nics").Bps == Approx(4 * 12.5 * G * kRoce));
}

TEST_CASE("a parallel file system: few files reach few servers; small files are bound by metadata", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "pfs", "servers": 8, "drives_per_server": 4, "drive": "d",
                              "ports_per_server": 1, "port_speed": "100Gbps", "stripe_count": 1,
                              "metadata_servers": 1, "metadata_ops_per_server": "10k op/s"})");
  const auto net = build_cluster_network(sc);
  auto q = query(IoOp::write);
  q.files = 2; // two files of one stripe each: two servers
  const auto w = path_limits(sc, net, q);
  CHECK(tier(w, "storage_ports").Bps == Approx(2 * 12.5 * G * kRoce));
  CHECK(tier(w, "drives").Bps == Approx(2 * 4 * G));
  auto rq = query(IoOp::read);
  rq.metadata_ops_per_byte = 2.0 / 100e3; // an open and a close per 100 kB file
  const auto r = path_limits(sc, net, rq);
  CHECK(r[0].tier == "metadata");
  CHECK(r[0].Bps == Approx(10e3 / 2 * 100e3));
}

TEST_CASE("small files on an array cost its controllers' file service; on a jbof each node's own", "[path_limits]") {
  auto rq = query(IoOp::read);
  rq.metadata_ops_per_byte = 2.0 / 100e3; // an open and a close per 100 kB file
  const auto array = parse(R"("s": {"kind": "array", "controllers": 4, "failover": "active_passive",
                                 "controller_bandwidth": "40GB/s", "shelves": 1, "drives_per_shelf": 24, "drive": "d",
                                 "metadata_ops_per_controller": "20k op/s"})");
  const auto a = path_limits(array, build_cluster_network(array), rq);
  CHECK(a[0].tier == "metadata");
  CHECK(a[0].Bps == Approx(2 * 20e3 / 2 * 100e3)); // the two active controllers only
  CHECK(a[0].detail == "2 x 20,000 op/s");
  const auto jbof = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 24, "drive": "d",
                                "metadata_ops_per_node": "1000 op/s"})");
  const auto j = path_limits(jbof, build_cluster_network(jbof), rq);
  CHECK(j[0].tier == "metadata");
  CHECK(j[0].Bps == Approx(4 * 1e3 / 2 * 100e3)); // the job's 4 nodes, each its own file system
  CHECK(j[0].name == "node file systems");
  // Large shards cost nothing per file: no metadata tier at all.
  const auto shards = path_limits(jbof, build_cluster_network(jbof), query(IoOp::read));
  CHECK(std::none_of(shards.begin(), shards.end(), [](const TierLimit& t) { return t.tier == "metadata"; }));
}

TEST_CASE("an object store's requests: a GET per small file, a PUT per part of at most object_size", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "object", "capacity": "1PB", "prefixes": 2, "object_size": "64MB"})");
  const auto net = build_cluster_network(sc);
  auto rq = query(IoOp::read);
  rq.file_size = 100e3; // small files: a GET each
  const auto r = path_limits(sc, net, rq);
  CHECK(r[0].tier == "requests");
  CHECK(r[0].name == "object GET requests");
  CHECK(r[0].Bps == Approx(2 * 5500 * 100e3));
  const auto w = path_limits(sc, net, query(IoOp::write)); // large: parts of 64 MB
  CHECK(tier(w, "requests").Bps == Approx(2 * 3500 * 64e6));
  CHECK(tier(w, "requests").name == "object PUT requests");
}

TEST_CASE("a spine-leaf fabric is its own tier; synchronous replication adds its target", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "array", "controllers": 2, "controller_bandwidth": "40GB/s",
                              "shelves": 1, "drives_per_shelf": 24, "drive": "d", "ports_per_controller": 2,
                              "port_speed": "400Gbps", "replication": {"target": "dr", "mode": "sync"}},
                         "dr": {"kind": "array", "controllers": 2, "controller_bandwidth": "5GB/s",
                              "shelves": 1, "drives_per_shelf": 24, "drive": "d", "ports_per_controller": 2,
                              "port_speed": "400Gbps"})",
                        R"(, "network": {"topology": "spine_leaf", "nodes_per_leaf": 2, "enclosures_per_leaf": 2,
                               "spines": 1, "oversubscription": 4})");
  const auto net = build_cluster_network(sc);
  const auto w = path_limits(sc, net, query(IoOp::write));
  CHECK(tier(w, "replica_target").Bps == Approx(2 * 5 * G));
  CHECK(w[0].tier == "replica_target");
  // The GPU leaves bind before the storage leaf (2 x 100 GB/s of ports / 4 = 50 GB/s): each has 2 nodes x
  // 12.5 GB/s of NICs and a quarter of that as uplinks, two leaves 12.5 GB/s, of which NFS over TCP carries data
  // at 8948 / 9038.
  CHECK(tier(w, "fabric").Bps == Approx(2 * (2 * 12.5 * G / 4) * kTcp));
  const auto r = path_limits(sc, net, query(IoOp::read));
  for (const auto& t : r)
    CHECK(t.tier != "replica_target");
}

TEST_CASE("the switches' bound is one max flow per set of leaves, the same as to every node", "[path_limits]") {
  const std::string jbof = R"("s": {"kind": "jbof", "enclosures": 6, "drives_per_enclosure": 8, "drive": "d",
                                   "ports_per_enclosure": 2, "port_speed": "100Gbps"})";
  for (
      const std::string network :
      {R"("topology": "spine_leaf", "nodes_per_leaf": 4, "enclosures_per_leaf": 2, "spines": 2, "oversubscription": 3)",
       R"("topology": "rail_optimized", "nodes_per_leaf": 4, "enclosures_per_leaf": 4, "spines": 2,
           "oversubscription": 2)",
       R"("topology": "fat_tree", "k": 6, "link_speed": "100Gbps")"}) {
    INFO(network);
    const auto sc = parse(jbof, R"(, "network": {)" + network + "}", 12);
    const auto net = build_cluster_network(sc);
    std::vector<std::pair<int, double>> servers;
    for (int e = 0; e < 6; ++e)
      servers.emplace_back(net.enclosure_endpoint(0, e), std::numeric_limits<double>::infinity());
    // Node sets over one leaf, two, and all of them; the second of each pair asks again on the same leaves.
    const std::vector<std::vector<int>> sets{{0, 1}, {2, 3}, {0, 5}, {1, 4, 6}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};
    std::set<std::set<int>> leaf_sets;
    for (const auto& nodes : sets) {
      std::vector<int> sinks;
      std::set<int> leaves;
      for (int n : nodes) {
        sinks.push_back(net.node_endpoint(0, n));
        leaves.insert(net.fabric.leaf_of(sinks.back()));
      }
      leaf_sets.insert(leaves);
      CHECK(net.switch_bound_Bps(0, 6, sinks) == Approx(net.fabric.max_flow_Bps(servers, sinks, true)).epsilon(1e-12));
    }
    // Sets on the same leaves (edge switches) share one max flow.
    CHECK(net.switch_bounds.size() == leaf_sets.size());
    CHECK(leaf_sets.size() < sets.size());
  }
}

TEST_CASE("a copy between systems: source ports, the destination's tiers, source drives only for data at rest",
          "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                              "ports_per_enclosure": 1, "port_speed": "200Gbps"},
                         "cold": {"kind": "object", "gateways": 2, "gateway_bandwidth": "10GB/s",
                                  "capacity": "1PB"})");
  const auto net = build_cluster_network(sc);
  const auto up = copy_limits(sc, net, 0, 1, false); // replication forwards what arrives: no source drive reads
  CHECK(up[0].tier == "storage_ports");
  CHECK(up[0].Bps == Approx(2 * 10 * G));
  for (const auto& t : up)
    CHECK(t.tier != "source_drives");
  // Staging from the object store: its gateways (2 x 10 GB/s) against the JBOF's 16 drives x 1 GB/s of writes.
  const auto down = copy_limits(sc, net, 1, 0, true);
  CHECK(down[0].tier == "drives");
  CHECK(down[0].Bps == Approx(16 * 1 * G));
  CHECK(tier(down, "source_ports").Bps == Approx(2 * 10 * G));
  const auto at_rest = copy_limits(sc, net, 0, 1, true);
  CHECK(tier(at_rest, "source_drives").Bps == Approx(16 * 2 * G));
}

TEST_CASE("a rebuild: one drive's writes, or the rebuild_rate cap when lower", "[path_limits]") {
  const auto plain = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                                 "protection": {"scheme": "mirror", "copies": 2}})");
  const auto r = rebuild_limits(plain, 0);
  REQUIRE(r.size() == 1);
  CHECK(r[0].Bps == Approx(1 * G));
  const auto capped = parse(R"("s": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 8, "drive": "d",
                                  "protection": {"scheme": "mirror", "copies": 2, "rebuild_rate": "200MB/s"}})");
  const auto c = rebuild_limits(capped, 0);
  REQUIRE(c.size() == 2);
  CHECK(c[0].tier == "rebuild_rate");
  CHECK(c[0].Bps == Approx(0.2 * G));
}

TEST_CASE("a parallel file system's stripe size: a file smaller than a stripe reaches one server", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "pfs", "servers": 8, "drives_per_server": 4, "drive": "d",
                              "ports_per_server": 1, "port_speed": "100Gbps", "stripe_count": 4,
                              "stripe_size": "4MiB", "metadata_servers": 1, "metadata_ops_per_server": "10k op/s"})");
  const auto net = build_cluster_network(sc);
  auto q = query(IoOp::write);
  q.files = 2;
  q.file_size = 3e6; // under one 4 MiB stripe: each file on one server
  CHECK(tier(path_limits(sc, net, q), "storage_ports").Bps == Approx(2 * 12.5 * G * kRoce));
  q.file_size = 10e6; // three stripes each: six servers
  CHECK(tier(path_limits(sc, net, q), "storage_ports").Bps == Approx(6 * 12.5 * G * kRoce));
  q.file_size = 0; // large: stripe_count each
  CHECK(tier(path_limits(sc, net, q), "storage_ports").Bps == Approx(8 * 12.5 * G * kRoce));
}

TEST_CASE("the nodes' own data path is a tier of the job's path", "[path_limits]") {
  const auto sc = parse(R"("s": {"kind": "jbof", "enclosures": 8, "drives_per_enclosure": 8, "drive": "d",
                                 "ports_per_enclosure": 2, "port_speed": "400Gbps"})");
  const auto net = build_cluster_network(sc);
  auto q = query(IoOp::read);
  q.job = 0;
  const auto r = path_limits(sc, net, q);
  // Four nodes bouncing through host memory: 4 PCIe switch uplinks of 50 GB/s each (gpu_host_bandwidth).
  bool found = false;
  for (const auto& t : r)
    if (t.tier == "host_path" && t.name == "PCIe switch uplinks (host bounce buffers)") {
      CHECK(t.Bps == Approx(4 * 4 * 50 * G));
      found = true;
    }
  CHECK(found);
  q.job = -1;
  const auto without = path_limits(sc, net, q);
  CHECK(std::none_of(without.begin(), without.end(), [](const TierLimit& t) { return t.tier == "host_path"; }));
}
