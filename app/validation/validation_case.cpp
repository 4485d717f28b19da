#include "app/validation/validation_case.hpp"

#include "models/common/json_reader.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

namespace aisim::app {

namespace fs = std::filesystem;
using models::Json;

namespace {

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

} // namespace

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

} // namespace aisim::app
