#include "models/hardware/gpu_catalog.hpp"

#include "models/common/named_table.hpp"

#include <array>

namespace aisim::models {
namespace {

// Dense BF16 tensor throughput and board power from the vendors' datasheets; prices are public estimates.
const std::array<GpuModel, 4>& catalog() {
  static const std::array<GpuModel, 4> gpus{{
      {"A100-SXM-80GB", FlopsPerSecond(312e12), Watts(400), Dollars(15000), "NVIDIA A100 datasheet (2021)"},
      {"H100-SXM", FlopsPerSecond(989e12), Watts(700), Dollars(30000), "NVIDIA H100 datasheet (2023)"},
      {"H200-SXM", FlopsPerSecond(989e12), Watts(700), Dollars(35000), "NVIDIA H200 datasheet (2024)"},
      {"B200", FlopsPerSecond(2250e12), Watts(1000), Dollars(40000), "NVIDIA DGX B200 datasheet (2024), per GPU"},
  }};
  return gpus;
}

} // namespace

std::optional<GpuModel> find_gpu_model(const std::string& name) {
  const GpuModel* g = find_named(catalog(), name);
  return g ? std::optional<GpuModel>(*g) : std::nullopt;
}

std::vector<std::string> gpu_model_names() { return names_of(catalog()); }

} // namespace aisim::models
