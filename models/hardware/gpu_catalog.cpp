#include "models/hardware/gpu_catalog.hpp"

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
  for (const auto& g : catalog())
    if (g.name == name)
      return g;
  return std::nullopt;
}

std::vector<std::string> gpu_model_names() {
  std::vector<std::string> names;
  for (const auto& g : catalog())
    names.push_back(g.name);
  return names;
}

} // namespace aisim::models
