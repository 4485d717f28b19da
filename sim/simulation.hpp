// Runs one scenario on a SimGrid engine. SimGrid allows one engine per process (a second keeps the first
// one's clock), so run_simulation may be called once per process; tools that need many runs start processes.
#pragma once

#include "metrics.hpp"
#include "progress.hpp"

#include "models/cluster_network.hpp"
#include "models/scenario.hpp"

#include <vector>

namespace aisim::sim {

struct RunOutput {
  Metrics metrics;
  std::vector<models::FlowBound> flow_bounds; // per storage system
  double simulated_s = 0;
  double wall_s = 0;
};

RunOutput run_simulation(const models::Scenario& sc, Progress& progress);

} // namespace aisim::sim
