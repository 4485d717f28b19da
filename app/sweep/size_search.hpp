// `aisim size`'s search: over the values of one varied parameter (in order), the cheapest value whose run meets a
// target (utilization >= 95%, say), or the largest that still meets it (MLPerf Storage's "accelerators supported").
// Bisection where the metric is monotone in the parameter, and that is checked on every run made, not assumed:
// when the probed metrics (or costs) rise and fall, every value is run instead ("search"). Each round runs up to
// `batch` values at once, spread inside the bracket, so J workers cut the rounds by log2(J + 1).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

struct SizeTarget {
  std::string metric; // a headline metric column (app/sweep/sweep_table.hpp)
  bool at_least = true;
  double value = 0;
  bool met_by(double v) const { return at_least ? v >= value : v <= value; }
};

// Parses "METRIC>=VALUE" or "METRIC<=VALUE"; VALUE a number, or a percentage for a fraction ("95%").
std::optional<SizeTarget> parse_target(const std::string& text, std::string* error);

enum class SizeGoal { cheapest, largest };

struct SizeRun {
  size_t index = 0;                      // into the parameter's values
  std::map<std::string, double> metrics; // empty when the run failed
};

struct SizeAnswer {
  bool found = false;
  size_t index = 0;          // the answer's value index when found
  std::string method;        // "bisection" or "search"
  std::string why_search;    // what made bisection give way, when it did
  std::vector<SizeRun> runs; // every run made, by index
  std::string message;       // why there is no answer
};

// `run_batch(indices)` runs those values (at once) and returns each one's metrics, in the same order.
using SizeBatch = std::function<std::vector<SizeRun>(const std::vector<size_t>&)>;

// Costs come
// from the "total_with_lost_gpu_usd" metric (spend plus the GPU time lost to stalls and failures).
// With `search_if_not_monotone` false, a metric that rises and falls ends the search without an answer (the
// message says why) instead of running every value: `aisim validate`'s ranges run to thousands of values.
SizeAnswer size_search(size_t values, const SizeTarget& target, SizeGoal goal, size_t batch, const SizeBatch& run_batch,
                       bool search_if_not_monotone = true);

// The run that came closest to the target (the highest metric for an at-least target, the lowest for an at-most
// one; the first of equals), by its value index: what a search that found nothing reports as the best reached.
// Nullopt when no run reported the metric.
std::optional<size_t> nearest_miss(const std::vector<SizeRun>& runs, const SizeTarget& target);

// Where more of the parameter stops helping: the smallest value whose metric is within a tenth of the whole change
// seen (from the worst run to the best) of the best run's. Nullopt with fewer than 3 runs, no change, or a metric
// that gets worse as the parameter grows (a load has no knee).
std::optional<size_t> knee(const std::vector<SizeRun>& runs, const std::string& metric, bool higher_is_better);

// The knee exactly, for a metric monotone over the values (as after a bisection): bisects "within a tenth of the
// change of the best" between the runs already made, adding its runs to `runs`. Nullopt when one of its runs
// fails.
std::optional<size_t> find_knee(std::vector<SizeRun>& runs, const std::string& metric, bool higher_is_better,
                                size_t batch, const SizeBatch& run_batch);

} // namespace aisim::app
