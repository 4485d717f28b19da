#include "models/analytics/durability.hpp"

#include <Eigen/Dense>
#include <unsupported/Eigen/MatrixFunctions>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace aisim::models {
namespace {

constexpr double kYear = 365.0 * 86400.0;

void check(const RedundancyGroup& g) {
  if (g.drives < 1 || g.tolerated < 0 || g.tolerated >= g.drives || g.failure_rate < 0 || g.repair_rate < 0)
    throw std::invalid_argument("redundancy group: expected 0 <= tolerated < drives and rates >= 0");
}

// The rates out of state i (drives failed), per year, which keeps them near 1 whatever the drives.
struct StateRates {
  double fail = 0;   // to i + 1
  double repair = 0; // to i - 1
};
StateRates state_rates(const RedundancyGroup& g, int i) {
  const double mu = g.repair_rate * kYear;
  return {(g.drives - i) * g.failure_rate * kYear,
          i == 0 ? 0.0 : (g.repair == RepairPolicy::parallel ? i * mu : mu)};
}

// The chain's generator on 0..f failed drives and, last, the absorbing state "data lost".
Eigen::MatrixXd generator(const RedundancyGroup& g) {
  check(g);
  const int f = g.tolerated;
  Eigen::MatrixXd q = Eigen::MatrixXd::Zero(f + 2, f + 2);
  for (int i = 0; i <= f; ++i) {
    const StateRates r = state_rates(g, i);
    q(i, i + 1) = r.fail;
    if (i > 0)
      q(i, i - 1) = r.repair;
    q(i, i) = -(r.fail + r.repair);
  }
  return q;
}

} // namespace

double mttdl_s(const RedundancyGroup& g) {
  check(g);
  if (g.failure_rate <= 0)
    return INFINITY;
  // The chain moves one drive at a time, so the time to absorption is the sum of the first-passage times T_i from
  // i to i + 1 failed drives: T_0 = 1 / a_0 and T_i = (1 + b_i T_(i-1)) / a_i (a_i the failure rate out of state
  // i, b_i its repair rate). Every term is positive, so the sum keeps its digits however rare the loss. Solving
  // Q t = -1 instead loses them: t_0 - t_1 = 1 / a_0 is a difference of two numbers near the MTTDL, below a
  // double's resolution once a group survives three failures with rebuilds in a day (8+3 came out as 0 s).
  double total = 0, passage = 0;
  for (int i = 0; i <= g.tolerated; ++i) {
    const StateRates r = state_rates(g, i);
    passage = (1 + r.repair * passage) / r.fail;
    total += passage;
  }
  return total * kYear;
}

double loss_probability(const RedundancyGroup& g, double horizon_s) {
  check(g);
  if (g.failure_rate <= 0 || horizon_s <= 0)
    return 0;
  // The absorbing state's own entry of exp(Q t), not 1 less the survivors' sum: that difference is rounding below
  // about 1e-9, while the entry keeps its digits (checked against uniformization, whose terms are all positive, down
  // to 1e-87, and against the binomial tail without rebuilds: tests/models/analytics/test_durability.cpp). It needs
  // no settled chain, so it holds for groups never rebuilt and for horizons shorter than a rebuild.
  const Eigen::MatrixXd q = generator(g);
  const Eigen::MatrixXd p = (q * (horizon_s / kYear)).exp();
  return std::clamp(p(0, g.tolerated + 1), 0.0, 1.0);
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
