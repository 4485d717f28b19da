// The scenario's cluster laid onto its fabric: one endpoint per GPU node (group by group, in order) and per
// storage enclosure (system by system), and the max-flow bounds between storage and GPUs.
#pragma once

#include "models/hardware/fabric.hpp"
#include "models/scenario/scenario.hpp"

#include <map>
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

struct FlowBound {
  double read_Bps = 0;  // storage -> every GPU node, each enclosure capped by its drives' read bandwidth
  double write_Bps = 0; // every GPU node -> storage, capped by the drives' write bandwidth
};

// Per storage system, in scenario order. Simulated throughput can never exceed these.
std::vector<FlowBound> storage_flow_bounds(const Scenario& sc, const ClusterNetwork& net);

} // namespace aisim::models
