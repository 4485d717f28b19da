// Runs one scenario on a SimGrid engine. SimGrid allows one engine per process (a second keeps the first
// one's clock), so run_simulation may be called once per process; tools that need many runs start processes.
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/cluster/cluster_network.hpp"
#include "models/scenario/scenario.hpp"

#include <functional>
#include <vector>

namespace aisim::sim {

// The nodes a job held (its node group, their numbers in it), as the platform placed them.
struct JobNodes {
  int group = -1;
  std::vector<int> nodes;
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
};

// Told the simulated time and the fraction of the period done, 100 times a run (the command line draws a bar).
using ProgressCallback = std::function<void(double simulated_s, double fraction)>;

RunOutput run_simulation(const models::Scenario& sc, const ProgressCallback& on_progress = {});

} // namespace aisim::sim
