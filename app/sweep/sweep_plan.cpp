#include "app/sweep/sweep_plan.hpp"

#include "models/common/units.hpp"
#include "models/scenario/included_file.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <set>
#include <unordered_set>

namespace aisim::app {
namespace {

using models::Json;

constexpr uint64_t kMaxAxisValues = 1'000'000;

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos)
    return "";
  const auto e = s.find_last_not_of(" \t");
  return std::string(s.substr(b, e - b + 1));
}

// "400Gbps" -> 400 and "Gbps"; "8" -> 8 and ""; nullopt when the text does not start with a number.
std::optional<std::pair<double, std::string>> number_and_unit(std::string_view text) {
  const std::string t = trim(text);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || !std::isfinite(v))
    return std::nullopt;
  return std::make_pair(v, trim(std::string_view(end, static_cast<size_t>(t.data() + t.size() - end))));
}

// A plain decimal for a range's value: whole numbers as integers, others without the float noise of repeated
// addition (0.30000000000000004) and without an exponent, which a quantity does not parse.
Json range_value(double v, const std::string& unit) {
  const std::string text = plain_decimal(v);
  if (!unit.empty())
    return text + unit;
  if (std::fabs(v) < 9e15 && v == std::round(v))
    return static_cast<long long>(v);
  return std::strtod(text.c_str(), nullptr);
}

// How many of `unit` one `other` is, through a dimension both parse in ("TB" in "GB": 1000); nullopt when none.
std::optional<double> unit_ratio(const std::string& other, const std::string& unit) {
  if (other == unit)
    return 1.0;
  using D = models::Dimension;
  for (const D d :
       {D::bytes, D::seconds, D::bytes_per_second, D::watts, D::dollars, D::dollars_per_hour, D::dollars_per_kwh,
        D::flops, D::ops_per_second, D::dollars_per_byte, D::dollars_per_byte_month, D::dollars_per_kw_month}) {
    const bool money = d == D::dollars || d == D::dollars_per_hour || d == D::dollars_per_kwh ||
                       d == D::dollars_per_byte || d == D::dollars_per_byte_month || d == D::dollars_per_kw_month;
    if (money)
      continue; // "$" comes before the number, so a money range has no number first: not reached
    const auto a = models::parse_quantity("1" + other, d, nullptr);
    const auto b = models::parse_quantity("1" + unit, d, nullptr);
    if (a && b && *b != 0)
      return *a / *b;
  }
  return std::nullopt;
}

std::optional<SweepAxis> parse_range(SweepAxis axis, const std::string& values, std::string* error) {
  const auto fail = [&](const std::string& why) {
    *error = "--vary " + axis.spec + ": " + why;
    return std::nullopt;
  };
  const auto dots = values.find("..");
  const auto colon = values.rfind(':');
  if (colon == std::string::npos || colon < dots)
    return fail("a range needs a step after a colon (expected A..B:STEP, like 8..64:8 or 400Gbps..1600Gbps:x2)");
  const std::string a_text = trim(values.substr(0, dots));
  const std::string b_text = trim(values.substr(dots + 2, colon - dots - 2));
  const std::string step_text = trim(values.substr(colon + 1));
  const auto a = number_and_unit(a_text);
  const auto b = number_and_unit(b_text);
  if (!a || !b)
    return fail("a range's ends must be numbers, with or without a unit (got \"" + a_text + "\" and \"" + b_text +
                "\")");
  const std::string unit = a->second;
  const auto b_ratio = unit_ratio(b->second, unit);
  if (!b_ratio)
    return fail("the range's ends are in units that do not convert (\"" + a_text + "\" and \"" + b_text + "\")");
  const double lo = a->first;
  const double hi = b->first * *b_ratio;
  if (hi < lo)
    return fail("empty range: " + a_text + " is above " + b_text);
  const bool factor = !step_text.empty() && (step_text[0] == 'x' || step_text[0] == '*');
  const auto step = number_and_unit(factor ? std::string_view(step_text).substr(1) : std::string_view(step_text));
  if (!step)
    return fail("the step must be a number, a quantity in the range's unit, or xK for a factor (got \"" + step_text +
                "\")");
  const auto s_ratio = step->second.empty() ? std::optional<double>(1.0) : unit_ratio(step->second, unit);
  if (factor && !step->second.empty())
    return fail("a factor step takes no unit (got \"" + step_text + "\")");
  if (!s_ratio)
    return fail("the step's unit does not convert to the range's (\"" + step_text + "\" against \"" + a_text + "\")");
  const double s = step->first * *s_ratio;
  if (factor ? !(s > 1) : !(s > 0))
    return fail(factor ? "a factor step must be above 1 (got \"" + step_text + "\")"
                       : "the step must be above 0 (got \"" + step_text + "\")");
  if (factor && !(lo > 0))
    return fail("a range stepped by a factor must start above 0 (got \"" + a_text + "\")");
  const double slack = 1e-9 * std::max(std::fabs(hi), std::fabs(lo));
  std::vector<double> numbers;
  for (uint64_t i = 0;; ++i) {
    const double v = factor ? lo * std::pow(s, static_cast<double>(i)) : lo + static_cast<double>(i) * s;
    if (v > hi + slack)
      break;
    if (numbers.size() >= kMaxAxisValues)
      return fail("more than 1,000,000 values in one range (a larger step?)");
    numbers.push_back(v);
  }
  for (const double v : numbers)
    axis.values.push_back(range_value(v, unit));
  axis.range = true;
  return axis;
}

// Items of a comma list, each read as --set reads a value; nullopt with *error for a number a double cannot hold.
std::optional<std::vector<Json>> list_values(const std::string& values, std::string* error) {
  std::vector<Json> out;
  size_t start = 0;
  while (start <= values.size()) {
    const auto comma = values.find(',', start);
    const std::string item = trim(values.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    Json v;
    try {
      v = Json::parse(item);
    } catch (const Json::parse_error&) {
      v = item;
    } catch (const Json::out_of_range&) {
      *error = "\"" + item + "\" is a number a double cannot hold";
      return std::nullopt;
    }
    out.push_back(std::move(v));
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return out;
}

// Uniform draws from a seeded generator, the same on every machine (the standard distributions are not).
class Draw {
public:
  explicit Draw(uint64_t seed) : rng_(seed) {}
  double unit() { return static_cast<double>(rng_() >> 11) * 0x1.0p-53; }
  uint64_t below(uint64_t n) {
    // Rejection keeps it exactly uniform for any n.
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x = 0;
    do
      x = rng_();
    while (x >= limit);
    return x % n;
  }

private:
  std::mt19937_64 rng_;
};

SweepPoint decode(uint64_t index, const std::vector<SweepAxis>& axes) {
  SweepPoint p;
  p.choice.resize(axes.size());
  for (size_t k = axes.size(); k-- > 0;) {
    const uint64_t n = axes[k].values.size();
    p.choice[k] = static_cast<uint32_t>(index % n);
    index /= n;
  }
  return p;
}

std::string count_text(double n) { return models::format_count(n); }

} // namespace

std::string plain_decimal(double v) {
  if (std::fabs(v) < 9e15 && v == std::round(v))
    return std::to_string(static_cast<long long>(v));
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", v);
  const double rounded = std::strtod(buf, nullptr);
  char out[400];
  const auto [end, ec] = std::to_chars(out, out + sizeof out, rounded, std::chars_format::fixed);
  return ec == std::errc() ? std::string(out, end) : std::string(buf);
}

void find_unit(SweepAxis& axis) {
  std::optional<std::string> unit;
  std::vector<double> numbers;
  for (const auto& v : axis.values) {
    std::optional<std::pair<double, std::string>> nu;
    if (v.is_number())
      nu = std::make_pair(v.get<double>(), std::string());
    else if (v.is_string())
      nu = number_and_unit(v.get<std::string>());
    if (!nu || (unit && *unit != nu->second))
      return;
    unit = nu->second;
    numbers.push_back(nu->first);
  }
  axis.unit = unit;
  axis.numbers = std::move(numbers);
}

std::optional<SweepAxis> parse_vary(const std::string& arg, std::string* error) {
  SweepAxis axis;
  axis.spec = arg;
  const auto eq = arg.find('=');
  if (eq == std::string::npos || arg.empty() || arg[0] != '/') {
    *error = "--vary \"" + arg +
             "\": expected /json/pointer=VALUES (a list 1,2,4, a range 8..64:8, a JSON array, "
             "or @FILE)";
    return std::nullopt;
  }
  axis.pointer = arg.substr(0, eq);
  if (!models::is_utf8(arg)) {
    *error = "--vary: not UTF-8 text (a scenario is JSON, which is UTF-8)";
    return std::nullopt;
  }
  try {
    (void)Json::json_pointer(axis.pointer);
  } catch (const Json::exception&) {
    *error = "--vary " + arg + ": \"" + axis.pointer + "\" is not a JSON pointer (expected /key/0/key)";
    return std::nullopt;
  }
  const std::string values = trim(arg.substr(eq + 1));
  if (values.empty()) {
    *error = "--vary " + arg + ": no values after '=' (expected a list, a range A..B:STEP, a JSON array or @FILE)";
    return std::nullopt;
  }
  if (values[0] == '@' || values[0] == '[') {
    std::string text = values;
    if (values[0] == '@') {
      std::string why;
      const auto read = models::read_text_file(values.substr(1), &why);
      if (!read) {
        *error = "--vary " + arg + ": " + why;
        return std::nullopt;
      }
      text = *read;
    }
    Json doc;
    try {
      doc = Json::parse(text);
    } catch (const Json::exception& e) { // a syntax error, or a number a double cannot hold
      *error = "--vary " + arg + ": the values are not valid JSON (" + e.what() + ")";
      return std::nullopt;
    }
    if (!doc.is_array() || doc.empty()) {
      *error = "--vary " + arg + ": expected a non-empty JSON array of values";
      return std::nullopt;
    }
    for (auto& v : doc)
      axis.values.push_back(std::move(v));
  } else if (values.find("..") != std::string::npos) {
    auto parsed = parse_range(std::move(axis), values, error);
    if (!parsed)
      return std::nullopt;
    axis = std::move(*parsed);
  } else {
    std::string why;
    auto items = list_values(values, &why);
    if (!items) {
      *error = "--vary " + arg + ": " + why;
      return std::nullopt;
    }
    axis.values = std::move(*items);
    for (const auto& v : axis.values)
      if (v.is_string() && v.get<std::string>().empty()) {
        *error = "--vary " + arg + ": an empty item in the list (expected VALUE,VALUE,...)";
        return std::nullopt;
      }
  }
  if (axis.values.size() > kMaxAxisValues) {
    *error = "--vary " + arg + ": more than 1,000,000 values on one axis";
    return std::nullopt;
  }
  find_unit(axis);
  return axis;
}

std::optional<SampleSpec> parse_sample(const std::string& text, std::string* error) {
  SampleSpec s;
  if (text == "grid")
    return s;
  const auto colon = text.find(':');
  const std::string mode = text.substr(0, colon);
  if ((mode != "random" && mode != "latin") || colon == std::string::npos) {
    *error = "--sample \"" + text + "\": expected grid, random:N or latin:N";
    return std::nullopt;
  }
  const std::string n = text.substr(colon + 1);
  uint64_t count = 0;
  const auto [end, ec] = std::from_chars(n.data(), n.data() + n.size(), count);
  if (ec != std::errc() || end != n.data() + n.size() || count == 0) {
    *error = "--sample \"" + text + "\": N must be a whole number of points, at least 1";
    return std::nullopt;
  }
  s.mode = mode == "random" ? SampleMode::random : SampleMode::latin;
  s.count = count;
  return s;
}

double grid_size(const std::vector<SweepAxis>& axes) {
  double n = 1;
  for (const auto& a : axes)
    n *= static_cast<double>(a.values.size());
  return n;
}

double points_to_run(const std::vector<SweepAxis>& axes, const SampleSpec& sample) {
  const double grid = grid_size(axes);
  return sample.mode == SampleMode::grid ? grid : std::min(grid, static_cast<double>(sample.count));
}

SweepPlan plan_sweep(std::vector<SweepAxis> axes, const SampleSpec& sample) {
  SweepPlan plan;
  plan.axes = std::move(axes);
  plan.sample = sample;
  plan.grid_size = grid_size(plan.axes);
  std::string shape;
  for (const auto& a : plan.axes)
    shape += (shape.empty() ? "" : " x ") + std::to_string(a.values.size());
  const double grid = plan.grid_size;
  if (sample.mode == SampleMode::grid || static_cast<double>(sample.count) >= grid) {
    const auto n = static_cast<uint64_t>(grid);
    plan.points.reserve(n);
    for (uint64_t i = 0; i < n; ++i)
      plan.points.push_back(decode(i, plan.axes));
    plan.description = "grid of " + shape + " = " + count_text(grid) + " point" + (n == 1 ? "" : "s");
    if (sample.mode != SampleMode::grid)
      plan.description += " (the sample of " + count_text(static_cast<double>(sample.count)) + " covers it)";
    return plan;
  }
  Draw draw(sample.seed);
  const std::string of = " from a grid of " + count_text(grid);
  if (sample.mode == SampleMode::random) {
    // Floyd's algorithm: N distinct indices of the grid, each subset equally likely. A grid past 2^62 points is
    // drawn axis by axis instead; the chance of a repeat there is nil, and repeats are redrawn anyway.
    std::set<std::vector<uint32_t>> chosen;
    if (grid < 0x1.0p62) {
      const auto m = static_cast<uint64_t>(grid);
      std::unordered_set<uint64_t> taken;
      for (uint64_t j = m - sample.count; j < m; ++j) {
        const uint64_t t = draw.below(j + 1);
        taken.insert(taken.count(t) ? j : t);
      }
      for (const uint64_t i : taken)
        chosen.insert(decode(i, plan.axes).choice);
    } else {
      while (chosen.size() < sample.count) {
        std::vector<uint32_t> c(plan.axes.size());
        for (size_t k = 0; k < c.size(); ++k)
          c[k] = static_cast<uint32_t>(draw.below(plan.axes[k].values.size()));
        chosen.insert(std::move(c));
      }
    }
    for (const auto& c : chosen)
      plan.points.push_back({c});
    plan.description = "random sample of " + count_text(static_cast<double>(sample.count)) + of + " (seed " +
                       std::to_string(sample.seed) + ")";
    return plan;
  }
  // Latin hypercube over the axes' value indices: stratum i of N on an axis of L values covers indices
  // [i L / N, (i + 1) L / N); a point takes a random index inside its stratum.
  const uint64_t n = sample.count;
  std::vector<std::vector<uint64_t>> strata(plan.axes.size());
  for (auto& perm : strata) {
    perm.resize(n);
    for (uint64_t i = 0; i < n; ++i)
      perm[i] = i;
    for (uint64_t i = n; i-- > 1;) // Fisher-Yates
      std::swap(perm[i], perm[draw.below(i + 1)]);
  }
  std::set<std::vector<uint32_t>> seen;
  for (uint64_t j = 0; j < n; ++j) {
    std::vector<uint32_t> c(plan.axes.size());
    for (size_t k = 0; k < c.size(); ++k) {
      const double len = static_cast<double>(plan.axes[k].values.size());
      const double at = (static_cast<double>(strata[k][j]) + draw.unit()) / static_cast<double>(n) * len;
      c[k] = static_cast<uint32_t>(std::min(len - 1, std::floor(at)));
    }
    if (seen.insert(c).second)
      plan.points.push_back({std::move(c)});
    else
      ++plan.duplicates;
  }
  // In grid order, as the other plans are: tables read by value, not by draw.
  std::sort(plan.points.begin(), plan.points.end(),
            [](const SweepPoint& a, const SweepPoint& b) { return a.choice < b.choice; });
  plan.description =
      "latin sample of " + count_text(static_cast<double>(n)) + of + " (seed " + std::to_string(sample.seed) + ")";
  if (plan.duplicates > 0)
    plan.description += ", " + count_text(static_cast<double>(plan.duplicates)) + " repeated grid point" +
                        (plan.duplicates == 1 ? "" : "s") + " dropped";
  return plan;
}

std::string assignment(const SweepAxis& axis, uint32_t value_index) {
  const Json& v = axis.values.at(value_index);
  // Always JSON, quotes included: a string such as "8" stays a string when --set reads it back.
  return axis.pointer + "=" + v.dump();
}

Json plan_json(const SweepPlan& plan) {
  Json axes = Json::array();
  for (const auto& a : plan.axes) {
    Json ax{{"pointer", a.pointer}, {"values", a.values}};
    if (a.unit)
      ax["unit"] = *a.unit;
    axes.push_back(std::move(ax));
  }
  static const std::map<SampleMode, const char*> modes{{SampleMode::grid, "grid"},
                                                       {SampleMode::random, "random"},
                                                       {SampleMode::latin, "latin"},
                                                       {SampleMode::one_at_a_time, "one_at_a_time"}};
  Json sample{{"mode", modes.at(plan.sample.mode)}};
  if (plan.sample.mode == SampleMode::random || plan.sample.mode == SampleMode::latin) {
    sample["count"] = plan.sample.count;
    sample["seed"] = plan.sample.seed;
  }
  return Json{{"axes", std::move(axes)}, {"sample", std::move(sample)}};
}

} // namespace aisim::app
