#include "app/cli/validate_command.hpp"

#include "app/executor/distributed.hpp"

#include "app/sweep/grid_optimum.hpp"
#include "app/sweep/size_search.hpp"
#include "sim/results/results.hpp"

#include "models/analytics/stats.hpp"

#include "models/common/diagnostics.hpp"
#include "models/common/json_reader.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace aisim::app {

namespace fs = std::filesystem;
using models::Json;

namespace {

// The knob a search walks: min, min + step, ..., max.
struct SearchSpec {
  int64_t min = 1;
  int64_t max = 1; // (max - min) must be a multiple of step
  int64_t step = 1;
  double at_least = 0; // the threshold: the metric at or above it (at or below with at_most)
  bool at_most = false;
  bool cheapest = false; // the cheapest value meeting it (as `aisim size` gives) rather than the largest
};

// Problems with a search's range, one message each.
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

// One value the search writes into the scenario at each probe: knob x times.
struct SearchVary {
  std::string pointer;
  int64_t times = 1;
};

// A check whose value is not read from one run but searched for: the largest knob value (accelerators, say) whose
// run keeps `metric` at or above `spec.at_least`.
struct Search {
  std::vector<std::string> sets; // overrides of every probe, after the case's own
  std::vector<SearchVary> vary;  // what the knob sets
  std::string metric;
  SearchSpec spec;
};

// A check whose value is where a metric peaks over a grid of knob values (the checkpoint interval that maximizes
// goodput, say): every value is run `replicas` times with seeds 1..replicas (the same seeds at every value, so the
// values are compared on the same failures), and the peak is fitted through the means (app/sweep/grid_optimum.hpp).
struct Optimum {
  std::vector<std::string> sets; // overrides of every run, after the case's own
  std::string vary;              // the pointer each value is written to
  std::vector<double> values;
  std::string suffix; // appended to each value when it is written ("s": a duration in seconds)
  bool log_scale = false;
  bool maximize = true;
  int replicas = 1;
  std::string metric;
};

struct Check {
  std::string metric; // JSON pointer into results.json; empty for a search or an optimum
  std::string per;    // optional JSON pointer: the value checked is metric / per (a rate per accelerator, say)
  std::optional<Search> search;
  std::optional<Optimum> optimum;
  double expected = 0;
  std::string expected_text; // non-empty: the metric is text (a bottleneck's tier) and must equal it
  double tolerance = 0;      // relative
  std::string unit;
  std::string known_failure; // non-empty: why the check is known to fail; its failure is printed, not counted
};

struct Case {
  std::string name;
  fs::path scenario;
  std::vector<std::string> sets;
  std::vector<Check> checks;
};

// A JSON pointer as text; reports one that nlohmann cannot parse.
std::optional<std::string> pointer_text(models::ObjectReader& r, const std::string& key, bool required) {
  if (!required && !r.has(key)) {
    r.accept(key);
    return std::string();
  }
  auto p = r.text(key, nullptr);
  if (!p)
    return std::nullopt;
  try {
    Json::json_pointer check(*p);
  } catch (const std::exception&) {
    r.get_diagnostics().error(r.child_pointer(key), "not a JSON pointer (expected \"/key/0/...\", got \"" + *p + "\")");
    return std::nullopt;
  }
  return p;
}

// A check's own `set` array of "/json/pointer=VALUE" overrides; false when one is not an override.
bool read_overrides(models::ObjectReader& r, std::vector<std::string>& out) {
  bool ok = true;
  if (Json* sets = r.array("set", false))
    for (size_t i = 0; i < sets->size(); ++i) {
      const Json& v = (*sets)[i];
      if (v.is_string() && v.get<std::string>().find('=') != std::string::npos) {
        out.push_back(v.get<std::string>());
      } else {
        r.get_diagnostics().error(r.child_pointer("set") + "/" + std::to_string(i),
                                  "not an override (expected \"/json/pointer=VALUE\", got " + models::json_excerpt(v) +
                                      ")");
        ok = false;
      }
    }
  return ok;
}

std::optional<Optimum> read_optimum(models::ObjectReader& r) {
  Optimum o;
  bool ok = read_overrides(r, o.sets);
  auto vary = pointer_text(r, "vary", true);
  auto metric = pointer_text(r, "metric", true);
  if (Json* values = r.array("values", true)) {
    for (size_t i = 0; i < values->size(); ++i) {
      const Json& v = (*values)[i];
      if (!v.is_number() || !std::isfinite(v.get<double>()) ||
          (!o.values.empty() && v.get<double>() <= o.values.back())) {
        r.get_diagnostics().error(r.child_pointer("values") + "/" + std::to_string(i),
                                  "expected a number above the one before it, got " + models::json_excerpt(v));
        ok = false;
      } else {
        o.values.push_back(v.get<double>());
      }
    }
    if (ok && o.values.size() < 3) {
      r.get_diagnostics().error(r.child_pointer("values"), "a peak needs at least 3 values");
      ok = false;
    }
  } else {
    ok = false;
  }
  auto suffix = r.text("suffix", "");
  auto scale = r.choice("scale", "linear", {"linear", "log"});
  auto goal = r.choice("goal", "max", {"max", "min"});
  auto replicas = r.integer("replicas", 1, 1, 1000);
  r.finish();
  if (ok && scale && *scale == "log" && o.values.front() <= 0) {
    r.get_diagnostics().error(r.child_pointer("values"), "a log scale needs positive values");
    ok = false;
  }
  if (!ok || !vary || !metric || !suffix || !scale || !goal || !replicas)
    return std::nullopt;
  o.vary = *vary;
  o.metric = *metric;
  o.suffix = *suffix;
  o.log_scale = *scale == "log";
  o.maximize = *goal == "max";
  o.replicas = static_cast<int>(*replicas);
  return o;
}

std::optional<Search> read_search(models::ObjectReader& r) {
  Search s;
  bool ok = true;
  if (Json* vary = r.array("vary", true)) {
    if (vary->empty()) {
      r.get_diagnostics().error(r.child_pointer("vary"),
                                "nothing to vary (expected at least one {\"pointer\": ..., \"times\": ...})");
      ok = false;
    }
    for (size_t i = 0; i < vary->size(); ++i) {
      models::ObjectReader vr((*vary)[i], r.child_pointer("vary") + "/" + std::to_string(i), r.get_diagnostics());
      auto pointer = pointer_text(vr, "pointer", true);
      auto times = vr.integer("times", 1, 1, 1000000);
      vr.finish();
      if (pointer && times)
        s.vary.push_back({*pointer, *times});
      else
        ok = false;
    }
  } else {
    ok = false;
  }
  ok = read_overrides(r, s.sets) && ok;
  auto metric = pointer_text(r, "metric", true);
  // The threshold is at_least or at_most, one of them.
  const bool at_most = r.has("at_most");
  if (at_most && r.has("at_least")) {
    r.get_diagnostics().error(r.child_pointer("at_most"), "a search has at_least or at_most, not both");
    ok = false;
  }
  auto at_least = r.number(at_most ? "at_most" : "at_least", std::nullopt, -1e300, 1e300);
  r.accept(at_most ? "at_least" : "at_most");
  auto goal = r.choice("goal", "largest", {"largest", "cheapest"});
  auto min = r.integer("min", std::nullopt, 0, 10000000);
  auto max = r.integer("max", std::nullopt, 0, 10000000);
  auto step = r.integer("step", 1, 1, 10000000);
  r.finish();
  if (min && max && step) {
    s.spec = {*min, *max, *step, at_least.value_or(0.0), at_most, goal && *goal == "cheapest"};
    for (const auto& p : check_search_spec(s.spec)) {
      r.get_diagnostics().error(r.get_pointer(), p);
      ok = false;
    }
  }
  if (!metric || !at_least || !min || !max || !step || !ok)
    return std::nullopt;
  s.metric = *metric;
  return s;
}

std::optional<Check> read_check(Json& node, const std::string& pointer, models::Diagnostics& diag) {
  models::ObjectReader cr(node, pointer, diag);
  Check k;
  bool ok = true;
  if (cr.has("search") && cr.has("optimum")) {
    diag.error(pointer, "a check has one of metric, search or optimum, not several");
    return std::nullopt;
  }
  if (cr.has("search") || cr.has("optimum")) {
    const std::string kind = cr.has("search") ? "search" : "optimum";
    if (cr.has("metric") || cr.has("per")) {
      const std::string a = kind == "search" ? "a search" : "an optimum";
      diag.error(pointer, "a check has either a metric or " + a + ", not both (the " + kind + " names its own metric)");
      ok = false;
    }
    cr.accept("metric");
    cr.accept("per");
    auto sr = cr.object(kind, true);
    if (kind == "search") {
      auto search = sr ? read_search(*sr) : std::nullopt;
      ok = ok && search;
      if (search)
        k.search = std::move(*search);
    } else {
      auto optimum = sr ? read_optimum(*sr) : std::nullopt;
      ok = ok && optimum;
      if (optimum)
        k.optimum = std::move(*optimum);
    }
  } else {
    cr.accept("search");
    cr.accept("optimum");
    auto metric = pointer_text(cr, "metric", true);
    auto per = pointer_text(cr, "per", false);
    ok = ok && metric && per;
    if (metric && per) {
      k.metric = *metric;
      k.per = *per;
    }
  }
  // A text expectation names what a metric must say (a bottleneck's tier); it needs no tolerance.
  const bool text = node.is_object() && node.contains("expected") && node["expected"].is_string();
  if (text && (k.search || k.optimum)) {
    diag.error(pointer + "/expected", "a search or an optimum finds a number (expected a number, got text)");
    ok = false;
  }
  std::optional<double> expected = 0.0;
  if (text) {
    k.expected_text = node["expected"].get<std::string>();
    cr.accept("expected");
  } else {
    expected = cr.number("expected", std::nullopt, -1e300, 1e300);
  }
  auto tol = cr.number("tolerance", text ? std::optional<double>(0.0) : std::nullopt, 0.0, 1.0);
  auto unit = cr.text("unit", "");
  auto known = cr.text("known_failure", "");
  cr.text("derivation", "");
  cr.finish();
  if (!ok || !expected || !tol || !unit || !known)
    return std::nullopt;
  k.expected = *expected;
  k.tolerance = *tol;
  k.unit = *unit;
  k.known_failure = *known;
  return k;
}

std::optional<Case> read_case(const fs::path& dir, models::Diagnostics& diag) {
  const auto file = dir / "case.json";
  std::ifstream in(file);
  std::stringstream ss;
  ss << in.rdbuf();
  models::Diagnostics local(file.string());
  auto doc = models::parse_json_text(ss.str(), local);
  Case c;
  c.name = dir.filename().string();
  if (doc) {
    models::ObjectReader r(*doc, "", local);
    auto scenario = r.text("scenario", "scenario.json");
    r.text("description", "");
    r.text("reference", nullptr);
    Json* sets = r.array("set", false);
    Json* checks = r.array("checks", true);
    if (scenario)
      c.scenario = dir / *scenario;
    if (sets)
      for (const auto& s : *sets)
        c.sets.push_back(s.is_string() ? s.get<std::string>() : s.dump());
    if (checks)
      for (size_t i = 0; i < checks->size(); ++i)
        if (auto k = read_check((*checks)[i], "/checks/" + std::to_string(i), local))
          c.checks.push_back(std::move(*k));
    r.finish();
  }
  for (const auto& d : local.items())
    diag.error(file.string() + ":" + d.pointer, d.message);
  if (local.has_errors())
    return std::nullopt;
  return c;
}

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

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// One run's results.json, or why there is none.
struct RunResult {
  int rc = -1;
  Json results;
  fs::path out;
  std::string failure() const { return "run exited " + std::to_string(rc) + ", see " + (out / "run.log").string(); }
};

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

// The value a plain check compares: the metric, divided by `per` when given. Throws when either is missing.
double check_value(const Json& results, const Check& k) {
  const double v = results.at(Json::json_pointer(k.metric)).get<double>();
  if (k.per.empty())
    return v;
  return v / results.at(Json::json_pointer(k.per)).get<double>();
}

std::string metric_label(const Check& k) {
  std::string label;
  if (k.search)
    label = (k.search->spec.cheapest ? "cheapest " : "max ") + (k.unit.empty() ? std::string("n") : k.unit) + ": " +
            k.search->metric + (k.search->spec.at_most ? "<=" : ">=") + fmt(k.search->spec.at_least);
  else if (k.optimum)
    label = std::string(k.optimum->maximize ? "argmax " : "argmin ") + k.optimum->metric +
            (k.unit.empty() ? "" : " [" + k.unit + "]");
  else
    label = k.metric + (k.per.empty() ? "" : " / " + k.per) + (k.unit.empty() ? "" : " [" + k.unit + "]");
  return label;
}

struct Outcome {
  std::string got = "-", err = "-", verdict = "FAIL";
  bool pass = false;
  std::string detail; // printed under the row (a search's probes)
};

Outcome compare(const Check& k, double v) {
  Outcome o;
  const double e = k.expected == 0 ? std::fabs(v) : std::fabs(v - k.expected) / std::fabs(k.expected);
  o.got = fmt(v);
  // Two decimals in percent: errors below 0.005% print as +0.00% rather than as floating-point noise.
  char err[32];
  std::snprintf(err, sizeof err, "%+.2f%%", 100.0 * (k.expected == 0 ? v : (v - k.expected) / std::fabs(k.expected)));
  o.err = err;
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
    o.detail += " " + std::to_string(knob(r.index)) + "=" + (m != r.metrics.end() ? fmt(m->second) : std::string("?"));
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
    why = "even " + std::to_string(s.spec.min) + " gives " + fmt(at_min.value_or(0)) + ", " + side +
          fmt(s.spec.at_least) + ": lower min";
  else if (a.found)
    why = "even " + std::to_string(s.spec.max) + " gives " + fmt(at_max.value_or(0)) + ", " + side +
          fmt(s.spec.at_least) + ": raise max";
  else if (!failed_run.empty()) // run_batch notes every run that gave no metric
    why = a.message + ": " + failed_run;
  else if (!a.why_search.empty())
    why = a.message;
  else
    why = "no value from " + std::to_string(s.spec.min) + " to " + std::to_string(s.spec.max) + " gives " +
          (s.spec.at_most ? "at most " : "at least ") + fmt(s.spec.at_least) + " (" + std::to_string(s.spec.min) +
          " gives " + fmt(at_min.value_or(0)) + ", " + std::to_string(s.spec.max) + " gives " +
          fmt(at_max.value_or(0)) + ")";
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
      extra.push_back(opt.vary + "=" + fmt(opt.values[v]) + opt.suffix);
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
    o.detail += " " + fmt(opt.values[v]) + opt.suffix + "=" + fmt(m.mean) +
                (opt.replicas > 1 ? "+-" + fmt(m.half_width) : std::string());
  }
  const GridOptimum g = find_grid_optimum(opt.values, means, opt.log_scale, opt.maximize);
  if (g.outcome != OptimumOutcome::found) {
    o.verdict = "FAIL (" + g.message + ")";
    return o;
  }
  Outcome found = compare(k, g.value);
  found.detail = o.detail + (opt.maximize ? "\n    peak" : "\n    minimum") + " fitted through the " +
                 std::to_string(g.fitted) + " values around " + fmt(opt.values[g.best]) + opt.suffix +
                 (opt.log_scale ? " (log scale)" : "");
  fs::remove_all(out);
  return found;
}

} // namespace

int validate_command(const ValidateCommand& cmd) {
  fs::path dir = cmd.dir;
  if (dir.empty())
    dir = fs::exists("validation") ? fs::path("validation") : fs::path(AISIM_SOURCE_DIR) / "validation";
  if (!fs::is_directory(dir)) {
    std::cerr << "aisim validate: no validation folder at " << dir.string() << "\n";
    return 2;
  }
  std::vector<fs::path> case_dirs;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_directory() && fs::exists(e.path() / "case.json") &&
        (cmd.only_case.empty() || e.path().filename() == cmd.only_case))
      case_dirs.push_back(e.path());
  std::sort(case_dirs.begin(), case_dirs.end());
  if (case_dirs.empty()) {
    std::cerr << "aisim validate: " << (cmd.only_case.empty() ? "no cases" : "no case named \"" + cmd.only_case + "\"")
              << " under " << dir.string() << "\n";
    return 2;
  }

  models::Diagnostics diag;
  std::vector<Case> cases;
  for (const auto& d : case_dirs)
    if (auto c = read_case(d, diag))
      cases.push_back(*c);
  if (diag.has_errors()) {
    for (const auto& d : diag.items())
      std::cerr << d.pointer << ": " << d.message << "\n";
    return 2;
  }

  char tmpl[] = "/tmp/aisim-validate-XXXXXX";
  const char* tmp = mkdtemp(tmpl);
  if (!tmp) {
    std::cerr << "aisim validate: cannot create a temporary folder\n";
    return 1;
  }
  const std::string exe = self_executable(cmd.self);
  std::printf("%-28s %-44s %12s %12s %8s %6s  %s\n", "case", "metric", "expected", "got", "error", "tol", "verdict");
  int failed = 0, passed = 0, known = 0;
  for (const auto& c : cases) {
    const fs::path out = fs::path(tmp) / c.name;
    // The case's own run, when a plain check needs it; search checks run their own.
    const bool plain =
        std::any_of(c.checks.begin(), c.checks.end(), [](const Check& k) { return !k.search && !k.optimum; });
    const RunResult base = plain ? run_and_read(exe, c, out, {}) : RunResult{0, {}, out};
    bool keep = base.rc != 0;
    for (size_t i = 0; i < c.checks.size(); ++i) {
      const Check& k = c.checks[i];
      Outcome o;
      if (k.search) {
        o = run_search(exe, c, k, out / ("search" + std::to_string(i)));
      } else if (k.optimum) {
        o = run_optimum(exe, c, k, out / ("optimum" + std::to_string(i)));
      } else if (base.rc != 0) {
        o.verdict = "FAIL (" + base.failure() + ")";
      } else {
        try {
          o = k.expected_text.empty() ? compare(k, check_value(base.results, k))
                                      : compare_text(k, base.results.at(Json::json_pointer(k.metric)));
        } catch (const std::exception&) {
          o.verdict = "FAIL (no metric " + k.metric + (k.per.empty() ? "" : " or " + k.per) + " in results.json)";
        }
      }
      if (o.pass && !k.known_failure.empty()) {
        // A stale mark hides the next regression of this check: it fails the run until it is dropped.
        ++failed;
        o.verdict = "FAIL: passes, but listed as a known failure (drop the mark)";
      } else if (o.pass) {
        ++passed;
      } else if (!k.known_failure.empty()) {
        ++known;
        o.verdict = "known failure, not gated: " + o.verdict;
      } else {
        ++failed;
      }
      keep = keep || !o.pass;
      std::printf("%-28s %-44s %12s %12s %8s %5.1f%%  %s\n", c.name.c_str(), metric_label(k).c_str(),
                  (k.expected_text.empty() ? fmt(k.expected) : k.expected_text).c_str(), o.got.c_str(), o.err.c_str(),
                  100.0 * k.tolerance, o.verdict.c_str());
      if (!o.detail.empty())
        std::printf("%s\n", o.detail.c_str());
    }
    if (!keep)
      fs::remove_all(out);
  }
  if (known > 0)
    std::printf("\n%d known failure%s, not gated (see the cases' READMEs)", known, known == 1 ? "" : "s");
  std::printf("\n%d passed, %d failed\n", passed, failed);
  if (failed == 0)
    fs::remove_all(tmp);
  return failed == 0 ? 0 : 1;
}

} // namespace aisim::app
