// The scenario's cluster laid onto its fabric: one endpoint per GPU node (group by group, in order) and per
// storage enclosure (system by system), and the max-flow bounds between storage and GPUs.
#pragma once

#include "models/hardware/fabric.hpp"
#include "models/scenario/scenario.hpp"

#include <map>
#include <set>
#include <utility>
#include <tuple>
#include <vector>

namespace aisim::models {

struct ClusterNetwork {
  Fabric fabric;
  std::vector<int> first_node;      // endpoint of node 0 of each node group
  std::vector<int> first_enclosure; // endpoint of enclosure 0 of each storage system

  int node_endpoint(int group, int node) const { return first_node[group] + node; }
  int enclosure_endpoint(int storage, int enclosure) const { return first_enclosure[storage] + enclosure; }

  // What the switches alone carry from the `servers` servers of a storage system to the `sinks` endpoints, in bytes
  // per second (infinity when no switch stands between them): Fabric::max_flow_Bps with switches_only. With the
  // endpoints' own cables unlimited the answer depends only on the switches the sinks hang from, so it is one max
  // flow per system and set of (leaf, ports, kind), remembered: a year of a job mix asks it for every run, phase and
  // direction of jobs on the same leaves (1,624 max flows over 12,500 endpoints were 9 s of the 100,000-GPU year).
  // A ClusterNetwork is used by one thread.
  double switch_bound_Bps(int storage, int servers, const std::vector<int>& sinks) const;

  using SwitchBoundKey = std::pair<int, std::vector<std::tuple<int, int, int>>>;
  mutable std::map<SwitchBoundKey, double> switch_bounds{};
};

ClusterNetwork build_cluster_network(const Scenario& sc);

// Pairs of shared systems that copy data from one to the other: replication, and every movement the policies can
// make, a system paired with itself where a policy copies within it (a validated model cloned for production on
// the same array). Node-local storage is reached through the nodes instead.
std::set<std::pair<size_t, size_t>> copy_routes(const Scenario& sc);

struct FlowBound {
  double read_Bps = 0;  // storage -> every GPU node, each enclosure capped by its drives' read bandwidth
  double write_Bps = 0; // every GPU node -> storage, capped by the drives' write bandwidth
  // The same with the systems it copies to (reads) or from (writes) as further ends: replication, staging, tiering
  // and promotion take paths the GPUs' traffic does not (two systems on one leaf, under an oversubscribed spine).
  double read_with_copies_Bps = 0;
  double write_with_copies_Bps = 0;
};

// Per storage system, in scenario order. The GPUs' traffic can never exceed read_Bps and write_Bps, and all of a
// system's traffic, copies included, never the _with_copies bounds.
std::vector<FlowBound> storage_flow_bounds(const Scenario& sc, const ClusterNetwork& net);

} // namespace aisim::models
