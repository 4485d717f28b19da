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
  if (p <= 0) {
    a.verdict = Verdict::nothing_threatens;
    return a;
  }
  // Each option's losses removed a year.
  const auto removed = [&](const ProtectionOption& o) {
    return o.removes_per_year < 0 ? rate : std::min(rate, o.removes_per_year);
  };
  const ProtectionOption* best = nullptr;
  for (const auto& o : in.options) {
    if (removed(o) <= 0)
      continue;
    const bool better = !best || (in.value_usd ? removed(o) * *in.value_usd - o.usd_per_year >
                                                     removed(*best) * *in.value_usd - best->usd_per_year
                                               : o.usd_per_year / removed(o) < best->usd_per_year / removed(*best));
    if (better)
      best = &o;
  }
  if (!best) {
    a.verdict = Verdict::no_option;
    return a;
  }
  a.best = *best;
  const double cost = best->usd_per_year;
  a.breakeven_value_usd = cost / removed(*best);
  if (!in.value_usd) {
    a.verdict = Verdict::value_unknown;
    return a;
  }
  // The yearly chance whose expected losses equal a full protection's cost.
  if (*in.value_usd > 0 && best->removes_per_year < 0)
    a.breakeven_probability = -std::expm1(-cost / *in.value_usd);
  a.verdict = removed(*best) * *in.value_usd > cost ? Verdict::protect : Verdict::enough;
  return a;
}

} // namespace aisim::models
