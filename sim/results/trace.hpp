// `aisim run --trace FILE`: the run as a Chrome/Perfetto trace (trace-event JSON, opens in ui.perfetto.dev or
// chrome://tracing). Process "jobs": per job its phases (training, data or checkpoint stalls, failure recovery,
// with each state's share) and its own I/O (checkpoint writes, restores, model loads); process "storage": per
// system its failures, rebuilds and the copies arriving (staging, tiering, replicas) with data lost and writes that
// found it full; process "cluster": fault domains failing and threats striking. Overlapping spans of one track go
// to numbered lanes so every lane nests.
//
// Bounded: past `max_events` spans and marks, each track keeps its share of the limit by merging what starts within
// equal stretches of time into one span per stretch (its count and time by name in args); the trace's otherData,
// and a mark at time 0, say so.
#pragma once

#include "sim/engine/simulation.hpp"

#include "models/scenario/scenario.hpp"

#include <cstddef>
#include <string>

namespace aisim::sim {

inline constexpr std::size_t kTraceMaxEvents = 200000;

std::string build_trace(const models::Scenario& sc, const RunOutput& run, std::size_t max_events = kTraceMaxEvents);

} // namespace aisim::sim
