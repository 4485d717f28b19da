// The platform's shape without SimGrid: which nodes each job holds, the node sets and storage servers made of
// them at each fidelity, and which systems copy to which (sim/platform/layout.hpp).
#include "sim/platform/layout.hpp"

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <array>
#include <set>
#include <string>
#include <utility>
#include <vector>

using namespace aisim::models;
using aisim::sim::layout_node_sets;
using aisim::sim::layout_storage_servers;
using aisim::sim::NodeSetLayout;
using aisim::sim::NodeSpan;
using aisim::sim::place_jobs;
using aisim::sim::ServerLayout;

namespace {

// A training job of `gpus` GPUs (8 per node) reading from and checkpointing to `storage`.
Json job(const std::string& name, int gpus, const std::string& storage = "jbof") {
  Json j = Json::parse(R"({"kind": "training", "step_time": "1s", "global_batch": 8, "sample_size": "1MB",
                           "dataset": {"size": "1TB"}, "checkpoint": {"size": "100GB", "interval": "10min"}})");
  j["name"] = name;
  j["gpus"] = gpus;
  j["dataset"]["storage"] = storage;
  j["checkpoint"]["storage"] = storage;
  return j;
}

// `nodes` nodes of 8 GPUs, one JBOF system of two enclosures, no jobs yet.
Json base(int nodes, const std::string& fidelity) {
  Json doc = Json::parse(R"({
    "schema_version": 1,
    "cluster": {"node_groups": [{"name": "node", "count": 1, "gpu": "H100-SXM"}]},
    "drives": {"d": {"capacity": "8TB", "read_bandwidth": "6GB/s", "write_bandwidth": "4GB/s", "price": "$1000"}},
    "storage": {"jbof": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 4, "drive": "d"}},
    "workloads": [],
    "simulation": {"duration": "1d"}
  })");
  doc["cluster"]["node_groups"][0]["count"] = nodes;
  doc["simulation"]["fidelity"] = fidelity;
  return doc;
}

Json spine_leaf(int nodes_per_leaf, int enclosures_per_leaf) {
  Json net = Json::parse(R"({"topology": "spine_leaf", "spines": 2})");
  net["nodes_per_leaf"] = nodes_per_leaf;
  net["enclosures_per_leaf"] = enclosures_per_leaf;
  return net;
}

Scenario parse(const Json& doc) {
  auto r = parse_scenario(doc, "s.json", ".");
  INFO(r.diagnostics.format(true));
  REQUIRE(r.scenario.has_value());
  return *r.scenario;
}

// {job, group, leaf, first, count}: one line per span, for whole-vector comparisons.
std::vector<std::array<int, 5>> spans_of(const std::vector<NodeSpan>& spans) {
  std::vector<std::array<int, 5>> out;
  for (const auto& s : spans)
    out.push_back({s.job, s.group, s.leaf, s.first, s.count});
  return out;
}

std::vector<std::string> names_of(const std::vector<NodeSetLayout>& sets) {
  std::vector<std::string> out;
  for (const auto& s : sets)
    out.push_back(s.name);
  return out;
}

// {storage, first, count, leaf} per server.
std::vector<std::array<int, 4>> servers_of(const std::vector<ServerLayout>& servers) {
  std::vector<std::array<int, 4>> out;
  for (const auto& s : servers)
    out.push_back({s.storage, s.first, s.count, s.leaf});
  return out;
}

std::vector<std::string> names_of(const std::vector<ServerLayout>& servers) {
  std::vector<std::string> out;
  for (const auto& s : servers)
    out.push_back(s.name);
  return out;
}

} // namespace

TEST_CASE("layout: a job's consecutive nodes on one leaf are one span", "[layout]") {
  // Both fidelities: the nodes carry the same load, so one host with their links summed shares as they would.
  SECTION("one switch") {
    Json doc = base(4, "aggregate");
    doc["workloads"].push_back(job("a", 24));
    const Scenario sc = parse(doc);
    const auto net = build_cluster_network(sc);
    const auto spans = place_jobs(sc, net);
    // Nodes 0, 1 and 2 are consecutive and share the one switch: one span of 3.
    CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{{0, 0, 0, 0, 3}});
    // A single switch never merges leaves; the set is named after its first and last node.
    const auto sets = layout_node_sets(sc, spans, false);
    REQUIRE(sets.size() == 1);
    CHECK(sets[0].name == "node-0-2");
    CHECK(sets[0].nodes() == 3);
  }
  SECTION("a leaf boundary splits the run") {
    Json doc = base(6, "full");
    doc["network"] = spine_leaf(4, 8);
    doc["workloads"].push_back(job("a", 48)); // all 6 nodes
    const Scenario sc = parse(doc);
    const auto net = build_cluster_network(sc);
    const auto spans = place_jobs(sc, net);
    // 4 nodes per leaf: nodes 0-3 on leaf 0, nodes 4-5 on leaf 1.
    CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{{0, 0, 0, 0, 4}, {0, 0, 1, 4, 2}});
    // Fidelity full never merges leaves: one node set per span.
    CHECK(names_of(layout_node_sets(sc, spans, false)) == std::vector<std::string>{"node-0-3", "node-4-5"});
  }
}

TEST_CASE("layout: spine-leaf: leaves holding equal shares of one job are one node set, a part-full leaf stays apart",
          "[layout]") {
  // 18 nodes, 4 per leaf: leaves 0-3 full, leaf 4 holds nodes 16 and 17; one job on all of them.
  Json doc = base(18, "aggregate");
  doc["network"] = spine_leaf(4, 8);
  doc["workloads"].push_back(job("a", 144));
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto spans = place_jobs(sc, net);
  CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{
                               {0, 0, 0, 0, 4}, {0, 0, 1, 4, 4}, {0, 0, 2, 8, 4}, {0, 0, 3, 12, 4}, {0, 0, 4, 16, 2}});
  const auto sets = layout_node_sets(sc, spans, true);
  REQUIRE(sets.size() == 2);
  // Name: group, first node, last node (last leaf's first node + nodes per leaf - 1 = 12 + 3), leaf count.
  CHECK(sets[0].name == "node-0-15-x4-leaves");
  CHECK(sets[0].nodes_per_leaf == 4);
  CHECK(sets[0].leaves == std::vector<int>{0, 1, 2, 3});
  CHECK(sets[0].first_nodes == std::vector<int>{0, 4, 8, 12});
  CHECK(sets[0].nodes() == 16);
  // The half-full last leaf carries a different load per leaf: its own set, on one leaf, so no "-x" suffix.
  CHECK(sets[1].name == "node-16-17");
  CHECK(sets[1].leaves == std::vector<int>{4});
  CHECK(sets[1].nodes() == 2);

  // Where leaves may not merge (fat tree, or fidelity full), every span stays its own set.
  CHECK(names_of(layout_node_sets(sc, spans, false)) ==
        std::vector<std::string>{"node-0-3", "node-4-7", "node-8-11", "node-12-15", "node-16-17"});
}

TEST_CASE("layout: spine-leaf: an inference fleet's leaves merge within a replica-count band only", "[layout]") {
  // 8 nodes, 2 per leaf, one fleet of 8-GPU replicas on all of them that scales between 2 and 6 replicas: a cold
  // start loads nodes 2-5 or 0-1 (and 6-7 never), so the spans break at nodes 2 and 6 and only leaves 1 and 2 (both
  // in the band of nodes 2-5) carry the same load at every moment.
  Json doc = base(8, "aggregate");
  doc["network"] = spine_leaf(2, 8);
  doc["workloads"].push_back(Json::parse(R"({"name": "serve", "kind": "inference", "gpus": 64, "gpus_per_replica": 8,
    "model": {"size": "100GB", "storage": "jbof"}, "scale": [{"at": "0s", "replicas": 2}, {"at": "1h", "replicas": 6},
    {"at": "2h", "replicas": 2}]})"));
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto spans = place_jobs(sc, net);
  CHECK(spans_of(spans) ==
        std::vector<std::array<int, 5>>{{0, 0, 0, 0, 2}, {0, 0, 1, 2, 2}, {0, 0, 2, 4, 2}, {0, 0, 3, 6, 2}});
  std::vector<int> bands;
  for (const auto& sp : spans)
    bands.push_back(sp.band);
  CHECK(bands == std::vector<int>{0, 1, 1, 2});
  // Node sets keep the fleet's node order, which cold starts count GPUs along.
  CHECK(names_of(layout_node_sets(sc, spans, true)) ==
        std::vector<std::string>{"node-0-1", "node-2-5-x2-leaves", "node-6-7"});
}

TEST_CASE("layout: spine-leaf: a leaf shared by two jobs is never merged", "[layout]") {
  // 8 nodes, 2 per leaf. Job a takes nodes 0-4 (leaves 0, 1 and half of 2), job b nodes 5-7 (the rest of
  // leaf 2 and leaf 3).
  Json doc = base(8, "aggregate");
  doc["network"] = spine_leaf(2, 8);
  doc["workloads"].push_back(job("a", 40));
  doc["workloads"].push_back(job("b", 24));
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto spans = place_jobs(sc, net);
  CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{
                               {0, 0, 0, 0, 2}, {0, 0, 1, 2, 2}, {0, 0, 2, 4, 1}, {1, 0, 2, 5, 1}, {1, 0, 3, 6, 2}});
  const auto sets = layout_node_sets(sc, spans, true);
  // a's two exclusive leaves merge; its node on the shared leaf 2 is a set of its own, as is b's; b's one
  // exclusive leaf is a set on one leaf.
  CHECK(names_of(sets) == std::vector<std::string>{"node-0-3-x2-leaves", "node-4", "node-5", "node-6-7"});
  REQUIRE(sets.size() == 4);
  CHECK(sets[0].job == 0);
  CHECK(sets[0].leaves == std::vector<int>{0, 1});
  CHECK(sets[1].job == 0);
  CHECK(sets[1].leaves == std::vector<int>{2});
  CHECK(sets[2].job == 1);
  CHECK(sets[2].leaves == std::vector<int>{2});
  CHECK(sets[3].job == 1);
  CHECK(sets[3].leaves == std::vector<int>{3});
}

TEST_CASE("layout: a job scheduled after another on the same nodes reuses them under a name of its own", "[layout]") {
  // Listed late first: jobs are placed in order of start, so "early" (index 1) takes nodes first.
  Json doc = base(4, "aggregate");
  doc["network"] = spine_leaf(4, 8);
  Json late = job("late", 32);
  late["start"] = "2h";
  late["duration"] = "1h";
  Json early = job("early", 32);
  early["duration"] = "2h";
  doc["workloads"].push_back(late);
  doc["workloads"].push_back(early);
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto spans = place_jobs(sc, net);
  // Both hold all 4 nodes of leaf 0: "early" until 2 h, then "late" from 2 h.
  CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{{1, 0, 0, 0, 4}, {0, 0, 0, 0, 4}});
  const auto sets = layout_node_sets(sc, spans, true);
  REQUIRE(sets.size() == 2);
  // Two jobs on leaf 0 (at different times), each a set on its one leaf; the second name clashes with the first
  // and takes its job's name.
  CHECK(sets[0].name == "node-0-3");
  CHECK(sets[0].job == 1);
  CHECK(sets[1].name == "node-0-3-late");
  CHECK(sets[1].job == 0);
}

TEST_CASE("layout: a later job takes the lowest nodes free at its start", "[layout]") {
  // 6 nodes, one switch. "long" holds nodes 0-1 for the whole day; "short" nodes 2-3 for the first hour; "next"
  // starts at 1 h, when nodes 2-5 are free, and takes the lowest two: 2 and 3.
  Json doc = base(6, "aggregate");
  Json lng = job("long", 16);
  Json shrt = job("short", 16);
  shrt["duration"] = "1h";
  Json next = job("next", 16);
  next["start"] = "1h";
  doc["workloads"] = Json::array({lng, shrt, next});
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto spans = place_jobs(sc, net);
  CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{{0, 0, 0, 0, 2}, {1, 0, 0, 2, 2}, {2, 0, 0, 2, 2}});
  CHECK(names_of(layout_node_sets(sc, spans, false)) ==
        std::vector<std::string>{"node-0-1", "node-2-3", "node-2-3-next"});
}

TEST_CASE("layout: storage servers on one leaf merge at fidelity aggregate, PFS servers never do", "[layout]") {
  // 4 nodes fill GPU leaf 0. Storage leaves hold 4 enclosures each, system after system: leaf 1 holds JBOF
  // enclosures 0-3, leaf 2 JBOF enclosure 4 and PFS servers 0-2.
  Json doc = base(4, "aggregate");
  doc["network"] = spine_leaf(4, 4);
  doc["storage"]["jbof"]["enclosures"] = 5;
  doc["storage"]["pfs"] = Json::parse(R"({"kind": "pfs", "servers": 3, "drives_per_server": 2, "drive": "d"})");
  doc["workloads"].push_back(job("a", 32));
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  REQUIRE(sc.storage_index("jbof") == 0);
  REQUIRE(sc.storage_index("pfs") == 1);

  SECTION("aggregate") {
    const auto servers = layout_storage_servers(sc, net, false);
    // JBOF: 4 on leaf 1 as one server, the 5th alone on leaf 2 (not merged with the PFS servers beside it);
    // PFS: one server each although all three share leaf 2 (checkpoints stripe over only some of them).
    CHECK(names_of(servers) == std::vector<std::string>{"jbof-0-3", "jbof-4", "pfs-0", "pfs-1", "pfs-2"});
    CHECK(servers_of(servers) ==
          std::vector<std::array<int, 4>>{{0, 0, 4, 1}, {0, 4, 1, 2}, {1, 0, 1, 2}, {1, 1, 1, 2}, {1, 2, 1, 2}});
  }
  SECTION("full, where nothing fails: the same as aggregate (the servers on a leaf take the same stripes)") {
    CHECK(names_of(layout_storage_servers(sc, net, true)) == names_of(layout_storage_servers(sc, net, false)));
  }
}

TEST_CASE("layout: at fidelity full, the servers of a system that can fail stay apart", "[layout]") {
  // One failing enclosure stalls only the flows to it, and a rebuild's copies cross the ports between servers.
  Json doc = base(4, "full");
  doc["storage"]["jbof"]["enclosures"] = 3;
  doc["workloads"].push_back(job("a", 32));
  SECTION("its own failures") {
    doc["storage"]["jbof"]["failures"] = Json::parse(R"({"drives": {"repair_time": "24h"}})");
    const Scenario sc = parse(doc);
    const auto net = build_cluster_network(sc);
    CHECK(names_of(layout_storage_servers(sc, net, true)) == std::vector<std::string>{"jbof-0", "jbof-1", "jbof-2"});
    CHECK(names_of(layout_storage_servers(sc, net, false)) == std::vector<std::string>{"jbof-0-2"});
  }
  SECTION("a fault domain that fails") {
    doc["fault_domains"] = Json::parse(R"([{"name": "rack", "kind": "rack", "members": ["jbof/enclosures/0-1"],
                                           "at": [{"time": "1h"}], "repair_time": "2h"}])");
    const Scenario sc = parse(doc);
    const auto net = build_cluster_network(sc);
    CHECK(names_of(layout_storage_servers(sc, net, true)) == std::vector<std::string>{"jbof-0", "jbof-1", "jbof-2"});
  }
  SECTION("a fault domain declared for the exposure analysis only fails nothing") {
    doc["fault_domains"] = Json::parse(R"([{"name": "rack", "kind": "rack", "members": ["jbof/enclosures/0-1"]}])");
    const Scenario sc = parse(doc);
    const auto net = build_cluster_network(sc);
    CHECK(names_of(layout_storage_servers(sc, net, true)) == std::vector<std::string>{"jbof-0-2"});
  }
}

TEST_CASE("layout: two JBOF enclosures on one switch are one server named jbof-0-1", "[layout]") {
  Json doc = base(2, "aggregate");
  doc["workloads"].push_back(job("a", 16));
  const Scenario sc = parse(doc);
  const auto net = build_cluster_network(sc);
  const auto servers = layout_storage_servers(sc, net, false);
  REQUIRE(servers.size() == 1);
  CHECK(servers[0].name == "jbof-0-1");
  CHECK(servers[0].count == 2);
  CHECK(servers[0].first == 0);
  CHECK(servers[0].leaf == 0);
}

TEST_CASE("layout: copy routes: replication and tiering between shared systems, never node-local storage", "[layout]") {
  // hot (JBOF) serves job a; job b reads from its nodes' local NVMe and checkpoints to hot. warm (an array)
  // replicates to cold (an object store), which is also the datasets' home and the checkpoint archive.
  Json doc = base(2, "aggregate");
  doc["storage"] = Json::parse(R"({
    "hot": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 4, "drive": "d"},
    "warm": {"kind": "array", "controller_bandwidth": "20GB/s", "drives_per_shelf": 12, "drive": "d",
             "replication": {"target": "cold", "mode": "async"}},
    "cold": {"kind": "object", "capacity": "10PB"},
    "local": {"kind": "local_nvme", "node_group": "node", "drives_per_node": 2, "drive": "d"}
  })");
  Json b = job("b", 8, "hot");
  b["dataset"]["storage"] = "local";
  doc["workloads"] = Json::array({job("a", 8, "hot"), b});
  doc["policies"] = Json::parse(R"({"tiering": {"dataset_home": "cold", "archive_checkpoints_to": "cold"}})");
  const Scenario sc = parse(doc);
  const auto index = [&](const char* name) { return static_cast<size_t>(sc.storage_index(name)); };
  const size_t hot = index("hot"), warm = index("warm"), cold = index("cold");
  // Staging cold -> hot (job a; job b's staging to local NVMe goes through its nodes), archiving hot -> cold
  // (both jobs), replication warm -> cold.
  CHECK(copy_routes(sc) == std::set<std::pair<size_t, size_t>>{{hot, cold}, {warm, cold}, {cold, hot}});

  SECTION("without replication and policies there are none") {
    doc["storage"]["warm"].erase("replication");
    doc.erase("policies");
    CHECK(copy_routes(parse(doc)).empty());
  }
}

TEST_CASE("layout: copy routes: promotion to the validated tier and its replica, within the tier both models share",
          "[layout]") {
  // As lifecycle.json: checkpoints on hot, validated and production models on protected, replicated to cold.
  Json doc = base(2, "aggregate");
  doc["storage"] = Json::parse(R"({
    "hot": {"kind": "jbof", "enclosures": 2, "drives_per_enclosure": 4, "drive": "d"},
    "protected": {"kind": "array", "controller_bandwidth": "20GB/s", "drives_per_shelf": 12, "drive": "d"},
    "cold": {"kind": "object", "capacity": "10PB"}
  })");
  doc["workloads"].push_back(job("a", 16, "hot"));
  doc["policies"] = Json::parse(R"({
    "placement": {"validated_model": "protected", "production_model": "protected"},
    "promotion": {"evaluate_every": 4, "production_every": 2},
    "tiering": {"replicate_validated_to": "cold"}
  })");
  const Scenario sc = parse(doc);
  const auto index = [&](const char* name) { return static_cast<size_t>(sc.storage_index(name)); };
  const size_t hot = index("hot"), prot = index("protected"), cold = index("cold");
  // Promotion hot -> protected, the validated replica protected -> cold; production is on protected too: a copy
  // within protected, through its controllers (sim/platform/routes.cpp).
  CHECK(copy_routes(sc) == std::set<std::pair<size_t, size_t>>{{hot, prot}, {prot, cold}, {prot, prot}});
}

TEST_CASE("layout: spine-leaf: runs that follow one another on the same leaves merge, sharing the leaves' uplinks",
          "[layout]") {
  // 12 nodes, 4 per leaf. run-1 holds nodes 0-7 (leaves 0 and 1) for 2 h, run-2 the same nodes after it, and
  // "other" nodes 8-11 all along; run-3 (from 4 h) takes nodes 0-5 only: 4 on leaf 0, 2 on leaf 1.
  Json doc = base(12, "aggregate");
  doc["network"] = spine_leaf(4, 8);
  for (int k = 0; k < 3; ++k) {
    Json run = job("run-" + std::to_string(k + 1), k < 2 ? 64 : 48);
    run["start"] = std::to_string(2 * k) + "h";
    run["duration"] = "2h";
    doc["workloads"].push_back(run);
  }
  doc["workloads"].push_back(job("other", 32));
  const Scenario sc = parse(doc);
  const auto spans = place_jobs(sc, build_cluster_network(sc));
  CHECK(spans_of(spans) == std::vector<std::array<int, 5>>{{0, 0, 0, 0, 4},
                                                           {0, 0, 1, 4, 4},
                                                           {3, 0, 2, 8, 4},
                                                           {1, 0, 0, 0, 4},
                                                           {1, 0, 1, 4, 4},
                                                           {2, 0, 0, 0, 4},
                                                           {2, 0, 1, 4, 2}});
  // Leaves 0 and 1 hold different spans over the period (run-3's 4 nodes on one, 2 on the other): nothing merges.
  CHECK(names_of(layout_node_sets(sc, spans, true)) ==
        std::vector<std::string>{"node-0-3", "node-4-7", "node-8-11", "node-0-3-run-2", "node-4-7-run-2",
                                 "node-0-3-run-3", "node-4-5"});
  // Without run-3 they hold the same (run-1's 4 nodes, then run-2's): each run is one set over both leaves, and the
  // two sets are one leaf class, so one link stands for the two leaves' uplinks, shared by both runs.
  doc["workloads"].erase(2);
  const Scenario two = parse(doc);
  const auto merged = layout_node_sets(two, place_jobs(two, build_cluster_network(two)), true);
  CHECK(names_of(merged) == std::vector<std::string>{"node-0-7-x2-leaves", "node-8-11", "node-0-7-x2-leaves-run-2"});
  REQUIRE(merged.size() == 3);
  CHECK(merged[0].leaves == std::vector<int>{0, 1});
  CHECK(merged[2].leaves == std::vector<int>{0, 1});
  CHECK(merged[0].leaf_class == merged[2].leaf_class);
  CHECK(merged[1].leaf_class != merged[0].leaf_class);
}
