#include "sim/engine/storage_ledger.hpp"

namespace aisim::sim {

using models::DataClass;

StorageLedger::StorageLedger(std::vector<double> capacities, Metrics& metrics)
    : capacity_(std::move(capacities)), used_(capacity_.size(), 0.0), pending_(capacity_.size()), metrics_(&metrics) {}

int StorageLedger::add(int storage, double now, DataClass cls, double bytes, int job) {
  apply_due(now);
  items_.push_back({storage, cls, bytes, job, now});
  used_[storage] += bytes;
  metrics_->storage[storage].add_used(now, bytes, cls);
  return static_cast<int>(items_.size()) - 1;
}

void StorageLedger::release(int id, double now, double at) {
  auto& it = items_[id];
  if (it.released)
    return;
  it.released = true;
  metrics_->storage[it.storage].add_used(at, -it.bytes, it.cls);
  if (at <= now)
    used_[it.storage] -= it.bytes;
  else
    pending_[it.storage].push({at, it.storage, it.bytes});
}

std::array<double, models::kDataClasses> StorageLedger::destroy(int storage, double fraction,
                                                                std::vector<int>& lost_items,
                                                                std::vector<std::pair<int, double>>& dataset_hits) {
  std::array<double, models::kDataClasses> bytes{};
  for (size_t id = 0; id < items_.size(); ++id) {
    auto& it = items_[id];
    if (it.storage != storage || it.released || it.lost)
      continue;
    if (it.cls == DataClass::training_dataset) {
      bytes[static_cast<size_t>(it.cls)] += it.bytes * fraction;
      dataset_hits.emplace_back(static_cast<int>(id), it.bytes * fraction);
      continue;
    }
    it.lost = true;
    bytes[static_cast<size_t>(it.cls)] += it.bytes;
    lost_items.push_back(static_cast<int>(id));
  }
  return bytes;
}

void StorageLedger::apply_due(double now) {
  for (auto& q : pending_)
    while (!q.empty() && q.top().at <= now) {
      used_[q.top().storage] -= q.top().bytes;
      q.pop();
    }
}

double StorageLedger::used(int storage, double now) {
  apply_due(now);
  return used_[storage];
}

double StorageLedger::next_release(int storage, double now) {
  apply_due(now);
  return pending_[storage].empty() ? -1 : pending_[storage].top().at;
}

double StorageLedger::evict_oldest(int storage, double now, double bytes,
                                   const std::function<bool(int job)>& dataset_idle) {
  double freed = 0;
  // Items are appended in time order, so the first candidates met are the oldest.
  for (size_t id = 0; id < items_.size() && !fits(storage, now, bytes); ++id) {
    auto& it = items_[id];
    if (it.storage != storage || it.released || it.pins > 0)
      continue;
    const bool evictable = it.cls == DataClass::active_checkpoint || it.cls == DataClass::archived_checkpoint ||
                           it.cls == DataClass::replica ||
                           (it.cls == DataClass::training_dataset && dataset_idle(it.job));
    if (!evictable)
      continue;
    freed += it.bytes;
    release(static_cast<int>(id), now, now);
  }
  return freed;
}

} // namespace aisim::sim
