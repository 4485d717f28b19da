// Deletion and ransomware in results.json and the summary: each strike, what it reached, and which mechanism saved
// what (retention lock, snapshot, a copy elsewhere) or what was lost.
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario.hpp"

#include <string>

namespace aisim::sim {

// Null when the scenario declares no threats. Else {"events": [...], "totals": {...}}: per event its time, kind,
// the systems it reached, hit_bytes and hit_by_class, saved_bytes by mechanism ("retention_lock", "snapshot",
// "copy_elsewhere"), lost_bytes and lost_by_class, recovery_bytes copied back and recovery_s from the strike to the
// last copy-back (null when nothing was copied back); totals sum the events.
models::Json threats_json(const models::Scenario& sc, const Metrics& m);

// The summary's lines for the results' "threats" (empty when there are none).
std::string format_threats(const models::Json& r);

} // namespace aisim::sim
