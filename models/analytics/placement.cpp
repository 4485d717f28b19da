#include "models/analytics/placement.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::models {

const char* verdict_name(Verdict v) {
  switch (v) {
  case Verdict::nothing_threatens:
    return "nothing_threatens";
  case Verdict::protect:
    return "protect";
  case Verdict::enough:
    return "enough";
  case Verdict::value_unknown:
    return "value_unknown";
  case Verdict::no_option:
    return "no_option";
  }
  return "";
}

PlacementAdvice advise(const PlacementInput& in) {
  PlacementAdvice a;
  const double p = in.annual_loss_probability;
  // Losses come as a Poisson process: a 97 % yearly chance is 3.5 losses a year, each costing the value.
  const double rate = -std::log1p(-std::min(p, 1.0 - 1e-12));
  if (in.value_usd)
    a.expected_loss_usd_per_year = rate * *in.value_usd;
  if (!in.options.empty())
    a.cheapest = *std::min_element(in.options.begin(), in.options.end(),
                                   [](const auto& x, const auto& y) { return x.usd_per_year < y.usd_per_year; });
  if (p <= 0) {
    a.verdict = Verdict::nothing_threatens;
    return a;
  }
  if (!a.cheapest) {
    a.verdict = Verdict::no_option;
    return a;
  }
  const double cost = a.cheapest->usd_per_year;
  a.breakeven_value_usd = cost / rate;
  if (!in.value_usd) {
    a.verdict = Verdict::value_unknown;
    return a;
  }
  // The yearly chance whose expected losses equal the protection's cost.
  if (*in.value_usd > 0)
    a.breakeven_probability = -std::expm1(-cost / *in.value_usd);
  a.verdict = *a.expected_loss_usd_per_year > cost ? Verdict::protect : Verdict::enough;
  return a;
}

} // namespace aisim::models
