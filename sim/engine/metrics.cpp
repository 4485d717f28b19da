#include "sim/engine/metrics.hpp"

#include <algorithm>

namespace aisim::sim {

std::vector<UsageEvent> StorageMetrics::usage_in_time_order() const {
  auto sorted = usage_events;
  // At one instant, changes apply in the order they were recorded, as the ledger applied them: a release
  // recorded before a write (an eviction making room) frees space for it, a write recorded before a release
  // (a checkpoint replacing the oldest) counts both.
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.time_s < b.time_s; });
  return sorted;
}

void JobMetrics::add_segment(double start_s, double end_s, double compute, double data, double checkpoint,
                             double failure) {
  // GPU time after the job's window belongs to whoever has the GPUs next (or to nobody, past the simulated
  // period): the stretch is cut there and its GPU-seconds with it, state by state.
  if (end_s > window_end_s) {
    const double kept = start_s >= window_end_s ? 0.0 : (window_end_s - start_s) / (end_s - start_s);
    compute *= kept;
    data *= kept;
    checkpoint *= kept;
    failure *= kept;
    end_s = std::max(start_s, window_end_s);
  }
  compute_gpu_s += compute;
  data_stall_gpu_s += data;
  checkpoint_stall_gpu_s += checkpoint;
  failure_gpu_s += failure;
  // Fractions of all the job's GPUs over the stretch, so that what the job's GPUs did not do (replicas scaled in)
  // stays idle in the time series; a stretch of no length keeps its GPU-seconds' proportions.
  const double total = compute + data + checkpoint + failure;
  const double base = end_s > start_s && gpus > 0 ? gpus * (end_s - start_s) : total;
  if (total > 0)
    segments.push_back({start_s, end_s, compute / base, data / base, checkpoint / base, failure / base});
}

double StorageMetrics::peak_used_bytes(double until_s) const {
  double used = 0, peak = 0;
  for (const auto& e : usage_in_time_order()) {
    if (e.time_s > until_s)
      break;
    used += e.bytes;
    peak = std::max(peak, used);
  }
  return peak;
}

std::array<double, models::kDataClasses> StorageMetrics::peak_used_by_class(double until_s) const {
  std::array<double, models::kDataClasses> used{}, peak{};
  for (const auto& e : usage_in_time_order()) {
    if (e.time_s > until_s)
      break;
    const auto c = static_cast<size_t>(e.cls);
    used[c] += e.bytes;
    peak[c] = std::max(peak[c], used[c]);
  }
  return peak;
}

std::array<double, models::kDataClasses> StorageMetrics::used_by_class(double at_s) const {
  std::array<double, models::kDataClasses> used{};
  for (const auto& e : usage_events)
    if (e.time_s <= at_s)
      used[static_cast<size_t>(e.cls)] += e.bytes;
  return used;
}

std::array<double, models::kDataClasses> StorageMetrics::mean_used_by_class(double until_s) const {
  std::array<double, models::kDataClasses> held{}, integral{};
  double t = 0;
  for (const auto& e : usage_in_time_order()) {
    const double at = std::clamp(e.time_s, 0.0, until_s);
    for (int k = 0; k < models::kDataClasses; ++k)
      integral[k] += held[k] * (at - t);
    t = at;
    held[static_cast<size_t>(e.cls)] += e.bytes;
  }
  for (int k = 0; k < models::kDataClasses; ++k) {
    integral[k] += held[k] * (until_s - t);
    integral[k] = until_s > 0 ? integral[k] / until_s : 0.0;
  }
  return integral;
}

double bytes_after(const std::vector<TransferRecord>& transfers, IoDirection direction, double period_end_s) {
  double after = 0;
  for (const auto& t : transfers) {
    if (t.direction != direction || (t.end_s <= period_end_s && t.end_s > t.start_s))
      continue;
    if (t.end_s <= t.start_s) // done in an instant: all of it on the side of the end it happened
      after += t.start_s >= period_end_s ? t.bytes : 0.0;
    else
      after += t.bytes * (t.end_s - std::max(t.start_s, period_end_s)) / (t.end_s - t.start_s);
  }
  return after;
}

double peak_rate_Bps(const std::vector<TransferRecord>& transfers, IoDirection direction) {
  // A transfer is known by its bytes and its lifetime, not by how its rate moved while it shared links and drives
  // with others, so summing overlapping transfers' average rates can exceed what the hardware can move (two
  // transfers that take turns at full speed each average more than half of it). What is known for sure: over any
  // window [a, b], the bytes of the transfers that ran entirely inside it were moved within it, so the highest
  // such bytes / (b - a) is a rate the system really sustained, at most its capacity; for a transfer alone it is
  // its own rate. Windows start at a transfer's start and end at a transfer's end, within a group of transfers
  // that overlap one another (a gap splits groups: no window gains by spanning it).
  std::vector<const TransferRecord*> ts;
  for (const auto& t : transfers)
    if (t.direction == direction && t.end_s > t.start_s)
      ts.push_back(&t);
  std::sort(ts.begin(), ts.end(), [](const auto* x, const auto* y) { return x->start_s < y->start_s; });
  // Windows a start reaches, in its group, by end time: enough for the overlaps aisim's jobs make (a few
  // checkpoints, prefetches and copies at once) while a month of back-to-back reads stays linear.
  constexpr std::size_t kWindowsPerStart = 512;
  // A sustained rate is one over at least a millisecond. SimGrid dates events to a few nanoseconds (a 16 kB read
  // of 16 us from drives giving 1 GB/s ended 1.6 ns early: 1.0001 GB/s), so shorter windows would report rates the
  // hardware cannot give; they count only where a system saw no longer window.
  constexpr double kSustained_s = 1e-3;
  double peak = 0, peak_short = 0;
  std::vector<const TransferRecord*> by_end;
  for (std::size_t g = 0; g < ts.size();) {
    std::size_t h = g + 1;
    double group_end = ts[g]->end_s;
    while (h < ts.size() && ts[h]->start_s < group_end)
      group_end = std::max(group_end, ts[h++]->end_s);
    by_end.assign(ts.begin() + static_cast<std::ptrdiff_t>(g), ts.begin() + static_cast<std::ptrdiff_t>(h));
    std::sort(by_end.begin(), by_end.end(), [](const auto* x, const auto* y) { return x->end_s < y->end_s; });
    for (std::size_t k = g; k < h; ++k) {
      const double a = ts[k]->start_s;
      auto it = std::upper_bound(by_end.begin(), by_end.end(), a,
                                 [](double v, const TransferRecord* t) { return v < t->end_s; });
      double inside = 0;
      for (std::size_t n = 0; it != by_end.end() && n < kWindowsPerStart; ++it) {
        if ((*it)->start_s < a)
          continue;
        ++n;
        inside += (*it)->bytes;
        const double len = (*it)->end_s - a;
        double& best = len >= kSustained_s ? peak : peak_short;
        best = std::max(best, inside / len);
      }
    }
    g = h;
  }
  return peak > 0 ? peak : peak_short;
}

} // namespace aisim::sim
