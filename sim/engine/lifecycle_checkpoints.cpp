#include "sim/engine/lifecycle.hpp"

#include "sim/engine/file_ops.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using models::DataClass;

bool Lifecycle::write_checkpoint(int job, double bytes, bool drain_local,
                                 const std::function<bool(double write_s, int item)>& on_written) {
  const double t0 = sg4::Engine::get_clock();
  const auto& spec = sc_->jobs[job];
  const int storage = sc_->storage_index(spec.checkpoint.storage);
  const auto& sys = sc_->storage[storage];
  // Space is taken when the write starts; the oldest is deleted once the new one is whole. A restart of the job
  // while it waits for space ends the wait (its writer died with the failed run).
  const int attempt = attempts_[job];
  const int item = acquire(storage, bytes, DataClass::active_checkpoint, job, attempt);
  if (item < 0)
    return false;
  // A wait for space (on_full: block_writes) is the GPUs' stall but not the write's time: reported apart, so the
  // write times describe the storage and the waits the capacity.
  const double t_space = sg4::Engine::get_clock();
  metrics_->jobs[job].checkpoint_space_wait_s += t_space - t0;
  // Each rank writes its shard as a file of its own, created first where the system keeps its metadata; an object
  // store takes each shard in PUTs of at most its object_size (multipart), beside the data.
  const int files = spec.gpus;
  const auto flows = job_flows(job, bytes);
  auto requests =
      open_files(*sc_, *platform_, storage, flows, IoDirection::write, {static_cast<double>(files), 1.0}, *metrics_);
  Transfer write(*sc_, *platform_, storage, IoDirection::write, flows, *metrics_, files);
  write.for_job(job, Traffic::checkpoint);
  // A multilevel drain reads the copy back from the nodes' own drives as it sends it.
  std::optional<Transfer> drain;
  if (drain_local)
    drain.emplace(*sc_, *platform_, sc_->storage_index(spec.checkpoint.local_storage), IoDirection::read, flows,
                  *metrics_);
  // Synchronous replication acknowledges a write once the copy is written too.
  const int target = sys.replication ? sc_->storage_index(sys.replication->target) : -1;
  std::optional<Transfer> sync_copy;
  if (const int copy =
          target >= 0 && sys.replication->mode == "sync" ? acquire(target, bytes, DataClass::replica, job, attempt)
                                                         : -1;
      copy >= 0) {
    copies_[item].push_back(copy);
    sync_copy.emplace(Transfer::replicate(*sc_, *platform_, storage, target, bytes, *metrics_));
    sync_copy->wait();
  }
  // An object store's PUTs pace the write beside its bytes: the write is recorded as done once both are.
  for (auto& put : requests)
    put->wait();
  write.wait();
  if (drain)
    drain->wait();
  const double write_s = sg4::Engine::get_clock() - t_space;
  if (!on_written(write_s, item)) {
    // Torn by a node failure while in flight: no restart can use it, so it is deleted at once and must not count
    // among the last K kept (else two torn writes in a row would retire the one checkpoint a restart needs).
    discard(item);
    if (auto it = copies_.find(item); it != copies_.end())
      for (int copy : it->second)
        discard(copy);
    return !failed(job);
  }
  if (target >= 0 && sys.replication->mode == "async")
    replicate_in_background(job, item, storage, target, bytes);
  checkpoint_written(job, {item, bytes, t0}, storage);
  return !failed(job);
}

bool Lifecycle::write_local_checkpoint(int job, double bytes) {
  const int local = sc_->storage_index(sc_->jobs[job].checkpoint.local_storage);
  const int item = acquire(local, bytes, DataClass::active_checkpoint, job);
  if (item < 0)
    return false;
  Transfer write(*sc_, *platform_, local, IoDirection::write, job_flows(job, bytes), *metrics_);
  write.for_job(job, Traffic::checkpoint).wait();
  // The node keeps only its newest checkpoint.
  if (local_ckpt_[job] >= 0)
    discard(local_ckpt_[job]);
  local_ckpt_[job] = item;
  return true;
}

void Lifecycle::restore_checkpoint(int job, int storage) {
  const auto& spec = sc_->jobs[job];
  // It reads back the shard files the write made, one per rank: each opened first where the system keeps its
  // metadata (an object store: fetched in ranged GETs beside the data), and on a parallel file system read from
  // the servers they sit on.
  const int from = storage >= 0 ? storage : sc_->storage_index(spec.checkpoint.storage);
  const auto flows = job_flows(job, spec.checkpoint.size.value);
  auto requests =
      open_files(*sc_, *platform_, from, flows, IoDirection::read, {static_cast<double>(spec.gpus), 2.0}, *metrics_);
  Transfer restore(*sc_, *platform_, from, IoDirection::read, flows, *metrics_, spec.gpus);
  restore.for_job(job, Traffic::restore);
  for (auto& get : requests)
    get->wait();
  restore.wait();
}

void Lifecycle::keep_copy(int item, int copy) {
  // A copy made from a checkpoint that storage failures destroyed meanwhile carries the damage: it is deleted.
  if (ledger_.lost(item)) {
    const double now = sg4::Engine::get_clock();
    release(copy, now, now);
    return;
  }
  copies_[item].push_back(copy);
}

int Lifecycle::usable_copy(int item) const {
  if (usable(item))
    return ledger_.storage_of(item);
  if (auto it = copies_.find(item); it != copies_.end())
    for (int copy : it->second)
      if (usable(copy))
        return ledger_.storage_of(copy);
  return -1;
}

void Lifecycle::replicate_in_background(int job, int item, int from, int to, double bytes) {
  // Replicas are kept: the copy is the archive.
  const int copy = acquire(to, bytes, DataClass::replica, job);
  if (copy < 0)
    return;
  ++metrics_->activities;
  sg4::Actor::create(sc_->jobs[job].name + "-replicate", sg4::this_actor::get_host(),
                     [this, item, copy, from, to, bytes] {
                       Transfer t = Transfer::replicate(*sc_, *platform_, from, to, bytes, *metrics_);
                       t.wait();
                       keep_copy(item, copy);
                     });
}

void Lifecycle::checkpoint_written(int job, const LiveCheckpoint& ckpt, int storage) {
  const int item = ckpt.item;
  // The newest checkpoint is what a restart needs: never evicted while it is the newest.
  ledger_.pin(item);
  if (newest_ckpt_[job] >= 0)
    unpin(newest_ckpt_[job]);
  newest_ckpt_[job] = item;
  const auto& promotion = sc_->policies.promotion;
  if (promotion && ++ckpt_count_[job] % promotion->evaluate_every == 0) {
    // Drawn here, in checkpoint order, so the outcome does not depend on how evaluations overlap.
    const bool passes = std::uniform_real_distribution<double>(0.0, 1.0)(rng_[job]) < promotion->pass_rate;
    ledger_.pin(item);
    ++metrics_->activities;
    sg4::Actor::create(
        sc_->jobs[job].name + "-evaluate", host_of(job),
        [this, job, item, storage, bytes = ckpt.bytes, passes] { evaluate(job, item, storage, bytes, passes); });
  }
  auto& live = live_checkpoints_[job];
  live.push_back(ckpt);
  while (static_cast<int>(live.size()) > sc_->policies.checkpoint_keep_last) {
    const LiveCheckpoint oldest = live.front();
    live.pop_front();
    retire_checkpoint(job, oldest.item, storage, oldest.bytes, oldest.written_s);
  }
}

void Lifecycle::evaluate(int job, int item, int storage, double bytes, bool passes) {
  const auto& promotion = *sc_->policies.promotion;
  sg4::this_actor::sleep_for(promotion.evaluation_time.value);
  auto& jm = metrics_->jobs[job];
  ++jm.evaluated;
  if (passes) {
    const int validated = sc_->storage_index(sc_->policies.place(DataClass::validated_model));
    if (const int v = acquire(validated, bytes, DataClass::validated_model, job); v >= 0) {
      move(storage, validated, bytes, DataClass::validated_model, job);
      ++jm.validated;
      const int model = static_cast<int>(models_.size());
      models_.push_back({job, ledger_.created_s(item), {}, false});
      add_model_copy(model, v);
      const int copy = sc_->storage_index(sc_->policies.tiering.replicate_validated_to);
      if (const int c = copy >= 0 ? acquire(copy, bytes, DataClass::validated_model, job) : -1; c >= 0) {
        move(validated, copy, bytes, DataClass::validated_model, job);
        add_model_copy(model, c);
      }
      if (promotion.production_every > 0 && jm.validated % promotion.production_every == 0) {
        const int prod = sc_->storage_index(sc_->policies.place(DataClass::production_model));
        if (const int p = acquire(prod, bytes, DataClass::production_model, job); p >= 0) {
          move(validated, prod, bytes, DataClass::production_model, job);
          add_model_copy(model, p);
          ++jm.released;
          // Production keeps the current model and the one before it, for rollback.
          auto& live = production_[job];
          live.push_back(p);
          if (live.size() > 2) {
            discard(live.front());
            live.pop_front();
          }
        }
      }
    }
  }
  unpin(item);
}

void Lifecycle::unpin(int item) {
  if (ledger_.unpin(item))
    return;
  if (auto it = deferred_.find(item); it != deferred_.end()) {
    const Retirement r = it->second;
    deferred_.erase(it);
    retire_now(r.job, item, r.storage, r.bytes, r.written_s);
  }
}

void Lifecycle::retire_checkpoint(int job, int item, int storage, double bytes, double written_s) {
  if (ledger_.released(item))
    return; // evicted under policies.on_full already
  if (ledger_.pinned(item)) {
    deferred_[item] = {job, storage, bytes, written_s};
    return;
  }
  retire_now(job, item, storage, bytes, written_s);
}

void Lifecycle::retire_now(int job, int item, int storage, double bytes, double written_s) {
  const int archive = sc_->storage_index(sc_->policies.tiering.archive_checkpoints_to);
  if (archive < 0 || archive == storage) {
    const double now = sg4::Engine::get_clock();
    release(item, now, release_time(storage, written_s));
    return;
  }
  // Archiving runs beside the job; the hot copy is deleted once the archive holds the checkpoint.
  ledger_.pin(item);
  ++metrics_->activities;
  sg4::Actor::create(sc_->jobs[job].name + "-archive", host_of(job),
                     [this, job, item, storage, bytes, written_s, archive] {
                       if (const int copy = acquire(archive, bytes, DataClass::archived_checkpoint, job); copy >= 0) {
                         move(storage, archive, bytes, DataClass::archived_checkpoint, job);
                         keep_copy(item, copy);
                       }
                       ledger_.unpin(item);
                       const double now = sg4::Engine::get_clock();
                       release(item, now, release_time(storage, written_s));
                     });
}

double Lifecycle::release_time(int storage, double written_s) const {
  const auto& sys = sc_->storage[storage];
  const double deleted_s = sg4::Engine::get_clock();
  double t = deleted_s;
  // Snapshots are taken at every multiple of the interval. The last one taken while the checkpoint existed keeps
  // its blocks until that snapshot expires.
  if (sys.snapshots) {
    const double interval = sys.snapshots->interval.value;
    const double last_snapshot = std::floor(deleted_s / interval) * interval;
    if (last_snapshot >= written_s && last_snapshot < deleted_s)
      t = std::max(t, last_snapshot + sys.snapshots->retention.value);
  }
  // A retention lock refuses the deletion until the lock expires.
  if (sys.retention_lock)
    t = std::max(t, written_s + sys.retention_lock->value);
  return t;
}

} // namespace aisim::sim
