#include "app/sweep/grid_optimum.hpp"

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>

namespace aisim::app {

GridOptimum find_grid_optimum(const std::vector<double>& values, const std::vector<double>& means, bool log_scale,
                              bool maximize) {
  GridOptimum r;
  const size_t n = values.size();
  if (n < 3 || means.size() != n) {
    r.message = "needs at least 3 values, each with its metric";
    return r;
  }
  for (size_t i = 0; i < n; ++i) {
    if (!std::isfinite(values[i]) || !std::isfinite(means[i]) || (i > 0 && values[i] <= values[i - 1])) {
      r.message = "values must be finite and increasing";
      return r;
    }
    if (log_scale && values[i] <= 0) {
      r.message = "a log scale needs positive values";
      return r;
    }
  }
  // A minimum is the peak of the negated metric.
  std::vector<double> y(means);
  if (!maximize)
    for (auto& v : y)
      v = -v;
  r.best = static_cast<size_t>(std::max_element(y.begin(), y.end()) - y.begin());
  if (r.best == 0 || r.best + 1 == n) {
    r.outcome = OptimumOutcome::at_edge;
    r.message =
        "the best value is at the " + std::string(r.best == 0 ? "low" : "high") + " end of the grid (widen the grid)";
    return r;
  }
  const size_t lo = r.best >= 2 ? r.best - 2 : 0;
  const size_t hi = std::min(n - 1, r.best + 2);
  r.fitted = static_cast<int>(hi - lo + 1);
  // Centred on the best point, so the fit is well conditioned whatever the knob's unit.
  const auto x_of = [&](double v) { return log_scale ? std::log(v) : v; };
  const double x0 = x_of(values[r.best]);
  const double scale = std::max(std::fabs(x_of(values[hi]) - x0), std::fabs(x_of(values[lo]) - x0));
  Eigen::MatrixXd a(r.fitted, 3);
  Eigen::VectorXd b(r.fitted);
  for (size_t i = lo; i <= hi; ++i) {
    const double x = (x_of(values[i]) - x0) / scale;
    a.row(static_cast<Eigen::Index>(i - lo)) << 1.0, x, x * x;
    b(static_cast<Eigen::Index>(i - lo)) = y[i];
  }
  const Eigen::Vector3d c = a.colPivHouseholderQr().solve(b);
  if (!(c(2) < 0)) {
    r.outcome = OptimumOutcome::not_peak;
    r.message = "the metric does not bend around its best value (flat or noisy: more replicas or a wider grid)";
    return r;
  }
  // The vertex stays within the fitted points: a parabola that puts it beyond them is extrapolating.
  const double vertex =
      std::clamp(-c(1) / (2 * c(2)), (x_of(values[lo]) - x0) / scale, (x_of(values[hi]) - x0) / scale);
  const double x = x0 + vertex * scale;
  r.value = log_scale ? std::exp(x) : x;
  r.outcome = OptimumOutcome::found;
  return r;
}

} // namespace aisim::app
