// What a storage system's drive failures mean for its data, from the Markov model of its redundancy groups
// (models/analytics/durability.hpp): the rare-event answer a single simulated period cannot give.
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

namespace aisim::sim {

// For a system whose drives fail at random (storage failures with a drive afr or mtbf), its redundancy groups (the
// protection's width, tolerating its parity) with drive failures at the configured rate and each failed drive back
// after its repair_time plus its rebuild (the mean simulated rebuild when the run finished any, else capacity over
// the rebuild bandwidth): "method": "markov", the groups, mttdl_years (the system), annual_loss_probability,
// loss_probability over the cost horizon, bytes_lost_per_year (of what the system held on average), and the
// losses the simulated period saw. Null for a system whose drives do not fail at random.
models::Json durability_json(const models::Scenario& sc, const models::StorageSystem& sys, const StorageMetrics& sm,
                             double mean_held_bytes);

} // namespace aisim::sim
