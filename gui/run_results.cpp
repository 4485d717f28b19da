#include "gui/run_results.hpp"

#include "models/common/units.hpp"

#include <QFile>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace aisim::gui {

const std::vector<double>* Timeseries::column(const QString& name) const {
  const auto i = columns.indexOf(name);
  return i < 0 ? nullptr : &values[static_cast<std::size_t>(i)];
}

namespace {

std::optional<QByteArray> read_all(const QString& path, QString* error) {
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) {
    *error = path + ": " + f.errorString();
    return std::nullopt;
  }
  return f.readAll();
}

std::optional<Timeseries> parse_csv(const QByteArray& text, const QString& path, QString* error) {
  Timeseries ts;
  const auto lines = text.split('\n');
  for (qsizetype i = 0; i < lines.size(); ++i) {
    const QByteArray line = lines[i].trimmed();
    if (line.isEmpty())
      continue;
    const auto cells = line.split(',');
    if (ts.columns.isEmpty()) {
      for (const auto& c : cells)
        ts.columns << QString::fromUtf8(c);
      ts.values.resize(static_cast<std::size_t>(cells.size()));
      continue;
    }
    if (cells.size() != ts.columns.size()) {
      *error = QString("%1: line %2 has %3 values, the header %4")
                   .arg(path)
                   .arg(i + 1)
                   .arg(cells.size())
                   .arg(ts.columns.size());
      return std::nullopt;
    }
    for (qsizetype c = 0; c < cells.size(); ++c) {
      bool ok = false;
      const double v = cells[c].toDouble(&ok);
      if (!ok) {
        *error = QString("%1: line %2, column %3: '%4' is not a number")
                     .arg(path)
                     .arg(i + 1)
                     .arg(ts.columns[c], QString::fromUtf8(cells[c]));
        return std::nullopt;
      }
      ts.values[static_cast<std::size_t>(c)].push_back(v);
    }
  }
  if (ts.columns.isEmpty() || ts.columns.front() != "time_s") {
    *error = path + ": expected a header starting with time_s";
    return std::nullopt;
  }
  return ts;
}

double number_at(const models::Json& j, const char* pointer) {
  const auto p = models::Json::json_pointer(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

} // namespace

std::optional<RunResults> load_run_results(const QString& dir, QString* error) {
  const QString json_path = dir + "/results.json";
  const QString csv_path = dir + "/timeseries.csv";
  const auto json_text = read_all(json_path, error);
  if (!json_text)
    return std::nullopt;
  RunResults run;
  run.dir = dir;
  run.results = models::Json::parse(json_text->constData(), json_text->constData() + json_text->size(), nullptr, false);
  if (!run.results.is_object() || !run.results.contains("gpu")) {
    *error = json_path + ": not an aisim results document";
    return std::nullopt;
  }
  const auto csv_text = read_all(csv_path, error);
  if (!csv_text)
    return std::nullopt;
  auto ts = parse_csv(*csv_text, csv_path, error);
  if (!ts)
    return std::nullopt;
  run.timeseries = std::move(*ts);
  return run;
}

std::vector<Metric> headline_metrics(const models::Json& r) {
  std::vector<Metric> m;
  m.push_back({"GPU utilization", 100.0 * number_at(r, "/gpu/utilization"), "%", true});
  m.push_back({"data stall", 100.0 * number_at(r, "/gpu/stall/data"), "%", false});
  m.push_back({"checkpoint stall", 100.0 * number_at(r, "/gpu/stall/checkpoint"), "%", false});
  m.push_back({"failure time", 100.0 * number_at(r, "/gpu/stall/failure"), "%", false});
  m.push_back({"idle", 100.0 * number_at(r, "/gpu/stall/idle"), "%", false});
  // The worst job's checkpoint writes: the one a planner sizes storage for.
  double ckpt_mean = 0.0, ckpt_p99 = 0.0;
  if (r.contains("jobs") && r["jobs"].is_array())
    for (const auto& job : r["jobs"]) {
      ckpt_mean = std::max(ckpt_mean, number_at(job, "/checkpoints/write_s/mean"));
      ckpt_p99 = std::max(ckpt_p99, number_at(job, "/checkpoints/write_s/p99"));
    }
  m.push_back({"checkpoint write mean (worst job)", ckpt_mean, "s", false});
  m.push_back({"checkpoint write p99 (worst job)", ckpt_p99, "s", false});
  double lost_hours = 0.0;
  const auto lost = models::Json::json_pointer("/failures/lost_gpu_hours");
  if (r.contains(lost) && r.at(lost).is_object())
    for (const auto& [cause, hours] : r.at(lost).items())
      if (hours.is_number())
        lost_hours += hours.get<double>();
  m.push_back({"GPU-hours lost to failures", lost_hours, "GPU-h", false});
  const auto events = models::Json::json_pointer("/failures/data_loss_events");
  m.push_back({"data-loss events", r.contains(events) && r.at(events).is_array() ? double(r.at(events).size()) : 0.0,
               "events", false});
  m.push_back({"total cost over the horizon", number_at(r, "/cost/total_usd"), "$", false, false});
  m.push_back({"cost with lost GPU time", number_at(r, "/cost/total_with_lost_gpu_usd"), "$", false});
  // The cost per unit of the work the scenario does (results.json leaves the others null).
  if (r.contains("cost") && r["cost"].contains("usd_per_useful_gpu_hour") &&
      !r["cost"]["usd_per_useful_gpu_hour"].is_null())
    m.push_back({"cost per useful GPU-hour", number_at(r, "/cost/usd_per_useful_gpu_hour"), "$/GPU-h", false});
  else if (r.contains("cost") && r["cost"].contains("usd_per_1000_requests") &&
           !r["cost"]["usd_per_1000_requests"].is_null())
    m.push_back({"cost per 1,000 requests", number_at(r, "/cost/usd_per_1000_requests"), "$/1000 req", false});
  return m;
}

QString format_metric(const Metric& m) {
  const QLocale en(QLocale::English);
  if (m.unit == "$")
    return "$" + en.toString(m.value, 'f', 0);
  if (m.unit == "$/GPU-h")
    return "$" + en.toString(m.value, 'f', 2) + " /GPU-h";
  if (m.unit == "$/1000 req")
    return QString::fromStdString(models::format_money(models::Dollars(m.value))) + " /1000 req";
  if (m.unit == "events")
    return en.toString(m.value, 'f', 0);
  if (m.unit == "%")
    return en.toString(m.value, 'f', 2) + " %";
  return en.toString(m.value, 'f', 2) + " " + m.unit;
}

} // namespace aisim::gui

namespace aisim::gui {

MetricChange compare_metric(const Metric& now, const Metric& baseline) {
  if (format_metric(now) == format_metric(baseline))
    return {"same", 0};
  const double delta = now.value - baseline.value;
  const bool up = delta > 0;
  MetricChange change;
  change.better = !now.ranked ? 0 : (up == now.higher_is_better) ? 1 : -1;
  Metric magnitude = now;
  magnitude.value = std::abs(delta);
  const QString sign = up ? "+" : "\u2212"; // a minus sign, not a hyphen
  if (now.unit == "%") {
    change.text = sign + QLocale(QLocale::English).toString(magnitude.value, 'f', 2) + " pp";
    return change;
  }
  change.text = sign + format_metric(magnitude);
  if (baseline.value != 0.0)
    change.text +=
        " (" + sign + QLocale(QLocale::English).toString(100.0 * std::abs(delta / baseline.value), 'f', 1) + " %)";
  return change;
}

} // namespace aisim::gui
