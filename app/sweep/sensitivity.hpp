// One-at-a-time sensitivity: which uncertain inputs move a metric most. Every input is run at its low and high
// value with all others at their nominal ones, so a planner sees what the answer hinges on (a tornado chart).
// Pure: the plan comes from the scenario document, the ranking from the runs' headline metrics.
#pragma once

#include "app/sweep/sweep_plan.hpp"
#include "app/sweep/sweep_table.hpp"

#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

struct UncertainInput {
  std::string pointer;
  std::string kind;   // "bandwidth", "operation rate", "price", "failure rate", or "given" (the scenario's own)
  std::string source; // "scenario" (its `uncertainty` low/high) or "±20%"
  models::Json nominal, low, high;
};

// "20%", "±20%", "+-20%" or "0.2": the relative range for inputs without their own, above 0 and below 1.
std::optional<double> parse_relative_range(const std::string& text, std::string* error);

// `v` scaled by `factor`: a number, or the number inside a quantity string with its unit kept ("400Gbps" x 0.8 ->
// "320Gbps", "$2.50/h" x 1.2 -> "$3/h"). nullopt when `v` holds no number.
std::optional<models::Json> scale_value(const models::Json& v, double factor);

// The scenario's uncertain inputs, in document order: every bandwidth and operation rate, every price, every
// failure rate (`afr`) and mean time between failures (`mtbf`, `node_mtbf`) written in the document, each at
// ±`range`; and every entry of its `uncertainty` object at its own low and high (which replaces the ±range of
// the same pointer, and may name any value). The `simulation` section is never varied.
std::vector<UncertainInput> uncertain_inputs(const models::Json& doc, double range);

// The runs: the nominal point first, then each input's low and high, the others nominal. Each input is an axis
// with the values [nominal, low, high].
SweepPlan plan_sensitivity(const std::vector<UncertainInput>& inputs);

struct SensitivityRow {
  std::string pointer, kind, source;
  std::string low_label, high_label; // the input's values as written ("320Gbps")
  std::optional<double> at_low, at_high;
  double swing = 0; // |metric(high) - metric(low)|, 0 when either is missing
};

struct Sensitivity {
  std::string metric;
  std::optional<double> nominal;
  std::vector<SensitivityRow> rows; // largest swing first; ties keep the document's order
};

// The ranking of `metric` over the rows of a finished sweep planned by plan_sensitivity(inputs).
Sensitivity rank_sensitivity(const std::vector<UncertainInput>& inputs, const std::vector<SweepRow>& rows,
                             const std::string& metric);

models::Json sensitivity_json(const Sensitivity& s);

} // namespace aisim::app
