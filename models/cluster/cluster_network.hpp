// The scenario's cluster laid onto its fabric: one endpoint per GPU node (group by group, in order) and per
// storage enclosure (system by system), and the max-flow bounds between storage and GPUs.
#pragma once

#include "models/hardware/fabric.hpp"
#include "models/scenario/scenario.hpp"

#include <vector>

namespace aisim::models {

struct ClusterNetwork {
  Fabric fabric;
  std::vector<int> first_node;      // endpoint of node 0 of each node group
  std::vector<int> first_enclosure; // endpoint of enclosure 0 of each storage system

  int node_endpoint(int group, int node) const { return first_node[group] + node; }
  int enclosure_endpoint(int storage, int enclosure) const { return first_enclosure[storage] + enclosure; }
};

ClusterNetwork build_cluster_network(const Scenario& sc);

struct FlowBound {
  double read_Bps = 0;  // storage -> every GPU node, each enclosure capped by its drives' read bandwidth
  double write_Bps = 0; // every GPU node -> storage, capped by the drives' write bandwidth
};

// Per storage system, in scenario order. Simulated throughput can never exceed these.
std::vector<FlowBound> storage_flow_bounds(const Scenario& sc, const ClusterNetwork& net);

} // namespace aisim::models
