#include "sim/sweep/threshold_search.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace aisim::sim {

namespace {

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// The first pair of probes, in knob order, where the metric rises by more than the slack; nullopt when none does.
std::optional<std::pair<SearchProbe, SearchProbe>> first_rise(std::vector<SearchProbe> probes, double slack) {
  std::sort(probes.begin(), probes.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  for (size_t i = 1; i < probes.size(); ++i) {
    const double a = *probes[i - 1].metric, b = *probes[i].metric;
    if (b > a + slack * std::max(std::fabs(a), std::fabs(b)))
      return std::pair{probes[i - 1], probes[i]};
  }
  return std::nullopt;
}

} // namespace

std::vector<std::string> check_search_spec(const SearchSpec& spec) {
  std::vector<std::string> out;
  if (spec.step < 1)
    out.push_back("step must be at least 1 (got " + std::to_string(spec.step) + ")");
  if (spec.min > spec.max)
    out.push_back("min (" + std::to_string(spec.min) + ") is above max (" + std::to_string(spec.max) + ")");
  else if (spec.step >= 1 && (spec.max - spec.min) % spec.step != 0)
    out.push_back("max - min (" + std::to_string(spec.max - spec.min) + ") is not a multiple of step (" +
                  std::to_string(spec.step) + ")");
  if (!std::isfinite(spec.at_least))
    out.push_back("at_least must be a finite number");
  return out;
}

SearchResult search_largest_passing(const SearchSpec& spec,
                                    const std::function<std::optional<double>(int64_t)>& metric) {
  SearchResult r;
  // Index k stands for the knob value min + k x step.
  auto knob = [&](int64_t k) { return spec.min + k * spec.step; };
  // Runs one probe; nullopt when it failed (and `r` says so), else whether it passes.
  auto probe = [&](int64_t k) -> std::optional<bool> {
    const int64_t v = knob(k);
    std::optional<double> m = metric(v);
    if (m && !std::isfinite(*m)) {
      r.probes.push_back({v, std::nullopt});
      r.outcome = SearchOutcome::probe_failed;
      r.value = v;
      r.message = "the metric at " + std::to_string(v) + " is not a finite number";
      return std::nullopt;
    }
    r.probes.push_back({v, m});
    if (!m) {
      r.outcome = SearchOutcome::probe_failed;
      r.value = v;
      r.message = "the run at " + std::to_string(v) + " gave no metric";
      return std::nullopt;
    }
    return *m >= spec.at_least;
  };
  auto rising = [&]() {
    if (auto rise = first_rise(r.probes, spec.rise_slack)) {
      r.outcome = SearchOutcome::not_monotonic;
      r.value = rise->second.value;
      r.message = "the metric rises from " + fmt(*rise->first.metric) + " at " + std::to_string(rise->first.value) +
                  " to " + fmt(*rise->second.metric) + " at " + std::to_string(rise->second.value) +
                  "; bisection needs it not to rise as the value grows";
      return true;
    }
    return false;
  };

  const int64_t last = (spec.max - spec.min) / spec.step;
  const auto at_min = probe(0);
  if (!at_min)
    return r;
  if (!*at_min) {
    r.outcome = SearchOutcome::below_min;
    r.value = spec.min;
    r.message =
        "even " + std::to_string(spec.min) + " gives " + fmt(*r.probes.back().metric) + ", below " + fmt(spec.at_least);
    return r;
  }
  if (last == 0) {
    r.outcome = SearchOutcome::above_max;
    r.value = spec.max;
    r.message = "min = max = " + std::to_string(spec.max) + " passes: nothing above it was tried";
    return r;
  }
  const auto at_max = probe(last);
  if (!at_max)
    return r;
  if (rising())
    return r;
  if (*at_max) {
    r.outcome = SearchOutcome::above_max;
    r.value = spec.max;
    r.message = "even " + std::to_string(spec.max) + " gives " + fmt(*r.probes.back().metric) + ", at or above " +
                fmt(spec.at_least) + ": raise max";
    return r;
  }
  // Invariant: index lo passes, index hi fails.
  int64_t lo = 0, hi = last;
  while (hi - lo > 1) {
    const int64_t mid = lo + (hi - lo) / 2;
    const auto pass = probe(mid);
    if (!pass)
      return r;
    (*pass ? lo : hi) = mid;
  }
  if (rising())
    return r;
  r.outcome = SearchOutcome::found;
  r.value = knob(lo);
  r.message.clear();
  return r;
}

} // namespace aisim::sim
