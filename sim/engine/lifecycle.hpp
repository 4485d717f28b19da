// The life of data under the scenario's policies: datasets resting on their home tier and staged to the hot
// tier before their job, demoted after it; checkpoints leaving keep-last-K archived; every Nth checkpoint
// evaluated, promoted to validated storage and released to production; and what a full system does with a write
// that does not fit. Every copy is a real transfer competing for drives and network. Used from job actors.
#pragma once

#include "sim/engine/metrics.hpp"
#include "sim/engine/storage_ledger.hpp"
#include "sim/engine/transfer.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace aisim::sim {

class Lifecycle {
public:
  Lifecycle(const models::Scenario& sc, const Platform& platform, Metrics& metrics);

  // At time 0: places every dataset on its home (or its storage) and starts the staging actors.
  void start();

  // Splits bytes over a job's node sets in proportion to their GPUs (data-parallel ranks share evenly).
  std::vector<Flow> job_flows(int job, double bytes) const;

  // Blocks the job's actor until its dataset is on the storage it reads from.
  void wait_for_dataset(int job);
  // Space for a write of `bytes` of class `cls` by `job` on `storage`, under policies.on_full; may block
  // (block_writes) or evict (evict_oldest). Returns the ledger item, or -1 when the job must stop (recorded).
  int acquire(int storage, double bytes, models::DataClass cls, int job);
  // Copies data at rest from one system to another as a real transfer and records the movement; blocks the
  // caller. Node-local storage is reached through the job's nodes.
  void move(int from, int to, double bytes, models::DataClass cls, int job);

  // After each checkpoint write: the newest checkpoint is pinned (never evicted) and every Nth is evaluated in
  // the background. `item` is the checkpoint's ledger item.
  void checkpoint_written(int job, int item, int storage, double bytes);
  // A checkpoint leaving keep-last-K: copied to the archive tier first if tiering asks, then deleted; its space
  // frees later under snapshots or a retention lock. Waits for an evaluation still copying it.
  void retire_checkpoint(int job, int item, int storage, double bytes, double written_s);

  // Deletes an item at once, with no archive (a superseded local checkpoint or production model, a demoted copy).
  void discard(int item);

  void job_started(int job) { running_[job] = true; }
  // The job took its last step (or failed): its dataset's hot copy may be demoted later.
  void job_ended(int job);
  void fail(int job, const std::string& why);
  bool failed(int job) const { return !metrics_->jobs[job].failure.empty(); }

  // When a deleted item's space really frees: later under snapshots or a retention lock.
  double release_time(int storage, double written_s) const;

private:
  simgrid::s4u::Host* host_of(int job) const;
  void evaluate(int job, int item, int storage, double bytes, bool passes);
  void unpin(int item);
  void retire_now(int job, int item, int storage, double bytes, double written_s);

  struct Retirement {
    int job, storage;
    double bytes, written_s;
  };

  const models::Scenario* sc_;
  const Platform* platform_;
  Metrics* metrics_;
  StorageLedger ledger_;
  std::vector<bool> running_;
  std::vector<simgrid::s4u::ActorPtr> stagers_;
  std::vector<int> staged_item_;            // the dataset's hot copy, by job (-1: none)
  std::vector<int> newest_ckpt_;            // pinned newest checkpoint, by job (-1: none)
  std::vector<int> ckpt_count_;             // checkpoints written, by job
  std::vector<std::deque<int>> production_; // production model items, by job
  std::vector<std::mt19937_64> rng_;        // pass/fail draws, by job
  std::map<int, Retirement> deferred_;      // retirements waiting for an evaluation's copy to finish
};

} // namespace aisim::sim
