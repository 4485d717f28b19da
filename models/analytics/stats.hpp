// Summary statistics for reported distributions (checkpoint write times, ...).
#pragma once

#include <cstddef>
#include <vector>

namespace aisim::models {

struct Summary {
  double mean = 0, p50 = 0, p99 = 0, max = 0;
  std::size_t count = 0;
};

// Percentiles by the nearest-rank rule: the smallest value with at least p% of the samples at or below it.
Summary summarize(std::vector<double> samples);

// A mean with its confidence interval over independent replicas: Student's t with n - 1 degrees of freedom (Boost.
// Math's quantile), half-width t * sd / sqrt(n). With one sample there is no interval: half_width is NaN.
struct MeanInterval {
  double mean = 0, sd = 0, half_width = 0, min = 0, max = 0;
  std::size_t count = 0;
};
MeanInterval mean_interval(const std::vector<double>& samples, double confidence = 0.95);

} // namespace aisim::models
