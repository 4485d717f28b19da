// timeseries.csv: the GPU-time split and each storage system's throughput and occupancy per time bin of
// simulation.timeseries_resolution, and what writing it takes (rows, memory, bytes on disk) before a run.
#pragma once

#include "sim/engine/simulation.hpp"

#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

std::string build_timeseries_csv(const models::Scenario& sc, const RunOutput& run);

// About how many bytes a run's files take (timeseries.csv, results.json, report.html): its rows times its columns
// at the widest a value is printed; for a free-space check before the run.
double estimate_output_bytes(const models::Scenario& sc);
// The rows timeseries.csv will have, and about how much memory building it takes (its per-row values while the
// bins fill, then its text): a microsecond resolution over a year would take terabytes.
double timeseries_rows(const models::Scenario& sc);
double estimate_timeseries_memory_bytes(const models::Scenario& sc);

} // namespace aisim::sim
