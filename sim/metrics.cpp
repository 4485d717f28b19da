#include "metrics.hpp"

#include <algorithm>

namespace aisim::sim {

double StorageMetrics::peak_used_bytes(double until_s) const {
  auto events = usage_events;
  std::sort(events.begin(), events.end(),
            [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; });
  double used = 0, peak = 0;
  for (const auto& [t, delta] : events) {
    if (t > until_s)
      break;
    used += delta;
    peak = std::max(peak, used);
  }
  return peak;
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
