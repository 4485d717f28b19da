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

Histogram histogram(const std::vector<double>& samples, std::size_t max_bins) {
  Histogram h;
  if (samples.empty() || max_bins == 0)
    return h;
  const auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  // Spreads below a millionth of the values are rounding in the simulation's clock, not a distribution.
  const bool spread = *hi - *lo > 1e-6 * std::max(std::fabs(*hi), std::fabs(*lo));
  const std::size_t bins =
      spread ? std::clamp<std::size_t>(static_cast<std::size_t>(std::ceil(std::sqrt(samples.size()))), 1, max_bins) : 1;
  const double width = spread ? (*hi - *lo) / static_cast<double>(bins) : 0.0;
  for (std::size_t b = 0; b <= bins; ++b)
    h.edges.push_back(b == bins ? *hi : *lo + width * static_cast<double>(b));
  h.counts.assign(bins, 0);
  for (double v : samples) {
    const auto b = width > 0 ? static_cast<std::size_t>((v - *lo) / width) : 0;
    ++h.counts[std::min(b, bins - 1)];
  }
  return h;
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
