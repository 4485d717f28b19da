// The platform's shape before any SimGrid object exists: which nodes each job holds, which node sets and storage
// servers the engine makes of them at the scenario's fidelity, and which systems copy to which. No SimGrid here,
// so each decision is testable on its own (tests/sim/platform/).
#pragma once

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace aisim::sim {

// A run of one job's consecutive nodes on one leaf. They carry the same load at either fidelity (a node's links
// carry only its job's traffic), so one host with their summed links and a flow weighted by their count shares
// every link as their separate flows would.
struct NodeSpan {
  int job = -1;
  int group = -1;
  int leaf = -1;
  int first = 0; // the first node's number in its group
  int count = 0;
  // An inference fleet's replica-count band: the span lies between the same two replica counts its scale events
  // reach (0 for other jobs). A cold start loads whole bands.
  int band = 0;
};

// Jobs take nodes in order of start time; a node frees when its job ends, so a schedule reuses it. Lowest free
// nodes first keeps a job's nodes together under few leaves. A job's consecutive nodes on one leaf are one span,
// except across the replica counts an inference fleet scales to: a cold start loads whole spans.
std::vector<NodeSpan> place_jobs(const models::Scenario& sc, const models::ClusterNetwork& net);

// One node set of the platform: a span, or, where the fabric lets leaves merge, a class of distinct leaves that
// each hold `nodes_per_leaf` nodes of one job (spine-leaf and rail fabrics only: a fat tree's pods would have to
// merge too). Leaves merge where they hold the same spans over the whole period: the same jobs, each with as many
// nodes (and an inference fleet's in the same band). Such leaves carry the same load at every moment, whatever the
// schedule, so each job's spans on them are one set, and all the sets on them share one link standing for their
// uplinks (`leaf_class`): back-to-back runs on the same nodes merge as a lone job does.
struct NodeSetLayout {
  std::string name;
  int job = -1;
  int group = -1;
  int nodes_per_leaf = 0;
  int band = 0;
  int leaf_class = -1; // sets with the same leaf_class lie on the same leaves and share their uplinks
  std::vector<int> leaves;
  std::vector<int> first_nodes; // the first node of the job on each leaf, for names
  int nodes() const { return nodes_per_leaf * static_cast<int>(leaves.size()); }
};

// Node sets in the order the engine creates them; names are unique (a job that follows another on the same nodes
// gets its own name).
std::vector<NodeSetLayout> layout_node_sets(const models::Scenario& sc, const std::vector<NodeSpan>& spans,
                                            bool leaves_merge);

// One storage server host: `count` physical servers of one system on one leaf. PFS servers always stay apart (a
// checkpoint's few files may stripe over only some of them); at fidelity "full" so do the servers of a system
// whose servers or drives can fail (one failing mid-transfer stalls only its own flows, and a rebuild's copies
// cross the ports between them), while those of a system where nothing fails take the same stripes and merge.
struct ServerLayout {
  std::string name;
  int storage = -1;
  int first = 0; // the first physical server's number in its system
  int count = 1;
  int leaf = -1;
};

std::vector<ServerLayout> layout_storage_servers(const models::Scenario& sc, const models::ClusterNetwork& net,
                                                 bool full);

} // namespace aisim::sim
