// Deletion and ransomware (scenario `threats`): what a strike destroys, what saves each copy, what is copied back.
#include "sim/engine/lifecycle.hpp"

#include "models/hardware/failure_spec.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::sim {

namespace sg4 = simgrid::s4u;
using models::DataClass;

void Lifecycle::start_threats() {
  const double end = metrics_->period_end_s;
  for (size_t i = 0; i < sc_->threats.size(); ++i) {
    const auto& t = sc_->threats[i];
    // The set times, and the random ones of a Poisson process drawn from the seed (a stream of its own per
    // threat, so adding a threat does not move the others' events).
    std::vector<double> times;
    for (const auto& at : t.at)
      if (at.value < end)
        times.push_back(at.value);
    if (t.rate_per_year > 0) {
      std::mt19937_64 rng(sc_->simulation.seed * 2654435761ULL + 7919ULL * (i + 1));
      std::exponential_distribution<double> gap(t.rate_per_year / models::kSecondsPerYear);
      for (double at = gap(rng); at < end; at += gap(rng))
        times.push_back(at);
    }
    std::sort(times.begin(), times.end());
    if (times.empty())
      continue;
    ++metrics_->activities;
    sg4::Actor::create("threat-" + std::to_string(i), platform_->servers.front().host,
                       [this, i, times = std::move(times)] {
                         for (double at : times) {
                           sg4::this_actor::sleep_until(at);
                           if (at >= metrics_->period_end_s) // a run limit ended the period first
                             return;
                           ++metrics_->activities;
                           strike(static_cast<int>(i));
                         }
                       });
  }
}

bool Lifecycle::survives_elsewhere(int id, int& copy_from) {
  copy_from = -1;
  const DataClass cls = ledger_.class_of(id);
  // A checkpoint, or a replica or archive copy of one: any other copy will do; a restart reads it where it is.
  for (const auto& [original, copies] : copies_) {
    if (original != id && std::find(copies.begin(), copies.end(), id) == copies.end())
      continue;
    if (usable(original) || std::any_of(copies.begin(), copies.end(), [&](int c) { return usable(c); }))
      return true;
  }
  // A model: another of its copies, copied back to restore the copy that was lost.
  if (const auto m = model_of_.find(id); m != model_of_.end())
    for (int c : models_[m->second].items)
      if (c != id && usable(c)) {
        copy_from = ledger_.storage_of(c);
        return true;
      }
  // A dataset: its other copy (the home tier's, or the staged one); a lost staged copy is staged again.
  if (cls == DataClass::training_dataset && ledger_.job_of(id) >= 0)
    for (int other = 0; other < ledger_.count(); ++other)
      if (other != id && usable(other) && ledger_.class_of(other) == DataClass::training_dataset &&
          ledger_.job_of(other) == ledger_.job_of(id)) {
        if (staged_item_[ledger_.job_of(id)] == id)
          copy_from = ledger_.storage_of(other);
        return true;
      }
  return false;
}

void Lifecycle::copy_back(int event, int from, int to, int id, const std::function<void(int)>& then) {
  const double bytes = ledger_.bytes_of(id);
  const DataClass cls = ledger_.class_of(id);
  const int job = ledger_.job_of(id);
  ++metrics_->activities;
  sg4::Actor::create("recover", platform_->servers.front().host, [this, event, from, to, bytes, cls, job, then] {
    const double now = sg4::Engine::get_clock();
    if (!ledger_.fits(to, now, bytes))
      return; // no room to restore it: the surviving copy stays the only one
    const int item = ledger_.add(to, now, cls, bytes, job);
    ledger_.pin(item);
    move(from, to, bytes, cls, job);
    ledger_.unpin(item);
    then(item);
    auto& e = metrics_->threat_events[event];
    e.recovery_bytes += bytes;
    e.recovered_s = std::max(e.recovered_s, sg4::Engine::get_clock());
  });
}

void Lifecycle::strike(int threat) {
  const auto& t = sc_->threats[threat];
  const double now = sg4::Engine::get_clock();
  const int event = static_cast<int>(metrics_->threat_events.size());
  metrics_->threat_events.push_back({});
  ThreatEvent& e = metrics_->threat_events.back();
  e.time_s = now;
  e.threat = threat;
  std::vector<char> reached(sc_->storage.size(), 0);
  for (const auto& name : t.reach)
    reached[sc_->storage_index(name)] = 1;
  std::vector<double> held(sc_->storage.size(), 0.0);
  std::vector<int> destroyed;
  for (int id = 0; id < ledger_.count(); ++id) {
    if (!usable(id))
      continue;
    const int s = ledger_.storage_of(id);
    held[s] += ledger_.bytes_of(id);
    const DataClass cls = ledger_.class_of(id);
    if (!reached[s] || (!t.classes.empty() && std::find(t.classes.begin(), t.classes.end(), cls) == t.classes.end()))
      continue;
    const double bytes = ledger_.bytes_of(id);
    e.hit_bytes += bytes;
    e.hit_by_class[static_cast<size_t>(cls)] += bytes;
    const auto& sys = sc_->storage[s];
    // Write-once until the lock expires: neither a delete nor an overwrite is accepted.
    if (sys.retention_lock && now < ledger_.created_s(id) + sys.retention_lock->value) {
      e.locked_bytes += bytes;
      continue;
    }
    // A snapshot taken since the copy was written, still kept, and out of the attacker's hands: reverted in place
    // (a snapshot restore is a metadata operation on the array; no data moves).
    if (models::snapshots_survive(sys, t)) {
      const double last = std::floor(now / sys.snapshots->interval.value) * sys.snapshots->interval.value;
      if (last >= ledger_.created_s(id) && last + sys.snapshots->retention.value > now) {
        e.snapshot_bytes += bytes;
        continue;
      }
    }
    destroyed.push_back(id);
  }
  // Everything reached is gone before asking what survives elsewhere: a replica reached by the same strike saves
  // nothing.
  for (int id : destroyed) {
    ledger_.lose(id);
    const int s = ledger_.storage_of(id);
    release(id, now, release_time(s, ledger_.created_s(id)));
  }
  std::vector<DataLoss> losses;
  for (int id : destroyed) {
    const int s = ledger_.storage_of(id);
    const double bytes = ledger_.bytes_of(id);
    const DataClass cls = ledger_.class_of(id);
    int from = -1;
    if (survives_elsewhere(id, from)) {
      e.copy_bytes += bytes;
      if (from < 0)
        continue;
      if (const auto m = model_of_.find(id); m != model_of_.end()) {
        const int model = m->second;
        copy_back(event, from, s, id, [this, model](int item) { add_model_copy(model, item); });
      } else {
        const int job = ledger_.job_of(id);
        copy_back(event, from, s, id, [this, job](int item) { staged_item_[job] = item; });
      }
      continue;
    }
    e.lost_bytes += bytes;
    e.lost_by_class[static_cast<size_t>(cls)] += bytes;
    auto it = std::find_if(losses.begin(), losses.end(), [&](const DataLoss& l) { return l.storage == s; });
    if (it == losses.end()) {
      losses.push_back({now, s, t.kind, 0.0, {}, {}, 0.0});
      it = std::prev(losses.end());
    }
    it->bytes[static_cast<size_t>(cls)] += bytes;
    item_lost(id, *it, now);
  }
  for (auto& l : losses) {
    double lost = 0;
    for (double b : l.bytes)
      lost += b;
    l.fraction = held[l.storage] > 0 ? lost / held[l.storage] : 0.0;
    metrics_->data_losses.push_back(l);
  }
}

} // namespace aisim::sim
