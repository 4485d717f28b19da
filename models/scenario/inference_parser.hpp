// Reading the keys of a workload of kind "inference" (the fleet, its model, scale events and serving reads).
#pragma once

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::models {

// `gpus` is the fleet's GPU count when it parsed. Problems go to the reader's diagnostics.
std::optional<InferenceSpec> parse_inference(ObjectReader& w, const Scenario& sc,
                                             const std::vector<std::string>& storage_names,
                                             std::optional<int64_t> gpus);

} // namespace aisim::models
