// `aisim compare`: the metrics two or more runs share, side by side, with the better value of each marked. Read
// from their results.json alone; a metric missing from any run (another scenario version, a section it does not
// have) is listed as not compared rather than guessed.
#pragma once

#include "models/common/json_reader.hpp"

#include <string>
#include <utility>
#include <vector>

namespace aisim::app {

// {"labels": [...], "metrics": [{"label", "unit" (fraction, usd, s), "better" (max, min), "values": [...],
// "best": index or null on a tie}], "not_compared": [labels]}.
models::Json compare_runs(const std::vector<std::pair<std::string, models::Json>>& runs);

// The terminal's table: one row per metric, one column per run, the delta B - A for two runs, and the winner.
std::string format_comparison(const models::Json& comparison);

} // namespace aisim::app
