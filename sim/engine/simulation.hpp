// Runs one scenario on a SimGrid engine. One engine at a time per process; run_simulation may run again after one
// has ended (an executor's worker, the engine fuzz target), as it sets SimGrid's clock back to 0 each time
// (sim/engine/simgrid_internals.hpp).
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aisim::sim {

// The nodes a job held (its node group, their numbers in it), as the platform placed them.
struct JobNodes {
  int group = -1;
  std::vector<int> nodes;
};

// Limits a planner puts on one run (aisim run --max-wall, --max-events); 0 is none.
struct RunLimits {
  double max_wall_s = 0;
  uint64_t max_events = 0;
  bool any() const { return max_wall_s > 0 || max_events > 0; }
};

// A run a limit stopped: its period ended at RunOutput::simulated_s instead of the scenario's duration.
struct RunStop {
  std::string by;      // "max_wall" or "max_events"
  double limit = 0;    // seconds of wall time, or events
  double period_s = 0; // the scenario's whole period
};

struct RunOutput {
  Metrics metrics;
  std::vector<models::FlowBound> flow_bounds; // per storage system
  std::vector<JobNodes> job_nodes;            // per job
  double simulated_s = 0;
  // Until the last job phase ended, past the period when one straddles its end: the span the storage traffic
  // was moved in (mean rates divide by it; GPU time by simulated_s).
  double traffic_s = 0;
  double wall_s = 0;
  std::optional<RunStop> stopped; // set when a limit ended the period early
};

// Told the simulated time and the fraction of the period done, 100 times a run (the command line draws a bar).
using ProgressCallback = std::function<void(double simulated_s, double fraction)>;

// About how many bytes the engine's model of the scenario takes (platform, routes, flow bounds, actors, the flows of
// a transfer at fidelity full), from peak memory measured on scenarios/bench/llm-16k-30d (simulation.cpp says
// which); for refusing a run that cannot fit before it starts.
double estimate_model_memory_bytes(const models::Scenario& sc);

// A limit reached ends the simulated period there, as the scenario's end would: actors start nothing more, what is
// in flight finishes and its GPU time is cut at the new end, and the results describe that shorter period.
RunOutput run_simulation(const models::Scenario& sc, const ProgressCallback& on_progress = {},
                         const RunLimits& limits = {});

} // namespace aisim::sim
