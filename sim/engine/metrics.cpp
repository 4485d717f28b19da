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
  if (const double total = compute + data + checkpoint + failure; total > 0)
    segments.push_back({start_s, end_s, compute / total, data / total, checkpoint / total, failure / total});
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

double peak_rate_Bps(const std::vector<TransferRecord>& transfers, IoDirection direction) {
  // Sweep over start/end points; ends sort before starts at the same instant so back-to-back transfers
  // are not counted as overlapping.
  std::vector<std::pair<double, double>> edges;
  for (const auto& t : transfers) {
    if (t.direction != direction || t.replica || t.end_s <= t.start_s)
      continue;
    const double rate = t.bytes / (t.end_s - t.start_s);
    edges.emplace_back(t.start_s, rate);
    edges.emplace_back(t.end_s, -rate);
  }
  std::sort(edges.begin(), edges.end());
  double current = 0, peak = 0;
  for (const auto& [time, delta] : edges) {
    current += delta;
    peak = std::max(peak, current);
  }
  return peak;
}

} // namespace aisim::sim
