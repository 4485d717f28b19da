#include "app/sweep/sensitivity.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace aisim::app {
namespace {

using models::Dimension;
using models::Json;

// What a written value is, by what it parses as (and, for failure rates, by its key); empty when not uncertain.
std::string kind_of(const std::string& key, const Json& v) {
  if (key == "afr" && v.is_number())
    return "failure rate";
  if (!v.is_string())
    return "";
  const std::string text = v.get<std::string>();
  const bool mtbf = key == "mtbf" || (key.size() > 5 && key.compare(key.size() - 5, 5, "_mtbf") == 0);
  if (mtbf && models::parse_quantity(text, Dimension::seconds, nullptr))
    return "failure rate";
  if (models::parse_quantity(text, Dimension::bytes_per_second, nullptr))
    return "bandwidth";
  if (models::parse_quantity(text, Dimension::ops_per_second, nullptr))
    return "operation rate";
  for (const Dimension d :
       {Dimension::dollars, Dimension::dollars_per_hour, Dimension::dollars_per_kwh, Dimension::dollars_per_byte,
        Dimension::dollars_per_byte_month, Dimension::dollars_per_kw_month})
    if (models::parse_quantity(text, d, nullptr))
      return "price";
  return "";
}

bool is_zero(const Json& v) {
  const auto scaled = scale_value(v, 2.0);
  return scaled && *scaled == v; // doubling changes every value but zero
}

void collect(const Json& node, const std::string& pointer, const std::string& key, double range,
             std::vector<UncertainInput>& out) {
  if (node.is_object()) {
    for (const auto& [k, v] : node.items())
      collect(v, pointer + "/" + models::pointer_token(k), k, range, out);
    return;
  }
  if (node.is_array()) {
    for (size_t i = 0; i < node.size(); ++i)
      collect(node[i], pointer + "/" + std::to_string(i), "", range, out);
    return;
  }
  const std::string kind = kind_of(key, node);
  if (kind.empty() || is_zero(node))
    return;
  auto low = scale_value(node, 1 - range);
  auto high = scale_value(node, 1 + range);
  if (!low || !high)
    return;
  if (key == "afr" && high->get<double>() > 1)
    high = Json(1); // a rate per component-year of at most 1, as the scenario requires
  out.push_back({pointer, kind, "±" + plain_decimal(range * 100) + "%", node, *low, *high});
}

} // namespace

std::optional<double> parse_relative_range(const std::string& text, std::string* error) {
  std::string t = text;
  for (const std::string prefix : {"±", "+-", "+/-"})
    if (t.rfind(prefix, 0) == 0)
      t = t.substr(prefix.size());
  const bool percent = !t.empty() && t.back() == '%';
  if (percent)
    t.pop_back();
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  const double fraction = percent ? v / 100 : v;
  if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v) || fraction <= 0 || fraction >= 1) {
    if (error)
      *error = "--range " + text + ": expected a relative range above 0 and below 100%, such as \"20%\" or \"±0.2\"";
    return std::nullopt;
  }
  return fraction;
}

std::optional<Json> scale_value(const Json& v, double factor) {
  if (v.is_number())
    return Json(std::strtod(plain_decimal(v.get<double>() * factor).c_str(), nullptr));
  if (!v.is_string())
    return std::nullopt;
  const std::string text = v.get<std::string>();
  // The first number in the text: after a "$" or other prefix, before the unit.
  size_t start = 0;
  while (start < text.size() && !(std::isdigit(static_cast<unsigned char>(text[start])) ||
                                  (text[start] == '.' && start + 1 < text.size() &&
                                   std::isdigit(static_cast<unsigned char>(text[start + 1])))))
    ++start;
  if (start == text.size())
    return std::nullopt;
  char* end = nullptr;
  const double number = std::strtod(text.c_str() + start, &end);
  if (end == text.c_str() + start)
    return std::nullopt;
  const size_t stop = static_cast<size_t>(end - text.c_str());
  return Json(text.substr(0, start) + plain_decimal(number * factor) + text.substr(stop));
}

std::vector<UncertainInput> uncertain_inputs(const Json& doc, double range) {
  std::vector<UncertainInput> inputs;
  if (!doc.is_object())
    return inputs;
  for (const auto& [k, v] : doc.items())
    if (k != "simulation" && k != "uncertainty" && k != "schema_version")
      collect(v, "/" + models::pointer_token(k), k, range, inputs);
  if (const auto it = doc.find("uncertainty"); it != doc.end() && it->is_object())
    for (const auto& [pointer, entry] : it->items()) {
      if (!entry.is_object() || !entry.contains("low") || !entry.contains("high"))
        continue; // the scenario's own check reports it
      Json nominal;
      try {
        nominal = doc.at(Json::json_pointer(pointer));
      } catch (const std::exception&) {
        nominal = nullptr; // reported by the caller: nothing written there to vary around
      }
      UncertainInput given{pointer, "given", "scenario", nominal, entry["low"], entry["high"]};
      const auto same =
          std::find_if(inputs.begin(), inputs.end(), [&given](const auto& i) { return i.pointer == given.pointer; });
      if (same != inputs.end()) {
        given.kind = same->kind;
        *same = std::move(given);
      } else {
        inputs.push_back(std::move(given));
      }
    }
  return inputs;
}

SweepPlan plan_sensitivity(const std::vector<UncertainInput>& inputs) {
  SweepPlan plan;
  plan.sample.mode = SampleMode::one_at_a_time;
  for (const auto& in : inputs) {
    SweepAxis axis;
    axis.spec = in.pointer + " (" + in.source + ")";
    axis.flag = "--sensitivity";
    axis.pointer = in.pointer;
    axis.values = {in.nominal, in.low, in.high};
    find_unit(axis);
    plan.axes.push_back(std::move(axis));
  }
  const size_t k = inputs.size();
  plan.points.push_back({std::vector<uint32_t>(k, 0)});
  for (size_t i = 0; i < k; ++i)
    for (const uint32_t end : {1u, 2u}) {
      SweepPoint p{std::vector<uint32_t>(k, 0)};
      p.choice[i] = end;
      plan.points.push_back(std::move(p));
    }
  plan.grid_size = static_cast<double>(plan.points.size());
  plan.description = "sensitivity of " + std::to_string(k) + " input" + (k == 1 ? "" : "s") + " at low and high, " +
                     std::to_string(plan.points.size()) + " runs";
  return plan;
}

Sensitivity rank_sensitivity(const std::vector<UncertainInput>& inputs, const std::vector<SweepRow>& rows,
                             const std::string& metric) {
  Sensitivity s;
  s.metric = metric;
  const auto value = [&](size_t point) -> std::optional<double> {
    if (point >= rows.size() || rows[point].status != "ok")
      return std::nullopt;
    const auto it = rows[point].metrics.find(metric);
    return it == rows[point].metrics.end() ? std::nullopt : std::optional<double>(it->second);
  };
  s.nominal = value(0);
  const auto label = [](const Json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); };
  for (size_t i = 0; i < inputs.size(); ++i) {
    SensitivityRow r;
    r.pointer = inputs[i].pointer;
    r.kind = inputs[i].kind;
    r.source = inputs[i].source;
    r.low_label = label(inputs[i].low);
    r.high_label = label(inputs[i].high);
    r.at_low = value(1 + 2 * i);
    r.at_high = value(2 + 2 * i);
    if (r.at_low && r.at_high)
      r.swing = std::fabs(*r.at_high - *r.at_low);
    s.rows.push_back(std::move(r));
  }
  std::stable_sort(s.rows.begin(), s.rows.end(), [](const auto& a, const auto& b) { return a.swing > b.swing; });
  return s;
}

Json sensitivity_json(const Sensitivity& s) {
  Json inputs = Json::array();
  for (const auto& r : s.rows) {
    Json j{{"pointer", r.pointer},
           {"kind", r.kind},
           {"source", r.source},
           {"low", r.low_label},
           {"high", r.high_label},
           {"at_low", r.at_low ? Json(*r.at_low) : Json(nullptr)},
           {"at_high", r.at_high ? Json(*r.at_high) : Json(nullptr)},
           {"swing", r.swing}};
    inputs.push_back(std::move(j));
  }
  return Json{
      {"metric", s.metric}, {"nominal", s.nominal ? Json(*s.nominal) : Json(nullptr)}, {"inputs", std::move(inputs)}};
}

} // namespace aisim::app
