// Many replicas of one scenario (different seeds) as one result: each metric's mean, standard deviation and 95%
// confidence interval over the replicas that finished (Student's t), in results.json and a summary that prints
// "mean ± half-width".
#pragma once

#include "models/common/json_reader.hpp"

#include <string>
#include <vector>

namespace aisim::sim {

// What was run: one entry per replica requested, in seed order.
struct ReplicaRun {
  unsigned long long seed = 0;
  std::string folder;
  bool ok = false;      // finished with a results.json
  std::string outcome;  // "finished", or why not ("exited 1", "killed by signal 9 (Killed)", "not started")
  bool has_log = false; // its run.log exists (a replica never started has none)
  models::Json results; // its results.json when ok
};

// The replica set's results.json: kind "replicas", the scenario (the first finished replica's), what ran, and
// `metrics`: for every number that varies between runs (GPU time split, each job's utilization, failures by
// component, lost GPU-hours and dollars by cause, data-loss events and bytes by class, cost) its mean, sd,
// ci95_low, ci95_high, half_width (null with fewer than two replicas), min, max and n. A metric missing from a
// replica (a data class it lost nothing of) counts as 0 there.
models::Json aggregate_replicas(const std::vector<ReplicaRun>& runs, bool interrupted);

// The set's metrics as the summary prints them, in its order (GPU time, jobs, failures, money), zero ones left out:
// pointer, label, mean_text ("88.85 % ± 6.47 %"), range_text ("87.31 % … 91.85 %") and the numbers (mean,
// ci95_low, ci95_high, min, max). The summary and the replica set's report page both show these.
models::Json replica_rows(const models::Json& aggregate);
std::string format_replica_summary(const models::Json& aggregate, const std::string& results_path);

} // namespace aisim::sim
