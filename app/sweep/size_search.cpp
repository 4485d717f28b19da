#include "app/sweep/size_search.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

namespace aisim::app {
namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::optional<double> value_of(const std::map<size_t, SizeRun>& done, size_t i, const std::string& metric) {
  const auto it = done.find(i);
  if (it == done.end())
    return std::nullopt;
  const auto m = it->second.metrics.find(metric);
  return m == it->second.metrics.end() ? std::nullopt : std::optional<double>(m->second);
}

// Whether `metric` moves one way only over the runs made (in the parameter's order), within float noise.
bool monotone(const std::map<size_t, SizeRun>& done, const std::string& metric) {
  std::vector<double> v;
  for (const auto& [i, r] : done)
    if (const auto m = value_of(done, i, metric))
      v.push_back(*m);
  if (v.size() < 3)
    return true;
  double scale = 0;
  for (const double x : v)
    scale = std::max(scale, std::fabs(x));
  const double slack = 1e-9 * scale + 1e-15;
  bool up = false, down = false;
  for (size_t k = 1; k < v.size(); ++k) {
    up = up || v[k] > v[k - 1] + slack;
    down = down || v[k] < v[k - 1] - slack;
  }
  return !(up && down);
}

} // namespace

std::optional<SizeTarget> parse_target(const std::string& text, std::string* error) {
  SizeTarget t;
  auto at = text.find(">=");
  t.at_least = at != std::string::npos;
  if (at == std::string::npos)
    at = text.find("<=");
  if (at == std::string::npos) {
    *error = "--target \"" + text + "\": expected METRIC>=VALUE or METRIC<=VALUE (e.g. gpu_utilization_fraction>=95%)";
    return std::nullopt;
  }
  t.metric = trim(text.substr(0, at));
  std::string v = trim(text.substr(at + 2));
  const bool percent = !v.empty() && v.back() == '%';
  if (percent)
    v = trim(v.substr(0, v.size() - 1));
  const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), t.value);
  if (t.metric.empty() || v.empty() || ec != std::errc() || end != v.data() + v.size() || !std::isfinite(t.value)) {
    *error = "--target \"" + text + "\": the value must be a plain number, or a percentage for a fraction (\"95%\")";
    return std::nullopt;
  }
  if (percent)
    t.value /= 100;
  return t;
}

namespace {

// The runs a search has made, by value index; run() makes only those not made yet.
class RunsMade {
public:
  RunsMade(const SizeTarget& target, const SizeBatch& run_batch) : target_(target), run_batch_(run_batch) {}

  void run(std::vector<size_t> idx) {
    idx.erase(std::remove_if(idx.begin(), idx.end(), [&](size_t i) { return done_.contains(i); }), idx.end());
    std::sort(idx.begin(), idx.end());
    idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
    if (idx.empty())
      return;
    for (auto& r : run_batch_(idx))
      done_[r.index] = std::move(r);
  }
  bool meets(size_t i) const {
    const auto m = value_of(done_, i, target_.metric);
    return m && target_.met_by(*m);
  }
  bool failed() const {
    return std::any_of(done_.begin(), done_.end(), [](const auto& d) { return d.second.metrics.empty(); });
  }
  const std::map<size_t, SizeRun>& done() const { return done_; }

private:
  const SizeTarget& target_;
  const SizeBatch& run_batch_;
  std::map<size_t, SizeRun> done_;
};

// Bisects between the ends, which disagree on the target, `batch` values a round; returns why every value must
// be run instead ("" when the target flipped once in every round), or stops at a failed run.
std::string bisect(RunsMade& runs, size_t values, size_t batch) {
  size_t lo = 0, hi = values - 1; // meets(lo) != meets(hi)
  while (hi - lo > 1) {
    const size_t k = std::min(std::max<size_t>(batch, 1), hi - lo - 1);
    std::vector<size_t> picks;
    for (size_t j = 1; j <= k; ++j)
      picks.push_back(lo + (hi - lo) * j / (k + 1));
    runs.run(picks);
    if (runs.failed())
      break;
    std::vector<size_t> pts{lo};
    pts.insert(pts.end(), picks.begin(), picks.end());
    pts.push_back(hi);
    pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
    int flips = 0;
    size_t nlo = lo, nhi = hi;
    for (size_t q = 1; q < pts.size(); ++q)
      if (runs.meets(pts[q - 1]) != runs.meets(pts[q])) {
        if (flips++ == 0) {
          nlo = pts[q - 1];
          nhi = pts[q];
        }
      }
    if (flips != 1)
      return "the target is met, missed and met again along the values run";
    lo = nlo;
    hi = nhi;
  }
  return "";
}

// A failed run ends the search without an answer: it may have been the answer.
void give_up(SizeAnswer& a, const RunsMade& runs) {
  for (const auto& [i, r] : runs.done())
    if (r.metrics.empty()) {
      a.message = "the run of value " + std::to_string(i + 1) + " failed; no answer can be given";
      a.runs.push_back(r);
    }
}

// The answer among the runs made: the largest, or the cheapest, value meeting the target; else the closest miss.
void choose(SizeAnswer& a, const RunsMade& runs, const SizeTarget& target, SizeGoal goal) {
  const auto& done = runs.done();
  for (const auto& [i, r] : done)
    a.runs.push_back(r);
  std::optional<size_t> best;
  for (const auto& [i, r] : done) {
    if (!runs.meets(i))
      continue;
    if (!best)
      best = i;
    else if (goal == SizeGoal::largest)
      best = std::max(*best, i);
    else if (value_of(done, i, "total_with_lost_gpu_usd").value_or(0) <
             value_of(done, *best, "total_with_lost_gpu_usd").value_or(0))
      best = i;
  }
  if (best) {
    a.found = true;
    a.index = *best;
    return;
  }
  // None meets: say how close the best run came (a.runs is in value order, as `done` is).
  a.index = nearest_miss(a.runs, target).value_or(0);
  a.message = "no value meets the target";
}

} // namespace

std::optional<size_t> nearest_miss(const std::vector<SizeRun>& runs, const SizeTarget& target) {
  const SizeRun* nearest = nullptr;
  for (const auto& r : runs) {
    const auto m = r.metrics.find(target.metric);
    if (m == r.metrics.end())
      continue;
    const double best = nearest ? nearest->metrics.at(target.metric) : m->second;
    if (!nearest || (target.at_least ? m->second > best : m->second < best))
      nearest = &r;
  }
  return nearest ? std::optional<size_t>(nearest->index) : std::nullopt;
}

SizeAnswer size_search(size_t values, const SizeTarget& target, SizeGoal goal, size_t batch, const SizeBatch& run_batch,
                       bool search_if_not_monotone) {
  SizeAnswer a;
  RunsMade runs(target, run_batch);
  a.method = "bisection";
  runs.run({0, values - 1});
  if (values > 2 && !runs.failed() && runs.meets(0) != runs.meets(values - 1)) {
    a.why_search = bisect(runs, values, batch);
  } else if (values > 2 && !runs.failed()) {
    // Both ends agree: monotone, every value between does too. One value between them tests that.
    runs.run({(values - 1) / 2});
  }
  if (runs.failed()) {
    give_up(a, runs);
    return a;
  }
  const auto& done = runs.done();
  if (a.why_search.empty() && !monotone(done, target.metric))
    a.why_search = target.metric + " rises and falls along the values run";
  if (a.why_search.empty() && goal == SizeGoal::cheapest && !monotone(done, "total_with_lost_gpu_usd"))
    a.why_search = "the cost with lost GPU time rises and falls along the values run";
  if (!a.why_search.empty() && !search_if_not_monotone) {
    for (const auto& [i, r] : done)
      a.runs.push_back(r);
    a.message = "bisection needs a monotone metric, and " + a.why_search;
    return a;
  }
  if (!a.why_search.empty()) {
    a.method = "search";
    std::vector<size_t> rest;
    for (size_t i = 0; i < values; ++i)
      rest.push_back(i);
    runs.run(rest);
    if (runs.failed()) { // the value that failed may have been the answer
      give_up(a, runs);
      return a;
    }
  }
  choose(a, runs, target, goal);
  return a;
}

namespace {

// The runs with the metric, by index, and what "near the best" means for them; empty when there is no change.
struct KneeFrame {
  std::vector<std::pair<size_t, double>> v;
  double best = 0, range = 0;
  bool best_high = true; // the best run lies above the worst in the values
  bool near(double m) const { return std::fabs(best - m) <= 0.1 * range; }
};

KneeFrame frame(const std::vector<SizeRun>& runs, const std::string& metric, bool higher_is_better) {
  KneeFrame f;
  for (const auto& r : runs)
    if (const auto it = r.metrics.find(metric); it != r.metrics.end())
      f.v.emplace_back(r.index, it->second);
  std::sort(f.v.begin(), f.v.end());
  if (f.v.size() < 3)
    return {};
  size_t best = 0, worst = 0;
  for (size_t k = 0; k < f.v.size(); ++k) {
    const bool better = higher_is_better ? f.v[k].second > f.v[best].second : f.v[k].second < f.v[best].second;
    const bool poorer = higher_is_better ? f.v[k].second < f.v[worst].second : f.v[k].second > f.v[worst].second;
    best = better ? k : best;
    worst = poorer ? k : worst;
  }
  f.best = f.v[best].second;
  f.range = std::fabs(f.v[best].second - f.v[worst].second);
  f.best_high = best > worst;
  // A knee is where more of the parameter stops helping; where more only hurts (a load), there is none.
  if (f.range <= 0 || !f.best_high)
    return {};
  return f;
}

// The value nearest the worst end among the runs that are near the best.
std::optional<size_t> first_near(const KneeFrame& f) {
  if (f.v.empty())
    return std::nullopt;
  if (f.best_high) {
    for (const auto& [i, m] : f.v)
      if (f.near(m))
        return i;
  } else {
    for (auto it = f.v.rbegin(); it != f.v.rend(); ++it)
      if (f.near(it->second))
        return it->first;
  }
  return std::nullopt;
}

} // namespace

std::optional<size_t> knee(const std::vector<SizeRun>& runs, const std::string& metric, bool higher_is_better) {
  return first_near(frame(runs, metric, higher_is_better));
}

std::optional<size_t> find_knee(std::vector<SizeRun>& runs, const std::string& metric, bool higher_is_better,
                                size_t batch, const SizeBatch& run_batch) {
  for (;;) {
    const KneeFrame f = frame(runs, metric, higher_is_better);
    const auto at = first_near(f);
    if (!at)
      return std::nullopt;
    // The run next to it on the worst side is not near: the knee lies between them.
    std::optional<size_t> far;
    for (const auto& [i, m] : f.v)
      if (!f.near(m) && (f.best_high ? i < *at : i > *at) && (!far || (f.best_high ? i > *far : i < *far)))
        far = i;
    if (!far)
      return at;
    const size_t lo = std::min(*far, *at), hi = std::max(*far, *at);
    if (hi - lo <= 1)
      return at;
    const size_t k = std::min(std::max<size_t>(batch, 1), hi - lo - 1);
    std::vector<size_t> picks;
    for (size_t j = 1; j <= k; ++j)
      picks.push_back(lo + (hi - lo) * j / (k + 1));
    bool failed = false;
    for (auto& r : run_batch(picks)) {
      failed = failed || !r.metrics.contains(metric);
      runs.push_back(std::move(r));
    }
    // A failed run has no metric, so the same values would be picked again, forever: the knee cannot be placed.
    if (failed)
      return std::nullopt;
  }
}

} // namespace aisim::app
