// Fuzz target: `aisim size`'s search and its --target flag. An input that starts with "T" is a --target text;
// any other is a search: its first bytes choose the goal (cheapest or largest), the target's direction, the batch,
// the count of values, whether the metric is monotone over them, the cost's direction and which runs fail; the
// remaining bytes give the metric's values and the target's threshold. The runs are made up from those bytes, so
// the search is checked against the answer found by running every value.
// Properties: no crash or hang; a --target refused says why, one accepted has a metric and a finite value; the
// search runs only values that exist and none twice; a failed run ends it without an answer and says so; an
// answer meets the target; where the metric and the cost are monotone over every value (what bisection assumes),
// or where the search ran every value, the answer is the best one; no answer says why; a knee, when found, is a
// value that was run.
#include "tests/fuzz/fuzz_input.hpp"

#include "app/sweep/size_search.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace {

using aisim::app::SizeRun;

// The byte at `k`, 0 past the end.
uint8_t at(const uint8_t* data, size_t size, size_t k) { return k < size ? data[k] : 0; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace aisim::app;
  if (size == 0)
    return 0;
  if (data[0] == 'T') {
    std::string error;
    const auto t = parse_target(std::string(reinterpret_cast<const char*>(data) + 1, size - 1), &error);
    if (!t)
      aisim::fuzz::require(!error.empty(), "a --target refused without a reason");
    else
      aisim::fuzz::require(!t->metric.empty() && std::isfinite(t->value), "a --target without a metric or value");
    return 0;
  }
  const uint8_t mode = data[0];
  const SizeGoal goal = mode & 1 ? SizeGoal::largest : SizeGoal::cheapest;
  const bool at_least = mode & 2, monotone = mode & 4, cost_up = mode & 8, search_all = mode & 16, failures = mode & 32,
             falling = mode & 64;
  const size_t batch = 1 + at(data, size, 1) % 8;
  const size_t n = 1 + at(data, size, 2) % 200;
  const double threshold = at(data, size, 3);
  std::vector<double> metric(n), cost(n);
  double sum = 0;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t b = at(data, size, 4 + i);
    sum += b % 16;
    // Monotone: a running sum of small steps (flat stretches included), rising or falling.
    metric[i] = monotone ? (falling ? 8 * 255 - sum : sum) : b;
    cost[i] = monotone || !(b & 1) ? 1000.0 + (cost_up ? i : n - i) : 1000.0 + at(data, size, 4 + n + i);
  }
  std::set<size_t> failing;
  if (failures)
    failing.insert(at(data, size, 4 + 2 * n) % n);
  const SizeTarget target{"gpu_utilization_fraction", at_least, threshold};
  std::set<size_t> ran;
  const auto run_batch = [&](const std::vector<size_t>& idx) {
    std::vector<SizeRun> out;
    for (const size_t i : idx) {
      aisim::fuzz::require(i < n, "the search ran a value that does not exist");
      aisim::fuzz::require(ran.insert(i).second, "the search ran a value twice");
      SizeRun r{i, {}};
      if (!failing.contains(i))
        r.metrics = {{"gpu_utilization_fraction", metric[i]}, {"total_with_lost_gpu_usd", cost[i]}};
      out.push_back(r);
    }
    return out;
  };
  const SizeAnswer a = size_search(n, target, goal, batch, run_batch, search_all);
  const bool any_failed = std::any_of(ran.begin(), ran.end(), [&](size_t i) { return failing.contains(i); });
  if (any_failed) {
    aisim::fuzz::require(!a.found && !a.message.empty(), "a failed run gave an answer, or none without a reason");
    return 0;
  }
  // The best answer, from every value.
  std::optional<size_t> best;
  for (size_t i = 0; i < n; ++i)
    if (target.met_by(metric[i]) && (!best || (goal == SizeGoal::largest ? i > *best : cost[i] < cost[*best])))
      best = i;
  if (a.found) {
    aisim::fuzz::require(ran.contains(a.index) && target.met_by(metric[a.index]), "an answer that misses the target");
    if (monotone || a.method == "search")
      aisim::fuzz::require(best && (goal == SizeGoal::largest ? a.index == *best : cost[a.index] == cost[*best]),
                           "the search missed the best value");
  } else {
    aisim::fuzz::require(!a.message.empty(), "no answer, and no reason");
    if (monotone || a.method == "search")
      aisim::fuzz::require(!best, "the search missed a value that meets the target");
  }
  // The knee, between the runs made.
  std::vector<SizeRun> runs = a.runs;
  const auto k = find_knee(runs, "gpu_utilization_fraction", at_least, batch, run_batch);
  if (k)
    aisim::fuzz::require(ran.contains(*k), "a knee at a value never run");
  return 0;
}
