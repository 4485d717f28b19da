// MLPerf Storage v1.0's training workloads as workload presets ("preset": "mlperf-unet3d"): what DLIO emulates for
// one accelerator (sample size, batch, compute time per batch on an A100 or an H100, reader threads, files), written
// into the workload's keys it leaves out before it is read, so the resolved scenario shows them and any key the
// workload gives wins.
#pragma once

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>
#include <vector>

namespace aisim::models {

std::vector<std::string> mlperf_preset_names();

// Fills workload `w` (at JSON pointer `pointer`) from `preset`, one of mlperf_preset_names(), for `gpus`
// accelerators on nodes of `group`. Reports an accelerator MLPerf Storage v1.0 does not emulate; returns false then.
bool apply_mlperf_preset(Json& w, const std::string& preset, const std::string& pointer, const NodeGroup& group,
                         int64_t gpus, Diagnostics& diag);

} // namespace aisim::models
