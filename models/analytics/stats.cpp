#include "models/analytics/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace aisim::models {

namespace {
double nearest_rank(const std::vector<double>& sorted, double p) {
  const auto n = static_cast<double>(sorted.size());
  const auto rank = static_cast<size_t>(std::max(1.0, std::ceil(p / 100.0 * n)));
  return sorted[std::min(rank, sorted.size()) - 1];
}
} // namespace

Summary summarize(std::vector<double> samples) {
  Summary s;
  s.count = samples.size();
  if (samples.empty())
    return s;
  std::sort(samples.begin(), samples.end());
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
  s.p50 = nearest_rank(samples, 50);
  s.p99 = nearest_rank(samples, 99);
  s.max = samples.back();
  return s;
}

} // namespace aisim::models
