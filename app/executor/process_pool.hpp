// Child processes, at most `jobs` at a time: the one way aisim runs many simulations at once (replicas, validation
// cases, sweeps). Each child is an ordinary `aisim run`; SimGrid keeps one engine per process, so parallel runs
// must be separate processes.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace aisim::app {

struct ChildSpec {
  std::vector<std::string> argv; // argv[0] is the executable
  std::string log_path;          // stdout and stderr go here (truncated first)
  std::string out_dir;           // the folder the run writes (default: the log's); what another machine sends back
  // The name of a digest (register_digest) run in the worker after an in-process run that exited 0, on the run's
  // folder; its text comes back as ChildResult::digest (also from other MPI ranks): what the caller would otherwise
  // read back from the run's files, worked out beside the run instead of in the caller's one process (a sweep's
  // headline metrics: parsing every results.json in the parent held two workers to 1.5x).
  std::string digest = {};
};

struct ChildResult {
  bool started = false;  // false: never started (spawn failed, or the pool was interrupted first)
  bool finished = false; // it ended by itself: exited, or was killed by a signal the pool did not send
  int exit_code = -1;    // when it exited
  int signal = 0;        // when a signal ended it
  double wall_s = 0;
  std::string digest; // ChildSpec::digest's text, when it ran (in-process runs only); else empty
  bool ok() const { return finished && signal == 0 && exit_code == 0; }
  std::string describe() const; // "exited 0", "killed by signal 9 (Killed)", "not started"
};

struct PoolOutcome {
  std::vector<ChildResult> children; // one per spec, in spec order
  bool interrupted = false;          // SIGINT or SIGTERM reached the parent: the rest were stopped or never started
};

// Which run a free slot of the pool starts next, when the caller deals the runs out itself (MPI ranks asking rank 0
// for their next run, so that a rank that is done takes the runs another has not reached): `start` run `index` of
// the specs, `later` none yet (the pool calls `idle` and asks again), `none` no more.
struct Deal {
  enum Kind { start, later, none } kind = none;
  size_t index = 0;
};
using Dealer = std::function<Deal()>;

// Starts the children in order (or as `dealer` deals them), keeping at most `jobs` running, and waits for them all.
// `on_done(i, result)` runs in the parent as each child ends (in the order they end). While it runs, SIGINT and SIGTERM
// stop the pool: no new child starts, the running ones get SIGTERM, and it returns with `interrupted` set (the previous
// handlers are back in place afterwards). With `idle`, the pool polls its children every 2 ms instead of blocking, and
// calls `idle` after each poll (MPI ranks take and send their messages there). Runs never dealt stay "not started".
PoolOutcome run_pool(const std::vector<ChildSpec>& specs, int jobs,
                     const std::function<void(size_t, const ChildResult&)>& on_done = {},
                     const std::function<void()>& idle = {}, const Dealer& dealer = {});

// Children that would exec `executable` (this program) run `entry(argc, argv)` in workers forked from the pool's
// process instead: the same code with the same arguments, without paying the program's start-up again (about 35 ms,
// most of it the SimGrid library's ns-3 dependencies initializing, a quarter of a small scenario's run). A worker
// runs one run after another, so later runs also skip the fork and the page faults of a fresh heap; each starts as
// an exec'd run would (default signals, fresh stream formats, a new engine at clock 0), and the results are byte for
// byte those of exec'd runs (tests/cli/check_replicas.cmake). Only for a single-threaded caller that has not
// started a SimGrid engine (the command line); elsewhere children are exec'd.
using InProcessEntry = int (*)(int argc, char** argv);
void set_in_process_entry(InProcessEntry entry, const std::string& executable);

// SimGrid 3.32 leaves each engine's callbacks in process-wide signals, so every run of a worker pays for the ones
// before it (one-day runs of scenarios/default.json: 1.3 ms the first, 6 ms after 1,000). A worker retires after
// this many runs: one fork per 64 runs costs less than what they would add.
constexpr int kRunsPerWorker = 64;

// Names a digest for ChildSpec::digest. Register before any pool runs, in every process (main does it, so MPI ranks
// above 0 have them too).
using Digest = std::function<std::string(const std::string& run_dir)>;
void register_digest(const std::string& name, Digest digest);

// The machine's cores: the default number of children at once.
int default_jobs();

// The running executable (/proc/self/exe), to start children of the same build; `fallback` when unknown.
std::string self_executable(const std::string& fallback);

} // namespace aisim::app
