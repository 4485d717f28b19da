// The summary a run prints on the terminal, read from its results.json alone (so `aisim report` and a sweep's
// points print the same), and the lines it shares with other commands.
#pragma once

#include "sim/engine/simulation.hpp"

#include "models/common/json_reader.hpp"

#include <string>

namespace aisim::sim {

std::string format_summary(const models::Json& results, const std::string& results_path);

// "what-if: /storage/hot/enclosures = 1, ...": the overrides a run was made with (provenance.overrides), or ""
// for a run of the scenario as written.
std::string what_if_line(const models::Json& r);

// "stopped by --max-wall 30 s after 2.5 d of the 7 d period: ..." for a run a limit stopped.
std::string stop_description(const RunStop& stop, double simulated_s);

} // namespace aisim::sim
