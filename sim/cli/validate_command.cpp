#include "sim/cli/validate_command.hpp"

#include "sim/executor/process_pool.hpp"

#include "sim/sweep/threshold_search.hpp"

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

namespace aisim::sim {

namespace fs = std::filesystem;
using models::Json;

namespace {

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

struct Check {
  std::string metric; // JSON pointer into results.json; empty for a search
  std::string per;    // optional JSON pointer: the value checked is metric / per (a rate per accelerator, say)
  std::optional<Search> search;
  double expected = 0;
  double tolerance = 0; // relative
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
  if (Json* sets = r.array("set", false))
    for (size_t i = 0; i < sets->size(); ++i) {
      const Json& v = (*sets)[i];
      if (v.is_string() && v.get<std::string>().find('=') != std::string::npos) {
        s.sets.push_back(v.get<std::string>());
      } else {
        r.get_diagnostics().error(r.child_pointer("set") + "/" + std::to_string(i),
                                  "not an override (expected \"/json/pointer=VALUE\", got " + models::json_excerpt(v) +
                                      ")");
        ok = false;
      }
    }
  auto metric = pointer_text(r, "metric", true);
  auto at_least = r.number("at_least", std::nullopt, -1e300, 1e300);
  auto min = r.integer("min", std::nullopt, 0, 10000000);
  auto max = r.integer("max", std::nullopt, 0, 10000000);
  auto step = r.integer("step", 1, 1, 10000000);
  r.finish();
  if (min && max && step) {
    s.spec = {*min, *max, *step, at_least.value_or(0.0)};
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
  if (cr.has("search")) {
    if (cr.has("metric") || cr.has("per")) {
      diag.error(pointer, "a check has either a metric or a search, not both (the search names its own metric)");
      ok = false;
    }
    cr.accept("metric");
    cr.accept("per");
    auto sr = cr.object("search", true);
    auto search = sr ? read_search(*sr) : std::nullopt;
    ok = ok && search;
    if (search)
      k.search = std::move(*search);
  } else {
    cr.accept("search");
    auto metric = pointer_text(cr, "metric", true);
    auto per = pointer_text(cr, "per", false);
    ok = ok && metric && per;
    if (metric && per) {
      k.metric = *metric;
      k.per = *per;
    }
  }
  auto expected = cr.number("expected", std::nullopt, -1e300, 1e300);
  auto tol = cr.number("tolerance", std::nullopt, 0.0, 1.0);
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
int run_case(const std::string& exe, const Case& c, const fs::path& out_dir, const std::vector<std::string>& extra) {
  ChildSpec spec{{exe, "run", c.scenario.string(), "--out", out_dir.string(), "--progress", "none"},
                 (out_dir / "run.log").string()};
  for (const auto* sets : {&c.sets, &extra})
    for (const auto& s : *sets) {
      spec.argv.push_back("--set");
      spec.argv.push_back(s);
    }
  const auto outcome = run_pool({spec}, 1);
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
  if (r.rc == 0) {
    std::ifstream in(out / "results.json");
    r.results = Json::parse(in, nullptr, false);
  }
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
    label = "max " + (k.unit.empty() ? std::string("n") : k.unit) + ": " + k.search->metric +
            ">=" + fmt(k.search->spec.at_least);
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

// Runs a search check: one child run per probe, each with the knob's overrides.
Outcome run_search(const std::string& exe, const Case& c, const Check& k, const fs::path& out) {
  const Search& s = *k.search;
  std::string failed_run;
  auto metric = [&](int64_t n) -> std::optional<double> {
    std::vector<std::string> extra = s.sets;
    for (const auto& v : s.vary)
      extra.push_back(v.pointer + "=" + std::to_string(n * v.times));
    const RunResult run = run_and_read(exe, c, out / ("n" + std::to_string(n)), extra);
    if (run.rc != 0) {
      failed_run = run.failure();
      return std::nullopt;
    }
    try {
      const double v = run.results.at(Json::json_pointer(s.metric)).get<double>();
      fs::remove_all(run.out);
      return v;
    } catch (const std::exception&) {
      failed_run = "no metric " + s.metric + " in " + (run.out / "results.json").string();
      return std::nullopt;
    }
  };
  const SearchResult r = search_largest_passing(s.spec, metric);
  Outcome o;
  std::vector<SearchProbe> probes = r.probes;
  std::sort(probes.begin(), probes.end(), [](const auto& a, const auto& b) { return a.value < b.value; });
  o.detail = "    probes (" + std::to_string(probes.size()) + "):";
  for (const auto& p : probes)
    o.detail += " " + std::to_string(p.value) + "=" + (p.metric ? fmt(*p.metric) : std::string("?"));
  if (r.outcome == SearchOutcome::found) {
    Outcome found = compare(k, static_cast<double>(r.value));
    found.detail = std::move(o.detail);
    return found;
  }
  o.verdict = "FAIL (" + r.message + (failed_run.empty() ? "" : ": " + failed_run) + ")";
  return o;
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
    const bool plain = std::any_of(c.checks.begin(), c.checks.end(), [](const Check& k) { return !k.search; });
    const RunResult base = plain ? run_and_read(exe, c, out, {}) : RunResult{0, {}, out};
    bool keep = base.rc != 0;
    for (size_t i = 0; i < c.checks.size(); ++i) {
      const Check& k = c.checks[i];
      Outcome o;
      if (k.search) {
        o = run_search(exe, c, k, out / ("search" + std::to_string(i)));
      } else if (base.rc != 0) {
        o.verdict = "FAIL (" + base.failure() + ")";
      } else {
        try {
          o = compare(k, check_value(base.results, k));
        } catch (const std::exception&) {
          o.verdict = "FAIL (no metric " + k.metric + (k.per.empty() ? "" : " or " + k.per) + " in results.json)";
        }
      }
      if (o.pass) {
        ++passed;
        if (!k.known_failure.empty())
          o.verdict = "pass (listed as a known failure: drop the mark)";
      } else if (!k.known_failure.empty()) {
        ++known;
        o.verdict = "known failure, not gated: " + o.verdict;
      } else {
        ++failed;
      }
      keep = keep || !o.pass;
      std::printf("%-28s %-44s %12s %12s %8s %5.1f%%  %s\n", c.name.c_str(), metric_label(k).c_str(),
                  fmt(k.expected).c_str(), o.got.c_str(), o.err.c_str(), 100.0 * k.tolerance, o.verdict.c_str());
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

} // namespace aisim::sim
