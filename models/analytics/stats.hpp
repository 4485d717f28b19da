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

} // namespace aisim::models
