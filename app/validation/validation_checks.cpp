#include "app/validation/validation_checks.hpp"

#include "app/executor/distributed.hpp"
#include "app/sweep/grid_optimum.hpp"
#include "app/sweep/size_search.hpp"
#include "sim/results/results.hpp"

#include "models/analytics/stats.hpp"
#include "models/common/units.hpp"

#include <algorithm>
#include <cmath>

namespace aisim::app {

namespace fs = std::filesystem;
using models::Json;

std::string format_value(double v) { return models::format_number("%.6g", v); }

namespace {

// Runs `aisim run` on the case in a child process (one SimGrid engine per process), with `extra` overrides after
// the case's own.
ChildSpec case_run(const std::string& exe, const Case& c, const fs::path& out_dir,
                   const std::vector<std::string>& extra) {
  ChildSpec spec{{exe, "run", c.scenario.string(), "--out", out_dir.string(), "--progress", "none"},
                 (out_dir / "run.log").string(),
                 out_dir.string()};
  for (const auto* sets : {&c.sets, &extra})
    for (const auto& s : *sets) {
      spec.argv.push_back("--set");
      spec.argv.push_back(s);
    }
  return spec;
}

int run_case(const std::string& exe, const Case& c, const fs::path& out_dir, const std::vector<std::string>& extra) {
  const auto outcome = run_many({case_run(exe, c, out_dir, extra)}, 1);
  const auto& r = outcome.children.front();
  return r.finished && r.signal == 0 ? r.exit_code : -1;
}

// The value a plain check compares: the metric, divided by `per` when given. Throws when either is missing.
double check_value(const Json& results, const Check& k) {
  const double v = results.at(Json::json_pointer(k.metric)).get<double>();
  if (k.per.empty())
    return v;
  return v / results.at(Json::json_pointer(k.per)).get<double>();
}

Outcome compare(const Check& k, double v) {
  Outcome o;
  const double e = k.expected == 0 ? std::fabs(v) : std::fabs(v - k.expected) / std::fabs(k.expected);
  o.got = format_value(v);
  // Two decimals in percent: errors below 0.005% print as +0.00% rather than as floating-point noise.
  o.err = models::format_number("%+.2f%%", 100.0 * (k.expected == 0 ? v : (v - k.expected) / std::fabs(k.expected)));
  o.pass = e <= k.tolerance;
  o.verdict = o.pass ? "pass" : "FAIL";
  return o;
}

// A text check: the metric says exactly what is expected.
Outcome compare_text(const Check& k, const Json& v) {
  Outcome o;
  o.got = v.is_string() ? v.get<std::string>() : v.dump();
  o.pass = v.is_string() && v.get<std::string>() == k.expected_text;
  o.verdict = o.pass ? "pass" : "FAIL";
  return o;
}

// Runs a search check through `aisim size`'s search (app/sweep/size_search.hpp): the largest knob value keeping
// the metric at its threshold, by bisection in rounds of as many runs as the machine has cores, each run a child
// with the knob's overrides. A metric that rises and falls over the runs fails the check rather than running every
// value of a range that goes to thousands.
Outcome run_search(const std::string& exe, const Case& c, const Check& k, const fs::path& out) {
  const Search& s = *k.search;
  const auto values = static_cast<size_t>((s.spec.max - s.spec.min) / s.spec.step + 1);
  const auto knob = [&](size_t i) { return s.spec.min + static_cast<int64_t>(i) * s.spec.step; };
  std::string failed_run;
  const auto run_batch = [&](const std::vector<size_t>& indices) {
    std::vector<ChildSpec> specs;
    for (const size_t i : indices) {
      std::vector<std::string> extra = s.sets;
      for (const auto& v : s.vary)
        extra.push_back(v.pointer + "=" + std::to_string(knob(i) * v.times));
      const fs::path dir = out / ("n" + std::to_string(knob(i)));
      fs::create_directories(dir);
      specs.push_back(case_run(exe, c, dir, extra));
    }
    const auto pool = run_many(specs, default_runs_at_once());
    std::vector<SizeRun> runs(indices.size());
    for (size_t j = 0; j < indices.size(); ++j) {
      runs[j].index = indices[j];
      const fs::path dir = specs[j].out_dir;
      if (!pool.children[j].ok()) {
        failed_run = "run exited with " + pool.children[j].describe() + ", see " + (dir / "run.log").string();
        continue;
      }
      try {
        const Json results = sim::read_results(dir.string());
        const double v = results.at(Json::json_pointer(s.metric)).get<double>();
        if (!std::isfinite(v))
          throw std::runtime_error("not a finite number");
        runs[j].metrics[s.metric] = v;
        if (results.contains("/cost/total_usd"_json_pointer))
          runs[j].metrics["total_usd"] = results["cost"]["total_usd"].get<double>();
        fs::remove_all(dir);
      } catch (const std::exception&) {
        failed_run = "no finite metric " + s.metric + " in " + (dir / "results.json").string();
      }
    }
    return runs;
  };
  const SizeAnswer a = size_search(values, SizeTarget{s.metric, !s.spec.at_most, s.spec.at_least},
                                   s.spec.cheapest ? SizeGoal::cheapest : SizeGoal::largest,
                                   static_cast<size_t>(default_runs_at_once()), run_batch, false);
  Outcome o;
  o.detail = "    probes (" + std::to_string(a.runs.size()) + "):";
  std::optional<double> at_min, at_max;
  for (const auto& r : a.runs) {
    const auto m = r.metrics.find(s.metric);
    o.detail +=
        " " + std::to_string(knob(r.index)) + "=" + (m != r.metrics.end() ? format_value(m->second) : std::string("?"));
    if (m != r.metrics.end() && r.index == 0)
      at_min = m->second;
    if (m != r.metrics.end() && r.index + 1 == values)
      at_max = m->second;
  }
  // The answer must lie inside the range: at its end the range may have cut it short.
  const bool at_edge = a.found && (s.spec.cheapest ? a.index == 0 : a.index + 1 == values);
  if (a.found && !at_edge) {
    Outcome found = compare(k, static_cast<double>(knob(a.index)));
    found.detail = std::move(o.detail);
    return found;
  }
  std::string why;
  const std::string side = s.spec.at_most ? "at or below " : "at or above ";
  if (a.found && s.spec.cheapest)
    why = "even " + std::to_string(s.spec.min) + " gives " + format_value(at_min.value_or(0)) + ", " + side +
          format_value(s.spec.at_least) + ": lower min";
  else if (a.found)
    why = "even " + std::to_string(s.spec.max) + " gives " + format_value(at_max.value_or(0)) + ", " + side +
          format_value(s.spec.at_least) + ": raise max";
  else if (!failed_run.empty()) // run_batch notes every run that gave no metric
    why = a.message + ": " + failed_run;
  else if (!a.why_search.empty())
    why = a.message;
  else
    why = "no value from " + std::to_string(s.spec.min) + " to " + std::to_string(s.spec.max) + " gives " +
          (s.spec.at_most ? "at most " : "at least ") + format_value(s.spec.at_least) + " (" +
          std::to_string(s.spec.min) + " gives " + format_value(at_min.value_or(0)) + ", " +
          std::to_string(s.spec.max) + " gives " + format_value(at_max.value_or(0)) + ")";
  o.verdict = "FAIL (" + why + ")";
  return o;
}

// Runs an optimum check: every value x every replica, at once on the machine's cores, then the fitted peak.
Outcome run_optimum(const std::string& exe, const Case& c, const Check& k, const fs::path& out) {
  const Optimum& opt = *k.optimum;
  const auto run_dir = [&](size_t v, int seed) {
    return out / ("v" + std::to_string(v)) / ("seed" + std::to_string(seed));
  };
  std::vector<ChildSpec> specs;
  for (size_t v = 0; v < opt.values.size(); ++v)
    for (int seed = 1; seed <= opt.replicas; ++seed) {
      fs::create_directories(run_dir(v, seed));
      std::vector<std::string> extra = opt.sets;
      extra.push_back(opt.vary + "=" + format_value(opt.values[v]) + opt.suffix);
      ChildSpec spec = case_run(exe, c, run_dir(v, seed), extra);
      spec.argv.insert(spec.argv.end(), {"--seed", std::to_string(seed)});
      specs.push_back(std::move(spec));
    }
  const auto pool = run_many(specs, default_runs_at_once());
  Outcome o;
  std::vector<double> means;
  o.detail = "    " + std::to_string(opt.values.size()) + " values x " + std::to_string(opt.replicas) +
             " replicas (mean, +- its 95% half-width):";
  for (size_t v = 0; v < opt.values.size(); ++v) {
    std::vector<double> samples;
    for (int seed = 1; seed <= opt.replicas; ++seed) {
      const auto& child = pool.children[v * static_cast<size_t>(opt.replicas) + static_cast<size_t>(seed - 1)];
      const fs::path dir = run_dir(v, seed);
      if (!child.ok()) {
        o.verdict = "FAIL (run " + child.describe() + ", see " + (dir / "run.log").string() + ")";
        return o;
      }
      const Json results = sim::read_results(dir.string());
      try {
        samples.push_back(results.at(Json::json_pointer(opt.metric)).get<double>());
      } catch (const std::exception&) {
        o.verdict = "FAIL (no metric " + opt.metric + " in " + (dir / "results.json").string() + ")";
        return o;
      }
    }
    const auto m = models::mean_interval(samples);
    means.push_back(m.mean);
    o.detail += " " + format_value(opt.values[v]) + opt.suffix + "=" + format_value(m.mean) +
                (opt.replicas > 1 ? "+-" + format_value(m.half_width) : std::string());
  }
  const GridOptimum g = find_grid_optimum(opt.values, means, opt.log_scale, opt.maximize);
  if (g.outcome != OptimumOutcome::found) {
    o.verdict = "FAIL (" + g.message + ")";
    return o;
  }
  Outcome found = compare(k, g.value);
  found.detail = o.detail + (opt.maximize ? "\n    peak" : "\n    minimum") + " fitted through the " +
                 std::to_string(g.fitted) + " values around " + format_value(opt.values[g.best]) + opt.suffix +
                 (opt.log_scale ? " (log scale)" : "");
  fs::remove_all(out);
  return found;
}

} // namespace

RunResult run_and_read(const std::string& exe, const Case& c, const fs::path& out,
                       const std::vector<std::string>& extra) {
  fs::create_directories(out);
  RunResult r;
  r.out = out;
  r.rc = run_case(exe, c, out, extra);
  if (r.rc == 0)
    r.results = sim::read_results(out.string());
  return r;
}

std::string metric_label(const Check& k) {
  std::string label;
  if (k.search)
    label = (k.search->spec.cheapest ? "cheapest " : "max ") + (k.unit.empty() ? std::string("n") : k.unit) + ": " +
            k.search->metric + (k.search->spec.at_most ? "<=" : ">=") + format_value(k.search->spec.at_least);
  else if (k.optimum)
    label = std::string(k.optimum->maximize ? "argmax " : "argmin ") + k.optimum->metric +
            (k.unit.empty() ? "" : " [" + k.unit + "]");
  else
    label = k.metric + (k.per.empty() ? "" : " / " + k.per) + (k.unit.empty() ? "" : " [" + k.unit + "]");
  return label;
}

Outcome run_check(const std::string& exe, const Case& c, size_t i, const RunResult& base, const fs::path& out) {
  const Check& k = c.checks[i];
  Outcome o;
  if (k.search)
    return run_search(exe, c, k, out / ("search" + std::to_string(i)));
  if (k.optimum)
    return run_optimum(exe, c, k, out / ("optimum" + std::to_string(i)));
  if (base.rc != 0) {
    o.verdict = "FAIL (" + base.failure() + ")";
    return o;
  }
  try {
    return k.expected_text.empty() ? compare(k, check_value(base.results, k))
                                   : compare_text(k, base.results.at(Json::json_pointer(k.metric)));
  } catch (const std::exception&) {
    o.verdict = "FAIL (no metric " + k.metric + (k.per.empty() ? "" : " or " + k.per) + " in results.json)";
  }
  return o;
}

} // namespace aisim::app
