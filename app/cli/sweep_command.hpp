// `aisim sweep SCENARIO --vary POINTER=VALUES ...`: every point an ordinary `aisim run` (its own folder under
// OUT/points/), run by the executor's workers; OUT/sweep.csv and OUT/sweep.json the table of headline metrics with
// the Pareto front marked. Resumable (--resume runs only the points without a result), a failed point recorded with
// its error while the others go on. Exit 0 when every point finished, 1 when some failed, 2 on bad input (nothing
// run), 130 when interrupted.
#pragma once

#include "app/cli/progress.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace aisim::app {

struct SweepCommand {
  std::string scenario;
  std::string out_dir; // empty: results/<scenario stem>-sweep/
  std::vector<std::string> sets;
  std::vector<std::string> vary;
  bool sensitivity = false;                       // one input at a time at its low and high instead of --vary
  std::string range = "20%";                      // with sensitivity: inputs without their own low/high
  std::string metric = "total_with_lost_gpu_usd"; // with sensitivity: the metric ranked (the money objective)
  std::string sample = "grid";
  uint64_t sample_seed = 1;
  long long seed = -1; // -1: the scenario's
  int replicas = 0;    // > 0: each point is that many seeds, summarized as `aisim run --replicas` does
  int jobs = 0;        // runs at once; 0: the machine's cores
  bool yes = false;    // allow more than 1,000,000 points
  bool resume = false;
  ProgressMode progress = ProgressMode::automatic;
  std::string self;
};

int sweep_command(const SweepCommand& cmd);

// The digests sweep points ask their workers for (app/executor/process_pool.hpp); main registers them in every
// process, MPI ranks included.
void register_sweep_digests();

} // namespace aisim::app
