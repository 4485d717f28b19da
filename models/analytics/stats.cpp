#include "models/analytics/stats.hpp"

#include <boost/math/distributions/students_t.hpp>

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

MeanInterval mean_interval(const std::vector<double>& samples, double confidence) {
  MeanInterval m;
  m.count = samples.size();
  if (samples.empty())
    return m;
  m.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(m.count);
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  m.min = *lo;
  m.max = *hi;
  if (m.count < 2) {
    m.half_width = std::nan("");
    return m;
  }
  double ss = 0;
  for (double x : samples)
    ss += (x - m.mean) * (x - m.mean);
  m.sd = std::sqrt(ss / static_cast<double>(m.count - 1));
  const boost::math::students_t t(static_cast<double>(m.count - 1));
  m.half_width = boost::math::quantile(boost::math::complement(t, (1 - confidence) / 2)) * m.sd /
                 std::sqrt(static_cast<double>(m.count));
  return m;
}

} // namespace aisim::models
