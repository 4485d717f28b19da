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

// Counts of samples in equal-width bins from the smallest to the largest (the last bin includes its upper edge):
// about sqrt(n) bins, at most `max_bins`; one bin when the samples differ by less than a millionth (equal but for
// rounding), none without samples.
struct Histogram {
  std::vector<double> edges; // bins + 1
  std::vector<std::size_t> counts;
};
Histogram histogram(const std::vector<double>& samples, std::size_t max_bins = 30);

// A mean with its confidence interval over independent replicas: Student's t with n - 1 degrees of freedom (Boost.
// Math's quantile), half-width t * sd / sqrt(n). With one sample there is no interval: half_width is NaN.
struct MeanInterval {
  double mean = 0, sd = 0, half_width = 0, min = 0, max = 0;
  std::size_t count = 0;
};
MeanInterval mean_interval(const std::vector<double>& samples, double confidence = 0.95);

} // namespace aisim::models
