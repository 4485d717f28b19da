#include "app/cli/size_command.hpp"

#include "app/cli/point_runs.hpp"
#include "app/executor/distributed.hpp"
#include "app/sweep/size_search.hpp"
#include "app/sweep/sweep_plan.hpp"
#include "app/sweep/sweep_table.hpp"
#include "sim/results/output_set.hpp"
#include "sim/results/results.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

namespace aisim::app {
namespace {

namespace fs = std::filesystem;
using models::Json;

constexpr double kMaxRuns = 100'000; // a search runs every value: past this, sample with `aisim sweep` first

// How far a value is past the target (positive: met), in the metric's terms.
std::string margin(const SizeTarget& t, double v) {
  const double m = t.at_least ? v - t.value : t.value - v;
  char buf[64];
  if (t.metric.ends_with("_fraction")) {
    std::snprintf(buf, sizeof buf, "%+.2f pt", 100 * m);
    return buf;
  }
  return (m >= 0 ? "+" : "-") + format_metric(t.metric, std::fabs(m));
}

std::string where(const SweepPlan& plan, size_t i) {
  std::string o;
  for (size_t k = 0; k < plan.axes.size(); ++k)
    o += (k ? ", " : "") + plan.axes[k].pointer + " = " + axis_label(plan.axes[k], plan.points[i].choice[k]) +
         (plan.axes[k].unit && !plan.axes[k].unit->empty() ? " " + *plan.axes[k].unit : "");
  return o;
}

// What a sizing asks, checked: the axes to search, the target and its metric, and what "best" means.
struct SizeRequest {
  std::vector<SweepAxis> axes;
  SizeTarget target;
  const SweepMetric* metric = nullptr;
  SizeGoal goal = SizeGoal::cheapest;
  size_t maximized = 0; // the axis --maximize names
};

// The command's flags checked against each other; nullopt (after saying why) when they ask for nothing sizable.
std::optional<SizeRequest> check_request(const SizeCommand& cmd) {
  auto parsed = parse_axes(cmd.vary);
  if (!parsed)
    return std::nullopt;
  SizeRequest q;
  q.axes = std::move(*parsed);
  std::string error;
  const auto target = parse_target(cmd.target, &error);
  if (!target) {
    std::cerr << "aisim: " << error << "\n";
    return std::nullopt;
  }
  q.target = *target;
  const auto& metrics = sweep_metrics(false);
  const auto metric =
      std::find_if(metrics.begin(), metrics.end(), [&](const auto& m) { return m.column == target->metric; });
  if (metric == metrics.end()) {
    std::string names;
    for (const auto& m : metrics)
      names += "\n  " + m.column + " (" + m.label + ")";
    std::cerr << "aisim: --target " << cmd.target << ": unknown metric \"" << target->metric
              << "\"; the metrics are:" << names << "\n";
    return std::nullopt;
  }
  q.metric = &*metric;
  if (!cmd.minimize.empty() && cmd.minimize != "cost") {
    std::cerr << "aisim: --minimize " << cmd.minimize << ": only cost can be minimized (expected --minimize cost)\n";
    return std::nullopt;
  }
  q.goal = cmd.maximize.empty() ? SizeGoal::cheapest : SizeGoal::largest;
  if (q.goal == SizeGoal::largest) {
    const auto it =
        std::find_if(q.axes.begin(), q.axes.end(), [&](const auto& a) { return a.pointer == cmd.maximize; });
    if (it == q.axes.end()) {
      std::cerr << "aisim: --maximize " << cmd.maximize << ": not one of the varied pointers (--vary it)\n";
      return std::nullopt;
    }
    q.maximized = static_cast<size_t>(it - q.axes.begin());
  }
  // Bisection walks one parameter's values in order: they must be increasing numbers.
  const bool one = q.axes.size() == 1;
  for (const auto& a : q.axes) {
    const bool increasing = a.unit && std::is_sorted(a.numbers.begin(), a.numbers.end()) &&
                            std::adjacent_find(a.numbers.begin(), a.numbers.end()) == a.numbers.end();
    if ((one || (q.goal == SizeGoal::largest && &a == &q.axes[q.maximized])) && !increasing) {
      std::cerr << "aisim: --vary " << a.spec
                << ": sizing walks the values in order, so they must be increasing numbers (a range such as 1..16:1 "
                   "or 400Gbps..1600Gbps:x2)\n";
      return std::nullopt;
    }
  }
  const double count = grid_size(q.axes);
  if (!one && count > kMaxRuns) {
    std::cerr << "aisim: --vary: " << models::format_count(count)
              << " combinations to search, more than 100,000; narrow the ranges (or sample them with aisim sweep)\n";
    return std::nullopt;
  }
  return q;
}

double cost_with_lost_gpu(const SizeRun& r) {
  return r.metrics.count("total_with_lost_gpu_usd") ? r.metrics.at("total_with_lost_gpu_usd") : 0.0;
}

// Several parameters: every combination, then the cheapest (or largest) that meets the target.
SizeAnswer search_every_combination(const SweepPlan& plan, const SizeRequest& q, const SizeBatch& run_batch) {
  SizeAnswer answer;
  std::vector<size_t> all(plan.points.size());
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = i;
  answer.method = "search";
  answer.why_search = "several parameters vary";
  answer.runs = run_batch(all);
  std::optional<size_t> best;
  for (size_t i = 0; i < answer.runs.size(); ++i) {
    const auto& m = answer.runs[i].metrics;
    if (!m.contains(q.target.metric) || !q.target.met_by(m.at(q.target.metric)))
      continue;
    const auto better = [&](size_t a, size_t b) {
      if (q.goal == SizeGoal::largest) {
        const double va = plan.axes[q.maximized].numbers[plan.points[a].choice[q.maximized]];
        const double vb = plan.axes[q.maximized].numbers[plan.points[b].choice[q.maximized]];
        if (va != vb)
          return va > vb;
      }
      return cost_with_lost_gpu(answer.runs[a]) < cost_with_lost_gpu(answer.runs[b]);
    };
    if (!best || better(i, *best))
      best = i;
  }
  answer.found = best.has_value();
  if (!best) {
    // The nearest miss is what the refusal reports as the best reached (not the first combination's value).
    best = nearest_miss(answer.runs, q.target);
    answer.message = "no combination meets the target";
  }
  answer.index = best.value_or(0);
  return answer;
}

// The metric of run `i` among those made, if it was made and reported it.
std::optional<double> value_of(const SizeAnswer& answer, size_t i, const std::string& column) {
  for (const auto& r : answer.runs)
    if (r.index == i && r.metrics.contains(column))
      return r.metrics.at(column);
  return std::nullopt;
}

// size.json: the question, the method, every run made with its values, metrics and whether it meets the target,
// the answer (one of those runs) and the knee.
Json size_json(const SizeCommand& cmd, const SweepPlan& plan, const SizeRequest& q, const SizeAnswer& answer,
               std::optional<size_t> knee_at) {
  Json doc{{"schema_version", 1},
           {"kind", "size"},
           {"scenario", cmd.scenario},
           {"sets", cmd.sets},
           {"target", {{"metric", q.target.metric}, {"at_least", q.target.at_least}, {"value", q.target.value}}},
           {"goal", q.goal == SizeGoal::largest ? "largest " + cmd.maximize : "cheapest"},
           {"method", answer.method},
           {"why_search", answer.why_search.empty() ? Json(nullptr) : Json(answer.why_search)},
           {"values", plan.points.size()},
           {"runs_made", answer.runs.size()}};
  Json runs = Json::array();
  for (const auto& r : answer.runs) {
    Json values = Json::object();
    for (size_t k = 0; k < plan.axes.size(); ++k)
      values[plan.axes[k].pointer] = plan.axes[k].values[plan.points[r.index].choice[k]];
    Json m = Json::object();
    for (const auto& [k, v] : r.metrics)
      m[k] = v;
    runs.push_back({{"folder", point_folder(r.index)},
                    {"values", values},
                    {"metrics", m},
                    {"meets", r.metrics.contains(q.target.metric) && q.target.met_by(r.metrics.at(q.target.metric))}});
  }
  doc["runs"] = std::move(runs);
  doc["answer"] = nullptr;
  for (const auto& r : doc["runs"])
    if (answer.found && r["folder"] == point_folder(answer.index))
      doc["answer"] = r;
  if (knee_at && answer.found)
    doc["knee"] = plan.axes[0].values[plan.points[*knee_at].choice[0]];
  return doc;
}

// The top three candidates meeting the target with their margins, and the nearest miss.
std::string candidates_text(const SweepPlan& plan, const SizeRequest& q, const SizeAnswer& answer) {
  const SizeTarget& target = q.target;
  std::vector<const SizeRun*> meeting, missing;
  for (const auto& r : answer.runs)
    if (r.metrics.contains(target.metric))
      (target.met_by(r.metrics.at(target.metric)) ? meeting : missing).push_back(&r);
  std::sort(meeting.begin(), meeting.end(), [&](const SizeRun* a, const SizeRun* b) {
    if (q.goal == SizeGoal::largest && a->index != b->index)
      return plan.points[a->index].choice[q.maximized] > plan.points[b->index].choice[q.maximized];
    return cost_with_lost_gpu(*a) < cost_with_lost_gpu(*b);
  });
  std::sort(missing.begin(), missing.end(), [&](const SizeRun* a, const SizeRun* b) {
    const double va = a->metrics.at(target.metric), vb = b->metrics.at(target.metric);
    return target.at_least ? va > vb : va < vb;
  });
  std::string o = "candidates:\n";
  for (size_t c = 0; c < meeting.size() && c < 3; ++c) {
    const auto* r = meeting[c];
    o += "  " + where(plan, r->index) + ": " + format_metric(target.metric, r->metrics.at(target.metric)) +
         " (margin " + margin(target, r->metrics.at(target.metric)) + "), cost with lost GPU time " +
         format_metric("total_with_lost_gpu_usd", cost_with_lost_gpu(*r)) + "\n";
  }
  if (!missing.empty()) {
    const auto* r = missing.front();
    o += "  " + where(plan, r->index) + ": " + format_metric(target.metric, r->metrics.at(target.metric)) +
         " (misses by " + margin(target, r->metrics.at(target.metric)).substr(1) + "), cost with lost GPU time " +
         format_metric("total_with_lost_gpu_usd", cost_with_lost_gpu(*r)) + "\n";
  }
  return o;
}

// What the terminal shows: the question, the answer with its margin and cost, the method, the knee, the candidates.
std::string size_text(const SizeCommand& cmd, const SweepPlan& plan, const SizeRequest& q, const SizeAnswer& answer,
                      std::optional<size_t> knee_at) {
  const SizeTarget& target = q.target;
  const std::string goal_text = q.goal == SizeGoal::largest ? "the largest " + cmd.maximize : "the cheapest design";
  std::string o = "size of " + cmd.scenario + ": " + goal_text + " meeting " + target.metric +
                  (target.at_least ? " >= " : " <= ") + format_metric(target.metric, target.value) + "\n";
  if (answer.found) {
    const double v = *value_of(answer, answer.index, target.metric);
    const auto cost = value_of(answer, answer.index, "total_with_lost_gpu_usd");
    o += "answer: " + where(plan, answer.index) + ": " + format_metric(target.metric, v) + " (margin " +
         margin(target, v) + ")" +
         (cost ? ", cost with lost GPU time " + format_metric("total_with_lost_gpu_usd", *cost) : "") + "\n";
  }
  std::string method = answer.method + ", " + std::to_string(answer.runs.size()) + " runs of " +
                       std::to_string(plan.points.size()) + " values";
  method += answer.method == "bisection"
                ? " (" + target.metric + (q.goal == SizeGoal::cheapest ? " and cost with lost GPU time" : "") +
                      " moved one way over every run made)"
                : " (" + answer.why_search + ")";
  o += "method: " + method + "\n";
  if (knee_at && answer.found)
    o += "knee: " + where(plan, *knee_at) + ": beyond it " + q.metric->label +
         " improves by less than a tenth of the change seen over the runs\n";
  return o + candidates_text(plan, q, answer);
}

} // namespace

int size_command(const SizeCommand& cmd) {
  const auto q = check_request(cmd);
  if (!q)
    return 2;
  auto checked = load_and_plan(cmd.scenario, cmd.sets, q->axes, SampleSpec{});
  if (!checked)
    return 2;
  const SweepPlan& plan = checked->plan;
  const fs::path out = cmd.out_dir.empty() ? fs::path("results") / (fs::path(cmd.scenario).stem().string() + "-size")
                                           : fs::path(cmd.out_dir);
  // Held until the search ends, so that a second sizing, sweep or run into the folder is refused (an OutputError
  // reaches main, which reports it: exit 1).
  const bool existed = fs::exists(out);
  const sim::FolderLock lock(out);
  std::error_code ec;
  fs::remove_all(out / "points", ec); // no run of another sizing may pass for this one's
  fs::create_directories(out / "points", ec);
  if (ec) {
    std::cerr << "aisim: cannot create output folder " << out.string() << ": " << ec.message() << "\n";
    return 2;
  }

  // Each batch of values the search asks for runs at once, each value in its own point folder.
  const std::string exe = self_executable(cmd.self);
  const int jobs = cmd.jobs > 0 ? cmd.jobs : default_runs_at_once();
  const SizeBatch run_batch = [&](const std::vector<size_t>& indices) {
    std::vector<ChildSpec> specs;
    for (const size_t i : indices) {
      std::vector<std::string> sets = cmd.sets;
      for (size_t k = 0; k < plan.axes.size(); ++k)
        sets.push_back(assignment(plan.axes[k], plan.points[i].choice[k]));
      const fs::path dir = out / point_folder(i);
      fs::create_directories(dir, ec);
      specs.push_back(point_run(exe, cmd.scenario, sets, cmd.seed, dir));
    }
    std::vector<SizeRun> runs(indices.size());
    const auto pool = run_many(specs, jobs, [&](size_t s, const ChildResult& c) {
      runs[s].index = indices[s];
      if (c.ok())
        runs[s].metrics = headline_metrics(sim::read_results(specs[s].out_dir));
      if (runs[s].metrics.empty())
        std::cerr << "aisim: the run at " << where(plan, indices[s]) << " failed (" << c.describe()
                  << "): " << log_error(fs::path(specs[s].out_dir) / "run.log") << "\n";
    });
    for (size_t s = 0; s < runs.size(); ++s)
      runs[s].index = indices[s];
    if (pool.interrupted)
      throw std::runtime_error("interrupted");
    return runs;
  };

  const bool one = plan.axes.size() == 1;
  const auto batch = static_cast<size_t>(std::max(1, jobs));
  SizeAnswer answer = one ? size_search(plan.points.size(), q->target, q->goal, batch, run_batch)
                          : search_every_combination(plan, *q, run_batch);
  // Where more stops helping. After a bisection the metric is monotone, so the knee is bisected too (its runs count
  // with the others); a search has run every value.
  std::optional<size_t> knee_at;
  if (one) {
    const bool higher = q->metric->better != Better::lower;
    knee_at = answer.method == "bisection" && answer.found
                  ? find_knee(answer.runs, q->target.metric, higher, batch, run_batch)
                  : knee(answer.runs, q->target.metric, higher);
    std::sort(answer.runs.begin(), answer.runs.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  }
  const std::string o = size_text(cmd, plan, *q, answer, knee_at);
  const bool failed_run = !answer.found && std::any_of(answer.runs.begin(), answer.runs.end(),
                                                       [](const SizeRun& r) { return r.metrics.empty(); });
  if (!answer.found && !failed_run) {
    // No value meets the target: an answer to the question as asked, given with exit 2, and like every exit 2 it
    // leaves nothing behind (the runs' folders go; a folder this sizing created goes with them).
    fs::remove_all(out / "points", ec);
    fs::remove(out / "size.json", ec);
    if (!existed)
      fs::remove(out, ec); // only if empty: never what was there before
    std::fputs(o.c_str(), stdout);
    if (const auto v = value_of(answer, answer.index, q->target.metric))
      std::cerr << "aisim: --target " << cmd.target << ": no value in the range meets it; the best reached is "
                << format_metric(q->target.metric, *v) << " at " << where(plan, answer.index)
                << "; nothing was written\n";
    else
      std::cerr << "aisim: --target " << cmd.target << ": no value in the range meets it; nothing was written\n";
    return 2;
  }
  sim::write_file_atomically((out / "size.json").string(), size_json(cmd, plan, *q, answer, knee_at).dump(2) + "\n");
  std::fputs((o + "size.json: " + (out / "size.json").string() + "\n").c_str(), stdout);
  if (answer.found)
    return 0;
  std::cerr << "aisim: " << answer.message << "\n"; // a run failed (no answer without one returned 2 above)
  return 1;
}

} // namespace aisim::app
