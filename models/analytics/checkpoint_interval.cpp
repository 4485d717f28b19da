#include "models/analytics/checkpoint_interval.hpp"

#include <cmath>

namespace aisim::models {

double daly_interval_s(double delta, double mtbf) {
  if (delta >= 2.0 * mtbf)
    return mtbf;
  const double x = delta / (2.0 * mtbf);
  return std::sqrt(2.0 * delta * mtbf) * (1.0 + std::sqrt(x) / 3.0 + x / 9.0) - delta;
}

double young_interval_s(double delta, double mtbf) { return std::sqrt(2.0 * delta * mtbf); }

double expected_goodput(double tau, double delta, double restart, double mtbf) {
  if (tau <= 0)
    return 0;
  if (mtbf <= 0)
    return tau / (tau + delta);
  return tau / (mtbf * std::exp(restart / mtbf) * std::expm1((tau + delta) / mtbf));
}

} // namespace aisim::models
