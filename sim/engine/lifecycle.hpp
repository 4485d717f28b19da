// The one owner of data placement: what goes where, when, and whether it fits. Datasets rest on their home tier
// and are staged to the hot tier before their job, demoted after it; a checkpoint is written where its job's
// policy says, replicated, kept while it is among the last K, archived, evaluated, promoted to validated storage
// and released to production; a write that does not fit follows policies.on_full. Job actors ask it to store,
// restore or make room; every copy it makes is a real transfer competing for drives and network. Checkpoints
// are in lifecycle_checkpoints.cpp, the rest in lifecycle.cpp.
#pragma once

#include "sim/engine/metrics.hpp"
#include "sim/engine/storage_ledger.hpp"
#include "sim/engine/transfer.hpp"
#include "sim/platform/platform.hpp"

#include "models/scenario/scenario.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <functional>
#include <list>
#include <map>
#include <optional>
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
  // `attempt`: the job's run (restart_job() counts them) a checkpoint write belongs to; such a write blocked for
  // space gives up without stopping the job once the job has restarted (its writer died with the failed run).
  int acquire(int storage, double bytes, models::DataClass cls, int job, int attempt = -1);
  // A job failed and restarts: the blocked writes of its earlier runs give up (see acquire).
  void restart_job(int job);
  // Copies data at rest from one system to another as a real transfer and records the movement; blocks the
  // caller. Node-local storage is reached through the job's nodes.
  void move(int from, int to, double bytes, models::DataClass cls, int job);

  // Writes one checkpoint of `job` to its checkpoint storage from the calling actor: space, the PFS metadata
  // servers' file creations (one file per rank), the data, and a synchronous replica. `drain_local`: a multilevel
  // drain, reading the checkpoint back from the node-local copy as it writes. Once the checkpoint is whole,
  // `on_written(write_s, item)` is told how long the write took and the checkpoint's ledger item, and answers whether
  // the checkpoint counts (false: a failure tore it, and it is deleted); a counted one starts its asynchronous
  // replica, keep-last-K retires the oldest and every Nth goes to evaluation. Returns false when the job must stop
  // (its storage was full, see policies.on_full).
  bool write_checkpoint(int job, double bytes, bool drain_local,
                        const std::function<bool(double write_s, int item)>& on_written);
  // The first level of a multilevel checkpoint: every node writes its shard to its own drives, which keep only
  // the newest. Returns false when it did not fit.
  bool write_local_checkpoint(int job, double bytes);
  // Every rank reads its shard of the job's checkpoint back (a resuming job, a restart), from its checkpoint
  // storage or, when given, from `storage` (a surviving copy elsewhere).
  void restore_checkpoint(int job, int storage = -1);
  // Where a checkpoint can still be read: the system holding the checkpoint itself, else one holding a copy (its
  // replica or its archive), or -1 when every copy was deleted or destroyed by storage failures.
  int usable_copy(int item) const;
  // A preprocessing job's output for one phase: space on the output storage as a new dataset, and the write,
  // started; the caller waits for it. Empty when it did not fit.
  std::optional<Transfer> start_output_write(int job, double bytes);

  // Deletes an item at once, with no archive (a superseded local checkpoint or production model, a demoted copy).
  void discard(int item);

  // Storage failures destroyed `fraction` of what `storage` holds (sim/engine/storage_failures.hpp): every item
  // there is damaged, since everything is striped over all its drives. Recorded per data class.
  void data_lost(int storage, double fraction, const std::string& cause);

  // Starts an actor per scenario threat (deletion, ransomware) that strikes at its set times and at random ones
  // (sim/engine/lifecycle_threats.cpp). Called by start().
  void start_threats();
  // One threat strikes now: every copy it reaches is destroyed unless a retention lock or a snapshot it cannot
  // delete saves it; a destroyed copy whose data survives elsewhere is copied back (datasets, models) or read from
  // there when needed (checkpoints); the rest is lost. Recorded in Metrics::threat_events.
  void strike(int threat);

  void job_started(int job) { running_[job] = true; }
  // The job took its last step (or failed): its dataset's hot copy may be demoted later.
  void job_ended(int job);
  void fail(int job, const std::string& why);
  bool failed(int job) const { return !metrics_->jobs[job].failure.empty(); }

private:
  struct LiveCheckpoint {
    int item = -1; // in the storage ledger
    double bytes = 0;
    double written_s = 0;
  };
  struct Retirement {
    int job, storage;
    double bytes, written_s;
  };

  simgrid::s4u::Host* host_of(int job) const;
  // After each checkpoint write: the newest checkpoint is pinned (never evicted), every Nth is evaluated in the
  // background, and the oldest beyond keep-last-K retire.
  void checkpoint_written(int job, const LiveCheckpoint& ckpt, int storage);
  // A checkpoint leaving keep-last-K: copied to the archive tier first if tiering asks, then deleted; its space
  // frees later under snapshots or a retention lock. Waits for an evaluation still copying it.
  void retire_checkpoint(int job, int item, int storage, double bytes, double written_s);
  // Copies a checkpoint to the replication target in an actor of its own; the job does not wait.
  void replicate_in_background(int job, int item, int from, int to, double bytes);
  // A replica or archive copy of checkpoint `item` is complete: it can be restored from, unless the checkpoint
  // was destroyed while it was being copied.
  void keep_copy(int item, int copy);
  // When a deleted item's space really frees: later under snapshots or a retention lock.
  double release_time(int storage, double written_s) const;
  // Deletes `item` from the ledger, its space free at `at` (now or later), and wakes the writers blocked on its
  // system so they look again (or wait for `at`).
  void release(int item, double now, double at);
  void evaluate(int job, int item, int storage, double bytes, bool passes);
  void unpin(int item);
  void retire_now(int job, int item, int storage, double bytes, double written_s);

  const models::Scenario* sc_;
  const Platform* platform_;
  Metrics* metrics_;
  StorageLedger ledger_;
  // Writes blocked by a full system (policies.on_full = block_writes), per system in the order they blocked. A
  // release or a loss there wakes those whose bytes now fit (their bytes promised to them until they run, so one
  // freed checkpoint wakes one writer, not all); the rest sleep on, each until the next release already
  // scheduled falls due.
  struct BlockedWrite {
    double bytes = 0;
    simgrid::s4u::ConditionVariablePtr wake;
    int job = -1;
    int attempt = -1; // a checkpoint write's run of its job (see acquire), else -1
    bool woken = false;
  };
  void wake_blocked(int storage);
  simgrid::s4u::MutexPtr space_mutex_;
  // (a list, so that a writer leaves it in constant time: thousands block in a full, failing system over years)
  std::vector<std::list<BlockedWrite*>> blocked_;
  std::vector<int> attempts_; // by job: restarts so far
  std::vector<double> promised_;
  std::vector<bool> running_;
  std::vector<simgrid::s4u::ActorPtr> stagers_;
  std::vector<int> staged_item_;                             // the dataset's hot copy, by job (-1: none)
  std::vector<int> newest_ckpt_;                             // pinned newest checkpoint, by job (-1: none)
  std::vector<int> ckpt_count_;                              // checkpoints written, by job
  std::vector<std::deque<int>> production_;                  // production model items, by job
  std::vector<std::deque<LiveCheckpoint>> live_checkpoints_; // the last K written, by job, oldest first
  std::vector<int> local_ckpt_;                              // the multilevel copy on the nodes' drives, by job
  std::vector<std::mt19937_64> rng_;                         // pass/fail draws, by job
  std::map<int, Retirement> deferred_;                       // retirements waiting for an evaluation's copy to finish
  std::map<int, std::vector<int>> copies_;                   // a checkpoint's replicas and archive, by its item
  // One validated model and its copies (replica tier, production): destroyed once none of them is usable.
  struct ModelCopies {
    int job = -1;
    double made_from_s = 0; // when the checkpoint it came from was captured
    std::vector<int> items;
    bool destroyed = false;
  };
  std::vector<ModelCopies> models_;
  std::map<int, int> model_of_; // ledger item -> models_ index
  void add_model_copy(int model, int item);
  bool usable(int id) const { return !ledger_.lost(id) && !ledger_.released(id); }
  // An item destroyed: counted in `loss`; a model whose every copy is gone is recorded as destroyed.
  void item_lost(int id, DataLoss& loss, double now);
  // Whether a destroyed item's data survives in another copy, and where a copy-back would read it (-1: nowhere, or
  // no copy-back needed). Used by strike().
  bool survives_elsewhere(int id, int& copy_from);
  // Copies `bytes` back from `from` to `to` in the background, registering the new copy with `then`; records the
  // recovery in the threat event.
  void copy_back(int event, int from, int to, int id, const std::function<void(int)>& then);
};

} // namespace aisim::sim
