// What limited each job phase (results.json "bottlenecks", and the summary's table): data reads, checkpoint
// writes, restores, model loads, output writes and serving reads, each on the storage system it used. Every tier of
// its path gets its own bound (models/cluster/path_limits.hpp); the simulated rate says which one it reached, or,
// when it reached none, what held it below them: its own demand, other transfers sharing the path, reads and
// writes sharing the drives, or request latency. The next limit gives the headroom removing it would buy.
#pragma once

#include "sim/engine/simulation.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

models::Json bottlenecks_json(const models::Scenario& sc, const RunOutput& run);

// The summary's table (empty when no job moved data).
std::string format_bottlenecks(const models::Json& r);

} // namespace aisim::sim
