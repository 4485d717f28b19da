// Placement advice per data class and the system it lives on (results.json "placement", and the summary's table):
// its performance need, its yearly chance of loss there (drive failures, failing fault domains that expose it,
// threats that reach it unprotected), what a loss costs (costs.data_value, else aisim's estimate where it has one),
// the cheapest protection the scenario's own systems and prices offer, and the verdict with its break-even
// (models/analytics/placement.hpp).
#pragma once

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

// `r` is the run's results.json so far: its storage (used_by_class, durability, fault_domains), jobs and cost.
models::Json placement_json(const models::Scenario& sc, const models::Json& r);

// The summary's table (empty when there is nothing to advise on).
std::string format_placement(const models::Json& r);

} // namespace aisim::sim
