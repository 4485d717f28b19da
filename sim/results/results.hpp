// results.json, the results contract (schema_version 1, every metric's unit in its key), built from a run's
// metrics, and read back from a run folder. timeseries_csv.hpp writes the time series, summary.hpp the terminal
// summary.
#pragma once

#include "sim/engine/simulation.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

inline constexpr int kResultsSchemaVersion = 1;

models::Json build_results(const models::Scenario& sc, const RunOutput& run);

// A run folder's results.json, parsed; a discarded value (is_discarded()) when it is missing, unreadable or of
// another schema version, and then `why` (when given) says which, naming the path.
models::Json read_results(const std::string& run_dir, std::string* why = nullptr);

} // namespace aisim::sim
