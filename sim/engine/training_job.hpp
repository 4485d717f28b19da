// The actor that replays one data-parallel training job: training phases between checkpoints, each a fluid
// read of the phase's batches beside the phase's compute, and checkpoints: when one is taken and what the GPUs
// wait for (the whole write, a copy to host memory, or a write to the nodes' own drives), while the lifecycle
// decides where its bytes go. Per-step detail is derived inside a phase rather than simulated step by step (see
// "Performance design" in DESIGN.md).
#pragma once

#include "sim/engine/lifecycle.hpp"
#include "sim/engine/metrics.hpp"
#include "sim/engine/transfer.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <functional>
#include <optional>
#include <random>
#include <vector>

namespace aisim::sim {

class TrainingJob {
public:
  // `data_bound`: the max-flow bound of the dataset's system, which sizes the phases of a job that asks for more.
  TrainingJob(const models::Scenario& sc, int job, const Platform& platform, Metrics& metrics, Lifecycle& lifecycle,
              const models::FlowBound& data_bound);
  void operator()();

private:
  // A dataset read: the data, and what its files cost (opens and closes, object requests; sim/engine/file_ops.hpp).
  struct DatasetRead {
    Transfer data;
    std::vector<simgrid::s4u::ExecPtr> opens;
    std::optional<Transfer> from_cache, to_cache; // a local NVMe cache: later epochs' hits, first epoch's fill
    void wait() {
      // The opens first: the read is done when its files are opened too, and the record of it says so.
      for (auto& o : opens)
        o->wait();
      data.wait();
      if (from_cache)
        from_cache->wait();
      if (to_cache)
        to_cache->wait();
    }
  };
  // What one node can keep for later epochs: half its host memory, or its share of the local NVMe.
  double cache_per_node() const;
  // The share of reads that the nodes' caches serve once `read_before` bytes were read: constant within an epoch.
  double cache_hit_fraction(double read_before) const;
  DatasetRead read_dataset(double bytes);
  // Runs `steps` steps; `buffered` batches are already in host memory.
  void run_phase(int64_t steps, int64_t buffered);
  // A checkpoint as the GPUs see it: the whole write (sync) or the copy to host memory (async), while the loader
  // refills its prefetch buffer.
  void run_checkpoint();
  // Writes one checkpoint through the lifecycle (which decides where it goes and whether it fits) and records its
  // write time. Returns false when the job must stop (its storage was full, see policies.on_full).
  // `drain_local`: a multilevel drain from the nodes' own copy. `at_steps` and `captured_s`: the job's progress
  // and the time its state was captured, which a restart resumes from once the write completes.
  bool write_checkpoint(double size, bool drain_local, int64_t at_steps, double captured_s);
  // A failure: the work since the last durable checkpoint is lost, the job restarts and reads that checkpoint
  // back. All of it is failure time.
  void recover();
  // Draws the time of the next failure after `from` (infinite when the group's nodes do not fail).
  void draw_next_failure(double from);
  double window_end_s() const;
  // Runs `work` (a synchronous checkpoint write, a restore) in an actor of its own and waits for it, or until the
  // next node failure strikes within the job's window. Returns whether it completed; if not, it is left to finish
  // in the background (finish() waits for it) and the caller handles the failure now.
  bool join_until_failure(std::function<void()> work);
  // Where the epoch containing dataset byte `read` ends, in bytes read.
  double epoch_end(double read) const;
  // Steps between checkpoints: fixed, or Daly's interval for the checkpoint cost measured so far.
  int64_t steps_per_checkpoint() const;
  std::vector<Flow> flows(double bytes) const { return lifecycle_->job_flows(index_, bytes); }
  int dataset_storage() const;
  // Records the end, waits for a checkpoint still draining and hands the job's data to the lifecycle.
  void finish();
  // Waits for the job's start, its cache space and its dataset; false when it is not to run (finished when it
  // had started).
  bool start_job();
  // The most steps one phase may take: a time-series bin of compute, or what the data bound moves in one bin.
  int64_t phase_step_limit() const;
  // The base model's load and the prefetch buffer's fill (with the restore of a resumed job) before the first step;
  // the batches then buffered.
  int64_t load_before_first_step();
  // Steps that fit before the window ends, the next failure, the last epoch or (with a cache) the epoch's end.
  int64_t steps_that_fit(double end_s, int64_t epoch_steps) const;
  void add_segment(double start_s, double compute_gpu_s, double data_gpu_s, double ckpt_gpu_s,
                   double failure_gpu_s = 0.0);

  const models::Scenario* sc_;
  const models::TrainingJob* job_;
  int index_;
  const models::NodeGroup* group_; // the job's node group
  double nodes_;                   // the job's nodes
  Lifecycle* lifecycle_;
  const Platform* platform_;
  Metrics* metrics_;
  JobMetrics* jm_;
  simgrid::s4u::ActorPtr writer_; // the asynchronous checkpoint write or multilevel drain in progress, if any
  std::vector<simgrid::s4u::ActorPtr> interrupted_; // synchronous writes a failure interrupted, left to finish
  int cache_storage_ = -1;                          // the local_nvme holding the dataset cache, if any
  double data_bound_Bps_ = 0;                       // what the dataset's system can send at most
  double cache_bytes_ = 0;                          // per node
  double cache_total_ = 0;                          // all the job's nodes, at most what they read
  double cached_ = 0;                               // filled so far
  // Failures: the next one's time (infinite when the group's nodes do not fail), the draws, and what a restart
  // can resume from: the steps and capture time of the last checkpoint whose write completed.
  double next_failure_ = 0;
  std::mt19937_64 failure_rng_;
  int64_t durable_steps_ = 0;
  double durable_time_ = 0;
  // Checkpoints a restart could resume from, oldest first: the newest is used unless storage failures destroyed
  // every copy of it, then the newest that survives (Lifecycle::usable_copy).
  struct Durable {
    int64_t steps;
    double captured_s;
    int item;
  };
  std::vector<Durable> durable_;
  size_t durable_pruned_size_ = 0; // durable_'s size after its last pruning (write_checkpoint)
  size_t next_scheduled_ = 0;      // the next of the job's failures_at still to come
  int generation_ = 0;             // bumped by a failure: writes still in flight from before it never become durable
};

} // namespace aisim::sim
