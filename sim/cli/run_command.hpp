// `aisim run`: scenario in, results.json + timeseries.csv + summary out. Exit 0 on success, 2 on bad input
// (nothing written), 1 on an internal error.
#pragma once

#include "sim/cli/progress.hpp"

#include <string>
#include <vector>

namespace aisim::sim {

struct RunCommand {
  std::string scenario;
  std::string out_dir; // empty: results/<scenario stem>/
  std::vector<std::string> sets;
  long long seed = -1; // -1: the scenario's
  ProgressMode progress = ProgressMode::automatic;
};

int run_command(const RunCommand& cmd);

} // namespace aisim::sim
