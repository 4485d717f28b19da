// The results contract: results.json (schema_version 1, every metric's unit in its key) and timeseries.csv,
// built from a run's metrics, and the summary table printed after a run.
#pragma once

#include "sim/engine/simulation.hpp"
#include "sim/results/output_set.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

inline constexpr int kResultsSchemaVersion = 1;

// "what-if: /storage/hot/enclosures = 1, ...": the overrides a run was made with (provenance.overrides), or ""
// for a run of the scenario as written.
std::string what_if_line(const models::Json& r);

models::Json build_results(const models::Scenario& sc, const RunOutput& run);
// GPU-time split and storage throughput per time bin of simulation.timeseries_resolution.
std::string build_timeseries_csv(const models::Scenario& sc, const RunOutput& run);
std::string format_summary(const models::Json& results, const std::string& results_path);
// "stopped by --max-wall 30 s after 2.5 d of the 7 d period: ..." for a run a limit stopped.
std::string stop_description(const RunStop& stop, double simulated_s);

// A run folder's results.json, parsed; a discarded value (is_discarded()) when it is missing, unreadable or of
// another schema version, and then `why` (when given) says which, naming the path.
models::Json read_results(const std::string& run_dir, std::string* why = nullptr);

// About how many bytes a run's files take (timeseries.csv, results.json, report.html): its rows times its columns
// at the widest a value is printed; for a free-space check before the run.
double estimate_output_bytes(const models::Scenario& sc);
// The rows timeseries.csv will have, and about how much memory building it takes (its per-row values while the
// bins fill, then its text): a microsecond resolution over a year would take terabytes.
double timeseries_rows(const models::Scenario& sc);
double estimate_timeseries_memory_bytes(const models::Scenario& sc);

} // namespace aisim::sim
