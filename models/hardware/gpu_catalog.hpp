// Built-in GPU models a node group can name ("gpu": "H100-SXM"). Figures are vendor datasheet values;
// prices are list-price estimates a planner should replace with a quote (node_groups[].gpu_price).
#pragma once

#include "models/common/units.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

struct GpuModel {
  std::string name;
  FlopsPerSecond peak_bf16;
  Watts power;
  Dollars price;
  std::string source;
};

std::optional<GpuModel> find_gpu_model(const std::string& name);
std::vector<std::string> gpu_model_names();

} // namespace aisim::models
