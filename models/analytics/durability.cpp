#include "models/analytics/durability.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>

#include <cmath>
#include <stdexcept>

namespace aisim::models {
namespace {

constexpr double kYear = 365.0 * 86400.0;

// The generator restricted to the transient states 0..f (failed drives); what leaves it goes to "data lost". Rates
// per year keep the matrix's entries near 1 whatever the drives.
Eigen::MatrixXd transient_generator(const RedundancyGroup& g) {
  if (g.drives < 1 || g.tolerated < 0 || g.tolerated >= g.drives || g.failure_rate < 0 || g.repair_rate < 0)
    throw std::invalid_argument("redundancy group: expected 0 <= tolerated < drives and rates >= 0");
  const int f = g.tolerated;
  const double lambda = g.failure_rate * kYear, mu = g.repair_rate * kYear;
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(f + 1, f + 1);
  for (int i = 0; i <= f; ++i) {
    const double fail = (g.drives - i) * lambda;
    const double repair = i == 0 ? 0.0 : (g.repair == RepairPolicy::parallel ? i * mu : mu);
    if (i < f)
      q(i, i + 1) = fail;
    if (i > 0)
      q(i, i - 1) = repair;
    q(i, i) = -(fail + repair);
  }
  return q;
}

} // namespace

double mttdl_s(const RedundancyGroup& g) {
  const Eigen::MatrixXd q = transient_generator(g);
  if (g.failure_rate <= 0)
    return INFINITY;
  // Expected times to absorption t solve Q t = -1.
  const Eigen::VectorXd t = q.fullPivLu().solve(-Eigen::VectorXd::Ones(q.rows()));
  return t(0) * kYear;
}

double loss_probability(const RedundancyGroup& g, double horizon_s) {
  if (g.failure_rate <= 0 || horizon_s <= 0)
    return 0;
  const Eigen::MatrixXd q = transient_generator(g);
  const Eigen::MatrixXd p = (q * (horizon_s / kYear)).exp();
  const double survive = p.row(0).sum();
  const double exact = 1.0 - survive;
  // Below about 1e-9 the difference from 1 is rounding; the settled chain's exponential keeps its digits.
  if (exact > 1e-9)
    return exact;
  return -std::expm1(-horizon_s / mttdl_s(g));
}

double loss_probability(const RedundancyGroup& g, double horizon_s, double groups) {
  const double one = loss_probability(g, horizon_s);
  // 1 - (1 - p)^G without losing a small p to rounding.
  return -std::expm1(groups * std::log1p(-one));
}

double bytes_lost_per_year(const RedundancyGroup& g, double groups, double bytes_per_group) {
  const double mttdl = mttdl_s(g);
  return std::isinf(mttdl) ? 0.0 : groups * bytes_per_group * kYear / mttdl;
}

double mttdl_closed_form_s(const RedundancyGroup& g) {
  double denominator = std::pow(g.failure_rate, g.tolerated + 1);
  for (int i = 0; i <= g.tolerated; ++i)
    denominator *= g.drives - i;
  double factorial = 1;
  for (int i = 2; i <= g.tolerated; ++i)
    factorial *= i;
  return std::pow(g.repair_rate, g.tolerated) * (g.repair == RepairPolicy::parallel ? factorial : 1.0) / denominator;
}

double failure_rate_from_afr(double afr) { return -std::log1p(-afr) / kYear; }

} // namespace aisim::models
