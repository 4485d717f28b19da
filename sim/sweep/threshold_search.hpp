// The largest value of an integer knob (accelerators, clients) whose run keeps a metric at or above a threshold,
// found by bisection. `aisim validate` uses it for its "search" checks: MLPerf Storage reports the largest
// accelerator count that keeps accelerator utilization at the workload's threshold, and a case predicts that count.
//
// Bisection assumes the metric does not rise as the knob grows (utilization falls as accelerators are added once
// storage is the bottleneck, and stays at 1 before). Every probe is kept; if the probed values rise anywhere, the
// assumption is broken and the search reports it instead of an answer. Points between probes are not looked at.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace aisim::sim {

struct SearchSpec {
  int64_t min = 1;  // smallest knob value tried
  int64_t max = 1;  // largest; (max - min) must be a multiple of step
  int64_t step = 1; // the knob moves in these increments from min
  double at_least = 0;
  // How far (relative) a probe may exceed a probe at a smaller knob value before the metric counts as rising.
  double rise_slack = 1e-9;
};

struct SearchProbe {
  int64_t value = 0;
  std::optional<double> metric; // absent when the run behind this probe failed
};

enum class SearchOutcome {
  found,         // `value` passes and `value + step` fails
  below_min,     // even `min` misses the threshold
  above_max,     // even `max` keeps it: the range is too small to predict anything
  probe_failed,  // a run gave no metric
  not_monotonic, // the metric rose with the knob somewhere among the probes
};

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::probe_failed;
  int64_t value = 0;               // the answer when found; the offending knob value otherwise (above_max: max)
  std::vector<SearchProbe> probes; // in the order they were run
  std::string message;             // why there is no answer; empty when found
};

// Problems with the spec itself (min > max, a step that does not divide the range), one message each.
std::vector<std::string> check_search_spec(const SearchSpec& spec);

// Runs `metric` at knob values chosen by bisection over min, min + step, ..., max. `metric` returns nullopt when
// the run behind it failed. Needs about log2((max - min) / step) + 2 calls. The spec must pass check_search_spec.
SearchResult search_largest_passing(const SearchSpec& spec,
                                    const std::function<std::optional<double>(int64_t)>& metric);

} // namespace aisim::sim
