// What each storage system holds, item by item (a checkpoint, a dataset copy, a model), with its data class and
// owner, so capacity is accounted per class over time and a full system can follow its policy. No SimGrid: the
// caller passes the simulated time, and the ledger records occupancy changes in Metrics for the results.
#pragma once

#include "sim/engine/metrics.hpp"

#include "models/scenario/policies.hpp"

#include <array>
#include <functional>
#include <queue>
#include <vector>

namespace aisim::sim {

class StorageLedger {
public:
  StorageLedger(std::vector<double> capacities, Metrics& metrics);

  // Space is taken at `now`; returns the item's id.
  int add(int storage, double now, models::DataClass cls, double bytes, int job);
  // The item's space frees at `at` (>= now: snapshots and retention locks keep deleted blocks for a while).
  // Releasing twice is a no-op, so an item evicted under a policy may still be deleted by its owner later.
  void release(int id, double now, double at);
  bool released(int id) const { return items_[id].released; }
  // A pinned item is in use (being copied, or a running job's newest checkpoint): never evicted. Pins count.
  void pin(int id) { ++items_[id].pins; }
  // Returns whether the item is still pinned by someone else.
  bool unpin(int id) { return --items_[id].pins > 0; }
  bool pinned(int id) const { return items_[id].pins > 0; }

  // Data on `storage` destroyed: every item held there loses `fraction` of its bytes (everything is striped over
  // all the system's drives). A dataset keeps the rest (its lost shard can be fetched again); a checkpoint, model or
  // replica with a piece gone is unusable and marked lost. Returns the bytes lost per data class; appends the
  // items marked lost to `lost_items`.
  // `dataset_hits` gets each dataset hit with the bytes it lost.
  std::array<double, models::kDataClasses> destroy(int storage, double fraction, std::vector<int>& lost_items,
                                                   std::vector<std::pair<int, double>>& dataset_hits);
  // One item destroyed outright (deleted by a threat, or encrypted): unusable from now on.
  void lose(int id) { items_[id].lost = true; }
  int count() const { return static_cast<int>(items_.size()); }
  double bytes_of(int id) const { return items_[id].bytes; }
  double created_s(int id) const { return items_[id].created_s; }
  int job_of(int id) const { return items_[id].job; }
  bool lost(int id) const { return items_[id].lost; }
  int storage_of(int id) const { return items_[id].storage; }
  models::DataClass class_of(int id) const { return items_[id].cls; }

  double used(int storage, double now);
  double capacity(int storage) const { return capacity_[storage]; }
  bool fits(int storage, double now, double bytes) { return used(storage, now) + bytes <= capacity_[storage] * kSlack; }
  // The next time a scheduled release frees space on `storage`, or a negative value when none is pending.
  double next_release(int storage, double now);
  // Releases the oldest unpinned items of evictable classes (checkpoints, archived checkpoints, replicas, and
  // datasets `idle` says no job needs now) until `bytes` fit. Returns the bytes freed; the caller reports it.
  double evict_oldest(int storage, double now, double bytes, const std::function<bool(int job)>& dataset_idle);

private:
  // Rounding in byte counts must not make an exactly full system refuse a write.
  static constexpr double kSlack = 1.0 + 1e-9;
  struct Item {
    int storage;
    models::DataClass cls;
    double bytes;
    int job;
    double created_s;
    int pins = 0;
    bool released = false;
    bool lost = false;
  };
  struct Pending {
    double at;
    int storage;
    double bytes;
    bool operator>(const Pending& o) const { return at > o.at; }
  };
  void apply_due(double now);

  std::vector<double> capacity_;
  std::vector<double> used_; // applied: held now, counting releases that are due
  std::vector<Item> items_;
  // Releases still to come, one queue per system: its next is its top (one queue for all made a blocked writer's
  // look at its system's next release copy every system's).
  std::vector<std::priority_queue<Pending, std::vector<Pending>, std::greater<>>> pending_;
  Metrics* metrics_;
};

} // namespace aisim::sim
