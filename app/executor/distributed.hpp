// Many runs across machines with Open MPI: `mpirun -n R aisim sweep ...` starts R copies of aisim; rank 0 does the
// command's work and sends each round of runs (a sweep's points, a replica set) to every rank; the runs are dealt in
// index order to whichever is free first (rank 0's own pool, or a rank asking for more), each rank running them in
// its own process pool and reporting each as it ends; rank 0 gathers. A run that ended on another machine sends its
// output folder's files, which rank 0 writes where the run would have. Without mpirun (or with one rank) it is
// run_pool. The results are the same either way: every run is the same `aisim run` with the same arguments; only
// which process ran it differs.
#pragma once

#include "app/executor/process_pool.hpp"

namespace aisim::app {

struct MpiWorld {
  bool launched = false; // started by mpirun (or another MPI launcher), even with one rank
  int rank = 0;
  int size = 1;
  bool spread() const { return size > 1; }
};

// Initializes MPI on the first call when the process was started by an MPI launcher (its environment says so);
// otherwise a world of one. Call it from the command line's main thread before any run.
const MpiWorld& mpi_world();

// Ranks above 0: run rank 0's rounds of runs until it says there are no more, then finalize. Returns the exit
// status for the process.
int serve_runs();

// Rank 0 when the command is done: tells the other ranks to stop and finalizes. Nothing without MPI.
void finish_runs();

// The one entry for many runs. Without MPI, run_pool. Under mpirun, a round spread over the ranks, each running
// at most `jobs` at a time; `on_done` runs on rank 0 as each run ends, wherever it ran. Interrupted when any rank
// was.
PoolOutcome run_many(const std::vector<ChildSpec>& specs, int jobs,
                     const std::function<void(size_t, const ChildResult&)>& on_done = {});

// How rank 0 writes the files of a run that ended on another machine into the run's folder. The command line
// registers its output set (sim/results/output_set.hpp), so that such a folder is committed whole, as one set, as a
// run on this machine commits its own; without one, such files cannot be taken (an error).
using FolderWriter =
    std::function<void(const std::string& folder, const std::vector<std::pair<std::string, std::string>>& files)>;
void set_folder_writer(FolderWriter writer);

// Who ran the runs, for a summary: "2 workers", or under mpirun "4 MPI ranks of 2 workers each".
std::string describe_runners(int jobs);

// Runs at once by default: the machine's cores, or one per rank under mpirun (each rank is a worker there; `-j`
// gives a rank more).
int default_runs_at_once();

} // namespace aisim::app
