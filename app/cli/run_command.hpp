// `aisim run`: scenario in, results.json + timeseries.csv + summary out. Exit 0 on success, 2 on bad input
// (nothing written), 1 on an internal error, 3 when --max-wall or --max-events stopped the run (its results, of the
// period simulated until then, are written and marked so).
#pragma once

#include "app/cli/progress.hpp"

#include "models/scenario/scenario.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace aisim::app {

struct RunCommand {
  std::string scenario;
  std::string out_dir; // empty: results/<scenario stem>/
  std::vector<std::string> sets;
  long long seed = -1; // -1: the scenario's
  ProgressMode progress = ProgressMode::automatic;
  int replicas = 0;  // > 0: that many runs with seeds seed, seed + 1, ... in child processes, summarized together
  int jobs = 0;      // replicas at once; 0: the machine's cores
  std::string self;  // argv[0], to find the executable for the replicas
  std::string trace; // non-empty: write the run's Chrome/Perfetto trace there
  std::size_t trace_max_events = 0; // 0: the default bound (sim/results/trace.hpp)
  bool no_report = false;           // skip report.html (`aisim report DIR` renders it later from the files)
  std::string max_wall;             // non-empty: stop the run after this much wall time ("10min")
  std::string max_events;           // non-empty: stop the run after this many events ("5000000", "5e6")
  std::vector<std::string> command; // the command line as typed, recorded in results.json's provenance
};

// The folder a run writes to without --out: results/<scenario file stem>/, or, for a what-if (--set or --seed),
// results/<stem>+<8 hex digits of the overrides' SHA-256>/, so that it never replaces the base run's results.
std::string default_run_folder(const RunCommand& cmd);
// What results.json's provenance records of the inputs: the command line, the scenario file (as given, and the
// SHA-256 of what load_scenario read), and each override with its value, in the order applied.
models::Json run_inputs(const RunCommand& cmd, const std::vector<std::string>& sets, const std::string& file_sha256);

// The exit status of a run a limit stopped.
constexpr int kExitStopped = 3;

int run_command(const RunCommand& cmd);

// `aisim run --replicas N`: each replica an ordinary run in OUT/replica-NNNN/, OUT/results.json their statistics.
// Exit 0 when every replica finished, 1 when some did not (what finished is still summarized), 2 on bad input, 130
// when interrupted.
int run_replicas(const RunCommand& cmd);
// This machine's memory available to a new run (MemAvailable, or less under a cgroup limit); 0 when unknown.
double available_memory_bytes();
// False (with the message on stderr) when the run's model or timeseries would not fit in this machine's memory.
bool run_fits_in_memory(const models::Scenario& sc, const std::string& file);
// The same as diagnostics: an error naming the key to change when it would not fit, warnings for a long run and a
// large timeseries.
void check_fits_in_memory(const models::Scenario& sc, models::Diagnostics& diag);

} // namespace aisim::app
