#include "app/sweep/sweep_table.hpp"

#include "models/common/units.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace aisim::app {
namespace {

using models::Json;

const Json* at(const Json& doc, const char* pointer) {
  const Json::json_pointer jp(pointer);
  return doc.contains(jp) ? &doc.at(jp) : nullptr;
}

void put(std::map<std::string, double>& m, const std::string& column, const Json* v) {
  if (v && v->is_number() && std::isfinite(v->get<double>()))
    m[column] = v->get<double>();
}

// A replica set's metric, by the pointer of the single-run metric it summarizes.
const Json* mean_of(const Json& metrics, const std::string& pointer, const char* field = "mean") {
  const auto it = metrics.find(pointer);
  if (it == metrics.end() || !it->contains(field))
    return nullptr;
  return &(*it)[field];
}

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n\r") == std::string::npos)
    return text;
  std::string q = "\"";
  for (const char ch : text) {
    q += ch;
    if (ch == '"')
      q += '"';
  }
  return q + "\"";
}

double sum_bytes_lost(const Json& by_class) {
  double s = 0;
  for (const auto& [cls, v] : by_class.items())
    if (v.is_object() && v.contains("bytes") && v["bytes"].is_number())
      s += v["bytes"].get<double>();
  return s;
}

} // namespace

const std::vector<SweepMetric>& sweep_metrics(bool replicas) {
  static const std::vector<SweepMetric> single{
      {"gpu_utilization_fraction", "GPU utilization", Better::higher},
      {"stall_data_fraction", "GPU time stalled on data", Better::lower},
      {"stall_checkpoint_fraction", "GPU time stalled on checkpoints", Better::lower},
      {"stall_failure_fraction", "GPU time lost to failures", Better::lower},
      {"idle_fraction", "GPU time idle", Better::lower},
      {"checkpoint_write_p99_s", "checkpoint write p99 (worst job)", Better::lower},
      {"serving_p99_s", "serving latency p99 (worst fleet)", Better::lower},
      {"failure_lost_usd", "lost to failures", Better::lower},
      {"data_loss_events_count", "data-loss events", Better::lower},
      {"data_lost_bytes", "data lost", Better::lower},
      {"expected_loss_usd_per_year", "expected data-loss dollars a year", Better::lower},
      {"capex_usd", "capital cost", Better::lower},
      {"opex_per_year_usd", "a year to run", Better::lower},
      {"total_usd", "spend over the horizon", Better::lower},
      {"total_with_lost_gpu_usd", "spend + lost GPU time (the objective)", Better::lower},
      {"usd_per_useful_gpu_hour", "dollars per useful GPU-hour", Better::lower},
      {"simulated_s", "simulated time", Better::neither},
      {"events_count", "simulation events", Better::neither},
  };
  static const std::vector<SweepMetric> with_ci = [] {
    auto m = single;
    m.push_back({"gpu_utilization_ci95_half_width_fraction", "GPU utilization 95% half-width", Better::neither});
    m.push_back({"total_usd_ci95_half_width", "cost 95% half-width", Better::neither});
    return m;
  }();
  return replicas ? with_ci : single;
}

namespace {

// Metrics read as they are, by their pointer in a run's results.json; a replica set has their mean under the same
// pointer in its `metrics`.
constexpr std::pair<const char*, const char*> kDirect[] = {
    {"gpu_utilization_fraction", "/gpu/utilization"},
    {"stall_data_fraction", "/gpu/stall/data"},
    {"stall_checkpoint_fraction", "/gpu/stall/checkpoint"},
    {"stall_failure_fraction", "/gpu/stall/failure"},
    {"idle_fraction", "/gpu/stall/idle"},
    {"failure_lost_usd", "/failures/lost_usd/total"},
    {"capex_usd", "/cost/capex_usd"},
    {"opex_per_year_usd", "/cost/opex_per_year_usd"},
    {"total_usd", "/cost/total_usd"},
    {"total_with_lost_gpu_usd", "/cost/total_with_lost_gpu_usd"},
    {"usd_per_useful_gpu_hour", "/cost/usd_per_useful_gpu_hour"},
    {"simulated_s", "/sim/simulated_s"},
    {"events_count", "/sim/events"},
};

std::map<std::string, double> replica_set_metrics(const Json& x) {
  std::map<std::string, double> m;
  for (const auto& [column, pointer] : kDirect)
    put(m, column, mean_of(x, pointer));
  put(m, "data_loss_events_count", mean_of(x, "/failures/data_loss_events/count"));
  put(m, "gpu_utilization_ci95_half_width_fraction", mean_of(x, "/gpu/utilization", "half_width"));
  put(m, "total_usd_ci95_half_width", mean_of(x, "/cost/total_usd", "half_width"));
  double lost = 0;
  std::optional<double> ckpt;
  for (const auto& [ptr, v] : x.items()) {
    if (!v.contains("mean"))
      continue;
    if (ptr.starts_with("/jobs/") && ptr.ends_with("/checkpoint_write_p99_s"))
      ckpt = std::max(ckpt.value_or(0.0), v["mean"].get<double>());
    if (ptr.starts_with("/failures/data_lost_by_class/") && ptr.ends_with("/bytes"))
      lost += v["mean"].get<double>();
  }
  if (ckpt)
    m["checkpoint_write_p99_s"] = *ckpt;
  m["data_lost_bytes"] = lost;
  return m;
}

} // namespace

std::map<std::string, double> headline_metrics(const Json& r) {
  if (!r.is_object())
    return {};
  if (r.value("kind", "") == "replicas")
    return r.contains("metrics") && r["metrics"].is_object() ? replica_set_metrics(r["metrics"])
                                                             : std::map<std::string, double>{};
  std::map<std::string, double> m;
  for (const auto& [column, pointer] : kDirect)
    put(m, column, at(r, pointer));
  if (const Json* jobs = at(r, "/jobs"); jobs && jobs->is_array()) {
    std::optional<double> ckpt, serving;
    for (const auto& j : *jobs) {
      if (const Json* c = at(j, "/checkpoints/count"); c && c->is_number() && c->get<double>() > 0)
        if (const Json* p = at(j, "/checkpoints/write_s/p99"); p && p->is_number())
          ckpt = std::max(ckpt.value_or(0.0), p->get<double>());
      if (const Json* p = at(j, "/inference/serving/latency_s/p99"); p && p->is_number())
        serving = std::max(serving.value_or(0.0), p->get<double>());
    }
    if (ckpt)
      m["checkpoint_write_p99_s"] = *ckpt;
    if (serving)
      m["serving_p99_s"] = *serving;
  }
  if (const Json* e = at(r, "/failures/data_loss_events"); e && e->is_array())
    m["data_loss_events_count"] = static_cast<double>(e->size());
  if (const Json* b = at(r, "/failures/data_lost_by_class"); b && b->is_object())
    m["data_lost_bytes"] = sum_bytes_lost(*b);
  // Expected loss is priced only where the data has a value; a sum over part of the data would understate it.
  if (const Json* p = at(r, "/placement"); p && p->is_array() && !p->empty()) {
    double usd = 0;
    bool all = true;
    for (const auto& c : *p) {
      const auto it = c.find("expected_loss_usd_per_year");
      all = all && it != c.end() && it->is_number();
      if (all)
        usd += it->get<double>();
    }
    if (all)
      m["expected_loss_usd_per_year"] = usd;
  }
  return m;
}

std::vector<std::string> pareto_objectives(const std::vector<SweepRow>& rows) {
  // The money objective counts the GPU time a point wastes: spend alone falls when GPUs stall (less energy).
  std::vector<std::string> obj{"gpu_utilization_fraction", "total_with_lost_gpu_usd"};
  bool risk = false;
  for (const auto& r : rows) {
    if (r.status != "ok")
      continue;
    if (!r.metrics.contains("expected_loss_usd_per_year"))
      return obj;
    risk = true;
  }
  if (risk)
    obj.push_back("expected_loss_usd_per_year");
  return obj;
}

void mark_pareto(std::vector<SweepRow>& rows, const std::vector<std::string>& objectives) {
  std::vector<std::pair<size_t, std::vector<double>>> pts; // each objective turned so that larger is better
  for (size_t i = 0; i < rows.size(); ++i) {
    rows[i].pareto = false;
    if (rows[i].status != "ok")
      continue;
    std::vector<double> v;
    for (const auto& o : objectives) {
      const auto it = rows[i].metrics.find(o);
      if (it == rows[i].metrics.end())
        break;
      v.push_back(o == "gpu_utilization_fraction" ? it->second : -it->second);
    }
    if (v.size() == objectives.size())
      pts.emplace_back(i, std::move(v));
  }
  for (const auto& point : pts) {
    const auto& a = point.second;
    const bool dominated = std::any_of(pts.begin(), pts.end(), [&](const auto& other) {
      const auto& b = other.second;
      bool strictly = false;
      for (size_t k = 0; k < a.size(); ++k) {
        if (b[k] < a[k])
          return false;
        strictly = strictly || b[k] > a[k];
      }
      return strictly;
    });
    rows[point.first].pareto = !dominated;
  }
}

std::string plain_number(double v) {
  if (!std::isfinite(v))
    return "";
  char buf[400];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  return ec == std::errc() ? std::string(buf, end) : "";
}

std::string axis_label(const SweepAxis& axis, uint32_t value_index) {
  if (axis.unit)
    return plain_number(axis.numbers.at(value_index));
  const Json& v = axis.values.at(value_index);
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_object() && v.contains("name") && v["name"].is_string())
    return v["name"].get<std::string>();
  if (v.is_object() || v.is_array())
    return "value " + std::to_string(value_index + 1);
  return v.dump();
}

std::string axis_header(const SweepAxis& axis) {
  return axis.pointer + (axis.unit && !axis.unit->empty() ? " [" + *axis.unit + "]" : "");
}

std::string format_metric(const std::string& column, double v) {
  if (column.ends_with("_fraction")) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.2f %%", 100 * v);
    return buf;
  }
  if (column.find("usd") != std::string::npos)
    return models::format_money(models::Dollars(v));
  if (column.ends_with("_bytes"))
    return models::format_bytes(models::Bytes(v));
  if (column.ends_with("_s"))
    return models::format_duration(models::Seconds(v));
  return models::format_count(v, std::fabs(v) < 100 ? 2 : 0);
}

std::string sweep_csv(const SweepPlan& plan, const std::vector<SweepRow>& rows, bool replicas) {
  std::string o = "point,status";
  for (const auto& a : plan.axes)
    o += "," + csv_field(axis_header(a));
  const auto& metrics = sweep_metrics(replicas);
  for (const auto& m : metrics)
    o += "," + m.column;
  o += ",pareto,error\n";
  for (size_t i = 0; i < rows.size() && i < plan.points.size(); ++i) {
    const auto& r = rows[i];
    o += std::to_string(i + 1) + "," + r.status;
    for (size_t k = 0; k < plan.axes.size(); ++k)
      o += "," + csv_field(axis_label(plan.axes[k], plan.points[i].choice[k]));
    for (const auto& m : metrics) {
      const auto it = r.metrics.find(m.column);
      o += "," + (it == r.metrics.end() ? std::string() : plain_number(it->second));
    }
    o += std::string(",") + (r.pareto ? "1" : "0") + "," + csv_field(r.error) + "\n";
  }
  return o;
}

} // namespace aisim::app
