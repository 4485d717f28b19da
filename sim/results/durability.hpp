// What a storage system's drive failures mean for its data, from the Markov model of its redundancy groups
// (models/analytics/durability.hpp): the rare-event answer a single simulated period cannot give.
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/analytics/durability.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <array>

namespace aisim::sim {

// For a system whose drives fail at random (storage failures with a drive afr or mtbf), its redundancy groups (the
// protection's width, tolerating its parity) with drive failures at the configured rate and each failed drive back
// after its repair_time plus its rebuild (the mean simulated rebuild when the run finished any, else capacity over
// the rebuild bandwidth): "method": "markov", the groups, mttdl_years (the system), annual_loss_probability,
// loss_probability over the cost horizon, bytes_lost_per_year (of what the system held on average), and the
// losses the simulated period saw; and `by_class`, for each data class the system held: the chance of losing it
// within the horizon and the method behind it ("simulation", with its 95% interval, when the period saw at least
// kMinSimulatedLosses group losses; else "markov"). Null for a system whose drives do not fail at random.
models::Json durability_json(const models::Scenario& sc, const models::StorageSystem& sys, const StorageMetrics& sm,
                             const std::array<double, models::kDataClasses>& mean_held_by_class, double period_s);

// The system's redundancy groups as the engine stripes them (unprotected: each drive a group of one), with drives
// failing every `mtbf_s` and back after `repair_s`; `groups` is set to how many there are.
models::RedundancyGroup drive_groups(const models::StorageSystem& sys, double mtbf_s, double repair_s, double& groups);

// Fewer losses than this in the simulated period say too little about their rate: the Markov model answers.
inline constexpr int kMinSimulatedLosses = 10;

} // namespace aisim::sim
