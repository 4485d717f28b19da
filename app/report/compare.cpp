#include "app/report/compare.hpp"

#include "models/common/json_reader.hpp"
#include "models/common/units.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <set>
#include <string>

namespace aisim::app {

using models::Json;

namespace {

bool is_replica_set(const Json& r) { return r.is_object() && r.value("kind", "") == "replicas"; }

// A replica set's statistics of one results.json pointer (mean, ci95_low, ci95_high, ...), or null.
const Json* stats_at(const Json& r, const std::string& pointer) {
  if (!is_replica_set(r) || !r.contains("metrics") || !r["metrics"].is_object())
    return nullptr;
  const auto it = r["metrics"].find(pointer);
  return it != r["metrics"].end() && it->is_object() && it->contains("mean") && (*it)["mean"].is_number() ? &*it
                                                                                                          : nullptr;
}

// A run's number at a pointer; a replica set's mean there.
std::optional<double> number_at(const Json& r, const std::string& pointer) {
  if (is_replica_set(r)) {
    const Json* s = stats_at(r, pointer);
    return s ? std::optional<double>((*s)["mean"].get<double>()) : std::nullopt;
  }
  const Json::json_pointer p(pointer);
  if (!r.contains(p) || !r.at(p).is_number())
    return std::nullopt;
  return r.at(p).get<double>();
}

using Interval = std::pair<double, double>;

// Where a value lies at 95 %: a replica set's interval at `pointer`, else the value itself (a single run's).
Interval interval_at(const Json& r, const std::string& pointer, double value) {
  if (const Json* s = stats_at(r, pointer); s && s->contains("ci95_low") && (*s)["ci95_low"].is_number())
    return {(*s)["ci95_low"].get<double>(), (*s)["ci95_high"].get<double>()};
  return {value, value};
}

struct Metric {
  std::string label, unit, better;
  std::function<std::optional<double>(const Json&)> read;
  std::string replica_pointer; // where a replica set keeps it, with its interval; "" where none does
};

std::vector<Metric> metrics_of(const std::vector<std::pair<std::string, Json>>& runs) {
  const auto metric = [](std::string label, std::string unit, std::string better, std::string pointer) {
    return Metric{std::move(label), std::move(unit), std::move(better),
                  [pointer](const Json& r) { return number_at(r, pointer); }, pointer};
  };
  std::vector<Metric> m{
      metric("GPU utilization", "fraction", "max", "/gpu/utilization"),
      metric("data stall", "fraction", "min", "/gpu/stall/data"),
      metric("checkpoint stall", "fraction", "min", "/gpu/stall/checkpoint"),
      metric("failure", "fraction", "min", "/gpu/stall/failure"),
      // Spend falls when GPUs stall (less energy): it is shown, but the run that wins on money is the one with
      // the lowest cost with lost GPU time.
      metric("total cost (spend)", "usd", "", "/cost/total_usd"),
      metric("cost with lost GPU time", "usd", "min", "/cost/total_with_lost_gpu_usd"),
      metric("cost per useful GPU-hour", "usd", "min", "/cost/usd_per_useful_gpu_hour"),
      metric("storage cost", "usd", "min", "/cost/storage/total_usd"),
      metric("storage bought", "usd", "min", "/cost/storage/capex_usd"),
      metric("value of stalled GPU-hours", "usd", "min", "/cost/gpu_stalled_usd"),
  };
  // Per job, by name, for the jobs of the first run (a replica set's: its scenario's workloads): checkpoint times
  // where the job wrote checkpoints. A replica set keeps each job's utilization and checkpoint p99 by name.
  std::vector<std::string> names;
  if (!runs.empty()) {
    const Json& first = runs[0].second;
    const Json* jobs = is_replica_set(first) ? (first.contains("scenario") && first["scenario"].contains("workloads")
                                                    ? &first["scenario"]["workloads"]
                                                    : nullptr)
                                             : (first.contains("jobs") ? &first["jobs"] : nullptr);
    if (jobs && jobs->is_array())
      for (const auto& job : *jobs)
        if (job.contains("name") && job["name"].is_string())
          names.push_back(job["name"].get<std::string>());
  }
  for (const auto& name : names) {
    // `key` in a run's jobs[] entry; `kept` under /jobs/NAME/ in a replica set's metrics ("" where it keeps none).
    const auto of_job = [name](std::string label, std::string unit, std::string better, std::string key,
                               std::string kept) {
      const std::string pointer = kept.empty() ? "" : "/jobs/" + models::pointer_token(name) + "/" + kept;
      const auto read = [name, key, pointer](const Json& r) -> std::optional<double> {
        if (is_replica_set(r))
          return pointer.empty() ? std::nullopt : number_at(r, pointer);
        if (!r.contains("jobs") || !r["jobs"].is_array())
          return std::nullopt;
        for (const auto& j : r["jobs"])
          if (j.contains("name") && j["name"] == name) {
            const auto count = number_at(j, "/checkpoints/count");
            if (key.rfind("/checkpoints/write_s", 0) == 0 && (!count || *count <= 0))
              return std::nullopt; // a job that wrote none has no write time
            return number_at(j, key);
          }
        return std::nullopt;
      };
      return Metric{std::move(label), std::move(unit), std::move(better), read, pointer};
    };
    m.push_back(of_job("utilization of " + name, "fraction", "max", "/utilization", "utilization"));
    m.push_back(of_job("checkpoint write mean, " + name, "s", "min", "/checkpoints/write_s/mean", ""));
    m.push_back(
        of_job("checkpoint write p99, " + name, "s", "min", "/checkpoints/write_s/p99", "checkpoint_write_p99_s"));
  }
  // Risk where the runs have placement advice: the expected yearly loss of everything they advise on.
  m.push_back({"expected data loss a year", "usd", "min",
               [](const Json& r) -> std::optional<double> {
                 if (!r.contains("placement") || !r["placement"].is_array() || r["placement"].empty())
                   return std::nullopt;
                 double sum = 0;
                 for (const auto& p : r["placement"]) {
                   const auto v = number_at(p, "/expected_loss_usd_per_year");
                   if (!v)
                     return std::nullopt; // a value unknown: no total to compare
                   sum += *v;
                 }
                 return sum;
               },
               ""});
  return m;
}

std::string format_value(double v, const std::string& unit) {
  if (unit == "fraction") {
    char b[32];
    std::snprintf(b, sizeof b, "%.1f %%", 100 * v);
    return b;
  }
  if (unit == "usd")
    return models::format_money(models::Dollars(v));
  return models::format_duration(models::Seconds(v));
}

std::string format_delta(double d, const std::string& unit) {
  if (unit == "fraction") {
    char b[32];
    std::snprintf(b, sizeof b, "%+.1f pt", 100 * d);
    return b;
  }
  return (d >= 0 ? "+" : "-") + format_value(std::fabs(d), unit);
}

// The inputs that differ: every JSON pointer at which a run's resolved scenario differs from the first run's, with
// each run's value there (null where it has none), so that a comparison says what was changed before what changed.
Json differing_inputs(const std::vector<std::pair<std::string, Json>>& runs) {
  std::set<std::string> paths;
  const Json none;
  const auto scenario_of = [&none](const Json& r) -> const Json& {
    return r.contains("scenario") ? r["scenario"] : none;
  };
  for (size_t i = 1; i < runs.size(); ++i)
    for (const auto& op : Json::diff(scenario_of(runs[0].second), scenario_of(runs[i].second))) {
      std::string path = op["path"].get<std::string>();
      if (path.ends_with("/-")) // appended to an array: the array differs
        path.resize(path.size() - 2);
      paths.insert(path);
    }
  Json out = Json::array();
  for (const auto& path : paths) {
    Json values = Json::array();
    for (const auto& [label, r] : runs) {
      const Json& sc = scenario_of(r);
      const Json::json_pointer p(path);
      values.push_back(sc.contains(p) ? sc.at(p) : Json());
    }
    out.push_back({{"pointer", path}, {"values", values}});
  }
  return out;
}

} // namespace

Json compare_runs(const std::vector<std::pair<std::string, Json>>& runs) {
  Json labels = Json::array(), rows = Json::array(), missing = Json::array();
  for (const auto& [label, r] : runs)
    labels.push_back(label);
  for (const auto& m : metrics_of(runs)) {
    std::vector<double> values;
    for (const auto& [label, r] : runs)
      if (const auto v = m.read(r))
        values.push_back(*v);
    if (values.size() != runs.size()) {
      missing.push_back(m.label);
      continue;
    }
    const auto best = m.better == "max" ? std::max_element(values.begin(), values.end())
                                        : std::min_element(values.begin(), values.end());
    // Values that print the same are the same to a reader: no winner on a difference nobody can see.
    const bool tie = m.better.empty() || std::all_of(values.begin(), values.end(), [&](double v) {
                       return format_value(v, m.unit) == format_value(values[0], m.unit);
                     });
    // Replica sets: no winner either where the best one's 95 % interval overlaps another run's (a single run's
    // interval is its value).
    bool within = false;
    Json intervals = Json::array();
    if (!m.replica_pointer.empty() &&
        std::any_of(runs.begin(), runs.end(), [](const auto& x) { return is_replica_set(x.second); })) {
      std::vector<Interval> in;
      for (size_t i = 0; i < runs.size(); ++i) {
        in.push_back(interval_at(runs[i].second, m.replica_pointer, values[i]));
        intervals.push_back(Json::array({in.back().first, in.back().second}));
      }
      const size_t b = static_cast<size_t>(best - values.begin());
      for (size_t i = 0; i < in.size() && !tie; ++i)
        if (i != b && in[i].first <= in[b].second && in[b].first <= in[i].second)
          within = true;
    }
    Json row = {{"label", m.label},
                {"unit", m.unit},
                {"better", m.better},
                {"values", values},
                {"best", tie || within ? Json() : Json(best - values.begin())}};
    if (!intervals.empty()) {
      row["ci95"] = intervals;
      row["indistinguishable"] = within;
    }
    rows.push_back(row);
  }
  return {{"labels", labels}, {"metrics", rows}, {"not_compared", missing}, {"inputs", differing_inputs(runs)}};
}

std::string format_comparison(const Json& c) {
  const auto& labels = c["labels"];
  const size_t n = labels.size();
  std::vector<std::vector<std::string>> table;
  std::vector<std::string> head{"metric"};
  for (size_t i = 0; i < n; ++i)
    head.push_back(std::string(1, static_cast<char>('A' + std::min<size_t>(i, 25))));
  if (n == 2)
    head.push_back("B - A");
  head.push_back("better");
  table.push_back(head);
  for (const auto& m : c["metrics"]) {
    const std::string unit = m["unit"].get<std::string>();
    std::vector<std::string> row{m["label"].get<std::string>()};
    for (size_t i = 0; i < m["values"].size(); ++i) {
      std::string cell = format_value(m["values"][i].get<double>(), unit);
      // A replica set's mean with its 95 % half-width.
      if (m.contains("ci95") && m["ci95"][i].is_array() && m["ci95"][i][0] != m["ci95"][i][1])
        cell += " ± " + format_value((m["ci95"][i][1].get<double>() - m["ci95"][i][0].get<double>()) / 2, unit);
      row.push_back(cell);
    }
    if (n == 2)
      row.push_back(format_delta(m["values"][1].get<double>() - m["values"][0].get<double>(), unit));
    row.push_back(m["better"] == ""                     ? "-"
                  : m.value("indistinguishable", false) ? "not distinguishable at 95 %"
                  : m["best"].is_null()                 ? "same"
                                                        : head[1 + m["best"].get<size_t>()]);
    table.push_back(row);
  }
  std::vector<size_t> w(head.size(), 0);
  for (const auto& row : table)
    for (size_t i = 0; i < row.size(); ++i)
      w[i] = std::max(w[i], row[i].size());
  std::string o;
  for (size_t i = 0; i < n; ++i)
    o += head[1 + i] + ": " + labels[i].get<std::string>() + "\n";
  o += "\n";
  if (c.contains("inputs") && !c["inputs"].empty()) {
    // What differs, as each run's value at the pointer; a long value (a whole section) is cut to stay readable.
    const auto shown = [](const Json& v) {
      std::string t = v.is_null() ? "(none)" : v.is_string() ? v.get<std::string>() : v.dump();
      return t.size() > 40 ? t.substr(0, 37) + "..." : t;
    };
    o += "inputs that differ (" + std::to_string(c["inputs"].size()) + "):\n";
    size_t listed = 0;
    for (const auto& in : c["inputs"]) {
      if (++listed > 30) {
        o += "  ... and " + std::to_string(c["inputs"].size() - 30) + " more (compare.html lists them all)\n";
        break;
      }
      o += "  " + in["pointer"].get<std::string>() + ":";
      for (size_t i = 0; i < in["values"].size(); ++i)
        o += " " + head[1 + i] + " " + shown(in["values"][i]) + (i + 1 < in["values"].size() ? "," : "");
      o += "\n";
    }
    o += "\n";
  }
  for (const auto& row : table) {
    std::string line = "  ";
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string pad(w[i] - row[i].size(), ' ');
      line += (i == 0 ? row[i] + pad : pad + row[i]) + (i + 1 < row.size() ? "   " : "");
    }
    o += line + "\n";
  }
  if (!c["not_compared"].empty()) {
    o += "\nnot compared (missing from at least one run):";
    std::string sep = " ";
    for (const auto& m : c["not_compared"]) {
      o += sep + m.get<std::string>();
      sep = ", ";
    }
    o += "\n";
  }
  return o;
}

} // namespace aisim::app
