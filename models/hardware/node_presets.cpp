#include "models/hardware/node_presets.hpp"

#include "models/common/named_table.hpp"

#include <array>

namespace aisim::models {
namespace {

// DRAM bandwidth: channels x transfer rate x 8 bytes. GPU links: x16 of the GPU's PCIe generation at the 79 % of its
// raw rate a DMA copy reaches in practice (Gen4 31.5 -> 25 GB/s, Gen5 63 -> 50 GB/s, as gpu_host_bandwidth's default).
const std::array<NodePreset, 3>& presets() {
  static const std::array<NodePreset, 3> all{{
      {"dgx-a100", "A100-SXM-80GB", 8, 2, "200Gbps", 8, "200Gbps", "2TiB", "25GB/s", 4, "409.6GB/s", 128,
       "NVIDIA DGX A100 User Guide, hardware overview: 8 A100 80GB, 2 AMD EPYC 7742 (2 x 64 cores, 8 channels of "
       "DDR4-3200 each), 2 TB memory, 8 single-port ConnectX-6 200 Gb/s for the GPU fabric, dual-port ConnectX-6 "
       "200 Gb/s for storage (one port each of two cards), PCIe Gen4 switches"},
      {"dgx-h100", "H100-SXM", 8, 2, "400Gbps", 8, "400Gbps", "2TiB", "50GB/s", 4, "614.4GB/s", 112,
       "NVIDIA DGX H100 User Guide, hardware overview: 8 H100 SXM, 2 Intel Xeon Platinum 8480C (2 x 56 cores, 8 "
       "channels of DDR5-4800 each), 2 TB memory, 8 ConnectX-7 400 Gb/s for the GPU fabric, 2 dual-port ConnectX-7 "
       "(400 Gb/s each) for storage, PCIe Gen5 switches"},
      {"dgx-b200", "B200", 8, 2, "400Gbps", 8, "400Gbps", "2TiB", "50GB/s", 4, "716.8GB/s", 112,
       "NVIDIA DGX B200 User Guide, hardware overview: 8 B200, 2 Intel Xeon Platinum 8570 (2 x 56 cores, 8 channels "
       "of DDR5-5600 each), 2 TB memory, 8 ConnectX-7 400 Gb/s for the GPU fabric, 2 BlueField-3 DPUs (400 Gb/s "
       "each) for storage, PCIe Gen5 switches"},
  }};
  return all;
}

} // namespace

std::optional<NodePreset> find_node_preset(const std::string& name) {
  const NodePreset* p = find_named(presets(), name);
  return p ? std::optional<NodePreset>(*p) : std::nullopt;
}

std::vector<std::string> node_preset_names() { return names_of(presets()); }

} // namespace aisim::models
