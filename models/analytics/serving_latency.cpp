#include "models/analytics/serving_latency.hpp"

#include <cmath>
#include <limits>

namespace aisim::models {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

// Fraction of all reads answered within t.
double within(const std::vector<ServingPeriod>& periods, double t) {
  double total = 0, ok = 0;
  for (const auto& p : periods) {
    total += p.requests;
    if (std::isfinite(p.mean_s))
      ok += p.requests * (1.0 - std::exp(-t / p.mean_s));
  }
  return total > 0 ? ok / total : 1.0;
}
} // namespace

double mean_response_s(double unloaded_s, double rho) { return rho >= 1.0 ? kInf : unloaded_s / (1.0 - rho); }

double latency_quantile_s(const std::vector<ServingPeriod>& periods, double p) {
  double hi = 0;
  for (const auto& x : periods)
    if (x.requests > 0)
      hi = std::max(hi, x.mean_s);
  if (hi == 0)
    return 0;
  if (!std::isfinite(hi)) {
    // Bounded only if the finite periods alone reach p.
    hi = 0;
    for (const auto& x : periods)
      if (std::isfinite(x.mean_s))
        hi = std::max(hi, x.mean_s);
    if (hi == 0 || within(periods, hi * 1e3) < p)
      return kInf;
  }
  // The quantile of the slowest period bounds the mixture's from above.
  double lo = 0;
  hi *= -std::log(1.0 - p) + 1.0;
  while (within(periods, hi) < p)
    hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (within(periods, mid) < p ? lo : hi) = mid;
  }
  return hi;
}

double slo_attainment(const std::vector<ServingPeriod>& periods, double slo_s) { return within(periods, slo_s); }

} // namespace aisim::models
