// Built-in GPU server models a node group can start from ("preset": "dgx-a100"): the GPUs, the storage and GPU-fabric
// NICs, the host memory and the node's data path (models/cluster/host_path.hpp) of a published system. Any key the
// group gives overrides its preset's value. Figures are the vendor's system specifications (the `source` of each).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

struct NodePreset {
  std::string name;
  std::string gpu; // a gpu_catalog name
  int gpus_per_node = 8;
  int nics = 2; // storage NICs
  std::string nic_speed;
  int compute_nics = 8;
  std::string compute_nic_speed;
  std::string host_memory;
  std::string gpu_host_bandwidth; // one GPU's PCIe x16 link in practice (79 % of its raw rate)
  int pcie_switches = 4;
  std::string host_memory_bandwidth;
  int cpu_cores = 112;
  std::string source;
};

std::optional<NodePreset> find_node_preset(const std::string& name);
std::vector<std::string> node_preset_names();

} // namespace aisim::models
