#include "gui/result_charts.hpp"

#include "models/common/units.hpp"

#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QCursor>
#include <QGraphicsLayout>
#include <QGridLayout>
#include <QHorizontalBarSeries>
#include <QLineSeries>
#include <QLocale>
#include <QToolTip>
#include <QValueAxis>
#include <QXYSeries>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>

namespace aisim::gui {

namespace {

const char* const kTitles[] = {"GPU time",          "cost",    "storage throughput", "storage occupancy",
                               "checkpoint writes", "failures"};

// Colours that stay apart for colour-blind readers too (Okabe-Ito), in the order systems and causes are listed.
const QColor kPalette[] = {QColor("#0072B2"), QColor("#E69F00"), QColor("#009E73"), QColor("#CC79A7"),
                           QColor("#56B4E9"), QColor("#D55E00"), QColor("#F0E442"), QColor("#000000")};

struct TimeUnit {
  double seconds;
  QString name; // "d", "h", "min"
};

TimeUnit time_unit_for(double span_s) {
  if (span_s > 3 * 86400.0)
    return {86400.0, "d"};
  if (span_s > 3 * 3600.0)
    return {3600.0, "h"};
  return {60.0, "min"};
}

QString number(double v, int decimals) { return QLocale(QLocale::English).toString(v, 'f', decimals); }

double at(const models::Json& j, const char* pointer) {
  const auto p = models::Json::json_pointer(pointer);
  return j.contains(p) && j.at(p).is_number() ? j.at(p).get<double>() : 0.0;
}

QChart* new_chart(const QString& title) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation); // live re-runs redraw at once
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  chart->layout()->setContentsMargins(0, 0, 0, 0);
  chart->setBackgroundRoundness(0);
  return chart;
}

QValueAxis* value_axis(const QString& title, double lo, double hi, bool nice = true) {
  auto* axis = new QValueAxis;
  axis->setTitleText(title);
  axis->setRange(lo, hi);
  if (nice)
    axis->applyNiceNumbers(); // round ticks (0, 0.5, 1, ...), not the data's own extremes
  axis->setLabelFormat("%g");
  return axis;
}

// Values shown on an axis in thousands or millions when large, so tick labels stay short: the divisor and the
// prefix for the axis title ("", "thousand ", "million ").
std::pair<double, QString> axis_scale(double top) {
  if (top >= 2e6)
    return {1e6, "million "};
  if (top >= 2e4)
    return {1e3, "thousand "};
  return {1.0, ""};
}

// Each timeseries row is the mean over [time, next time): drawn as a step, so an hour's stall covers its hour.
struct Steps {
  std::vector<double> x0, x1; // in the chosen time unit
};

Steps steps_of(const Timeseries& ts, double simulated_s, const TimeUnit& unit) {
  Steps s;
  const auto* time = ts.column("time_s");
  if (!time || time->empty())
    return s;
  const std::size_t n = time->size();
  const double step = n > 1 ? (*time)[1] - (*time)[0] : simulated_s - (*time)[0];
  for (std::size_t i = 0; i < n; ++i) {
    const double t0 = (*time)[i];
    const double t1 = i + 1 < n ? (*time)[i + 1] : std::max(t0, std::min(t0 + step, simulated_s));
    s.x0.push_back(t0 / unit.seconds);
    s.x1.push_back(t1 / unit.seconds);
  }
  return s;
}

std::size_t row_at(const Steps& s, double x) {
  const auto it = std::upper_bound(s.x0.begin(), s.x0.end(), x);
  return it == s.x0.begin() ? 0 : static_cast<std::size_t>(it - s.x0.begin() - 1);
}

void add_steps(QLineSeries* line, const Steps& s, const std::vector<double>& y) {
  QList<QPointF> points;
  points.reserve(static_cast<qsizetype>(2 * y.size()));
  for (std::size_t i = 0; i < y.size() && i < s.x0.size(); ++i) {
    points.append(QPointF(s.x0[i], y[i]));
    points.append(QPointF(s.x1[i], y[i]));
  }
  line->replace(points);
}

void show_tip(const QString& text) { QToolTip::showText(QCursor::pos(), text); }

struct StorageColumns {
  QString name;
  const std::vector<double>* read = nullptr;
  const std::vector<double>* write = nullptr;
  const std::vector<double>* used = nullptr;
  double capacity = 0.0;
};

std::vector<StorageColumns> storage_columns(const RunResults& run) {
  std::vector<StorageColumns> out;
  if (!run.results.contains("storage") || !run.results["storage"].is_array())
    return out;
  for (const auto& s : run.results["storage"]) {
    StorageColumns c;
    c.name = QString::fromStdString(s.value("name", std::string()));
    c.read = run.timeseries.column(c.name + "_read_Bps");
    c.write = run.timeseries.column(c.name + "_write_Bps");
    c.used = run.timeseries.column(c.name + "_used_bytes");
    c.capacity = s.value("capacity_bytes", 0.0);
    out.push_back(c);
  }
  return out;
}

// One chart and what hovering over it says at a time (nullptr for bars, which say it themselves).
struct ChartParts {
  QChart* chart;
  std::function<QString(double x)> hover;
};

// The time axis every timeseries chart shares: its unit and each row's interval in it.
struct TimeFrame {
  TimeUnit unit;
  Steps steps;
};

TimeFrame time_frame(const RunResults& run) {
  const double simulated = at(run.results, "/sim/simulated_s");
  const TimeUnit unit = time_unit_for(simulated);
  return {unit, steps_of(run.timeseries, simulated, unit)};
}

// Puts time on x and `y_title` from 0 to `y_max` on y under every series of `chart`; hovering a series names the
// row's interval (`note` after it) and what `row_lines` says of that row.
ChartParts finish_time_chart(QChart* chart, const TimeFrame& frame, const QString& y_title, double y_max,
                             const QString& note, std::function<QString(std::size_t row)> row_lines) {
  const auto& steps = frame.steps;
  auto* x = value_axis("time (" + frame.unit.name + ")", 0.0, steps.x1.empty() ? 1.0 : steps.x1.back(), false);
  auto* y = value_axis(y_title, 0.0, y_max);
  chart->addAxis(x, Qt::AlignBottom);
  chart->addAxis(y, Qt::AlignLeft);
  for (auto* s : chart->series()) {
    s->attachAxis(x);
    s->attachAxis(y);
  }
  auto hover = [steps, unit = frame.unit, note, row_lines](double xv) {
    if (steps.x0.empty())
      return QString();
    const std::size_t i = row_at(steps, xv);
    return QString("%1 %2 to %3 %2%4").arg(number(steps.x0[i], 2), unit.name, number(steps.x1[i], 2), note) +
           row_lines(i);
  };
  const auto tip = [hover](const QPointF& p, bool state) {
    if (state)
      show_tip(hover(p.x()));
  };
  for (auto* s : chart->series()) {
    if (auto* area = qobject_cast<QAreaSeries*>(s))
      QObject::connect(area, &QAreaSeries::hovered, tip);
    else if (auto* line = qobject_cast<QXYSeries*>(s))
      QObject::connect(line, &QXYSeries::hovered, tip);
  }
  return {chart, hover};
}

ChartParts gpu_time_chart(const RunResults& run) {
  const TimeFrame frame = time_frame(run);
  const Steps& steps = frame.steps;
  struct Layer {
    const char* name;
    const char* column;
    QColor colour;
  };
  static const Layer layers[] = {{"computing", "gpu_utilization", QColor("#009E73")},
                                 {"data stall", "stall_data", QColor("#E69F00")},
                                 {"checkpoint stall", "stall_checkpoint", QColor("#0072B2")},
                                 {"failure", "stall_failure", QColor("#D55E00")},
                                 {"idle", "idle", QColor("#BBBBBB")}};
  auto* chart = new_chart("GPU time (% of the cluster's GPUs)");
  std::vector<double> below(steps.x0.size(), 0.0);
  std::vector<std::pair<QString, const std::vector<double>*>> shown;
  for (const auto& layer : layers) {
    const auto* column = run.timeseries.column(layer.column);
    if (!column)
      continue;
    std::vector<double> above = below;
    for (std::size_t i = 0; i < above.size() && i < column->size(); ++i)
      above[i] += 100.0 * (*column)[i];
    auto* upper = new QLineSeries;
    auto* lower = new QLineSeries;
    add_steps(upper, steps, above);
    add_steps(lower, steps, below);
    auto* area = new QAreaSeries(upper, lower);
    upper->setParent(area);
    lower->setParent(area);
    area->setName(layer.name);
    area->setColor(layer.colour);
    area->setBorderColor(layer.colour.darker(115));
    chart->addSeries(area);
    shown.emplace_back(layer.name, column);
    below = above;
  }
  return finish_time_chart(chart, frame, "% of GPU time", 100.0, "", [shown](std::size_t i) {
    QString text;
    for (const auto& [name, column] : shown)
      if (i < column->size())
        text += "\n" + name + ": " + number(100.0 * (*column)[i], 2) + " %";
    return text;
  });
}

ChartParts throughput_chart(const RunResults& run) {
  const TimeFrame frame = time_frame(run);
  auto* chart = new_chart("storage throughput (GB/s, mean per timeseries interval)");
  double top = 0.0;
  std::vector<std::pair<QString, const std::vector<double>*>> shown;
  std::size_t colour = 0;
  for (const auto& sys : storage_columns(run)) {
    for (const auto& [kind, column] : {std::pair{QString("read"), sys.read}, std::pair{QString("write"), sys.write}}) {
      if (!column || std::none_of(column->begin(), column->end(), [](double v) { return v > 0.0; }))
        continue;
      // Each system and direction its own colour (the legend shows colours, not dashes); writes also dashed.
      const QColor c = kPalette[colour++ % std::size(kPalette)];
      std::vector<double> gbps;
      for (double v : *column)
        gbps.push_back(v / 1e9);
      top = std::max(top, *std::max_element(gbps.begin(), gbps.end()));
      auto* line = new QLineSeries;
      line->setName(sys.name + " " + kind);
      QPen pen(c);
      pen.setWidthF(1.5);
      if (kind == "write")
        pen.setStyle(Qt::DashLine);
      line->setPen(pen);
      add_steps(line, frame.steps, gbps);
      chart->addSeries(line);
      shown.emplace_back(sys.name + " " + kind, column);
    }
  }
  return finish_time_chart(chart, frame, "GB/s", top > 0 ? top * 1.08 : 1.0, " (mean)", [shown](std::size_t i) {
    QString text;
    for (const auto& [name, column] : shown)
      if (i < column->size())
        text += "\n" + name + ": " + QString::fromStdString(models::format_rate(models::BytesPerSecond((*column)[i])));
    return text;
  });
}

ChartParts occupancy_chart(const RunResults& run) {
  const TimeFrame frame = time_frame(run);
  auto* chart = new_chart("storage occupancy (% of usable capacity)");
  struct Shown {
    QString name;
    const std::vector<double>* used;
    double capacity;
  };
  std::vector<Shown> shown;
  double top = 0.0;
  std::size_t colour = 0;
  for (const auto& sys : storage_columns(run)) {
    const QColor c = kPalette[colour++ % std::size(kPalette)];
    if (!sys.used || sys.capacity <= 0.0)
      continue;
    std::vector<double> pct;
    for (double v : *sys.used)
      pct.push_back(100.0 * v / sys.capacity);
    top = std::max(top, pct.empty() ? 0.0 : *std::max_element(pct.begin(), pct.end()));
    auto* line = new QLineSeries;
    line->setName(sys.name);
    QPen pen(c);
    pen.setWidthF(2.0);
    line->setPen(pen);
    add_steps(line, frame.steps, pct);
    chart->addSeries(line);
    shown.push_back({sys.name, sys.used, sys.capacity});
  }
  const double y_max = top > 50.0 ? 100.0 : std::max(1.0, std::ceil(top * 1.2));
  return finish_time_chart(chart, frame, "% used", y_max, "", [shown](std::size_t i) {
    QString text;
    for (const auto& s : shown)
      if (i < s.used->size())
        text += "\n" + s.name + ": " + QString::fromStdString(models::format_bytes(models::Bytes((*s.used)[i]))) +
                " of " + QString::fromStdString(models::format_bytes(models::Bytes(s.capacity))) + " (" +
                number(100.0 * (*s.used)[i] / s.capacity, 1) + " %)";
    return text;
  });
}

// Bars: one row per category, one set per measure; hovering a bar names it with its value and unit. Horizontal, so
// the category labels sit on the left at their full length ("maintenance", not "mai..."), first category on top.
ChartParts bar_chart(const QString& title, QStringList categories,
                     std::vector<std::pair<QString, std::vector<double>>> sets, const QString& axis_title,
                     const std::function<QString(double)>& format) {
  auto* chart = new_chart(title);
  // Qt draws the first category at the bottom; reversed, the list reads top-down in the given order.
  std::reverse(categories.begin(), categories.end());
  for (auto& [name, values] : sets)
    std::reverse(values.begin(), values.end());
  auto* series = new QHorizontalBarSeries;
  double top = 0.0;
  for (const auto& [name, values] : sets)
    for (double v : values)
      top = std::max(top, v);
  const auto [divisor, prefix] = axis_scale(top);
  std::size_t colour = 0;
  for (const auto& [name, values] : sets) {
    auto* set = new QBarSet(name);
    set->setColor(kPalette[colour++ % std::size(kPalette)]);
    for (double v : values)
      set->append(v / divisor);
    series->append(set);
    QObject::connect(set, &QBarSet::hovered, [set, categories, format, d = divisor](bool state, int index) {
      if (state && index >= 0 && index < categories.size())
        show_tip(categories[index] + ", " + set->label() + ": " + format(set->at(index) * d));
    });
  }
  chart->addSeries(series);
  auto* names = new QBarCategoryAxis;
  names->append(categories);
  auto* values = value_axis(prefix + axis_title, 0.0, top > 0 ? top / divisor * 1.05 : 1.0);
  chart->addAxis(values, Qt::AlignBottom);
  chart->addAxis(names, Qt::AlignLeft);
  series->attachAxis(values);
  series->attachAxis(names);
  if (sets.size() == 1)
    chart->legend()->hide();
  return {chart, nullptr};
}

ChartParts checkpoint_chart(const RunResults& run) {
  QStringList jobs;
  std::vector<std::pair<QString, std::vector<double>>> sets{{"mean", {}}, {"p99", {}}, {"max", {}}};
  if (run.results.contains("jobs"))
    for (const auto& job : run.results["jobs"]) {
      if (at(job, "/checkpoints/count") <= 0)
        continue;
      jobs << QString::fromStdString(job.value("name", std::string()));
      sets[0].second.push_back(at(job, "/checkpoints/write_s/mean"));
      sets[1].second.push_back(at(job, "/checkpoints/write_s/p99"));
      sets[2].second.push_back(at(job, "/checkpoints/write_s/max"));
    }
  if (jobs.isEmpty()) {
    auto* chart = new_chart("checkpoint writes: none in this run");
    return {chart, nullptr};
  }
  return bar_chart("checkpoint write time per job (s)", jobs, sets, "s",
                   [](double v) { return QString::fromStdString(models::format_duration(models::Seconds(v))); });
}

QString dollars(double v) { return "$" + QLocale(QLocale::English).toString(v, 'f', 0); }

ChartParts cost_chart(const RunResults& run) {
  const auto& r = run.results;
  const double horizon_y = at(r, "/cost/horizon_s") / (365.0 * 86400.0);
  QStringList parts;
  std::vector<double> usd;
  const auto add = [&](const QString& name, double v, bool always) {
    if (always || v > 0.0) {
      parts << name;
      usd.push_back(v);
    }
  };
  // The parts of the total over the horizon: the purchase's written-off share, upkeep, power, services.
  add("capex", at(r, "/cost/capex_amortized_usd"), true);
  add("maintenance", at(r, "/cost/maintenance_usd"), true);
  add("energy", at(r, "/cost/energy_usd"), true);
  add("facility", at(r, "/cost/facility_usd"), false);
  add("GPU rent", at(r, "/cost/gpu_rent_usd"), false);
  add("storage services", at(r, "/cost/storage_services_usd"), false);
  // Stalled GPU time is priced over the same horizon, at the GPU-hour price; it is a value, not a bill.
  add("stalled (value)", at(r, "/cost/gpu_stalled_usd"), true);
  return bar_chart(QString("cost over %1 y (stalled: not billed)").arg(number(horizon_y, horizon_y < 10 ? 1 : 0)),
                   parts, {{"$", usd}}, "$", dollars);
}

ChartParts failures_chart(const RunResults& run) {
  const auto p = models::Json::json_pointer("/failures/lost_gpu_hours");
  QStringList causes;
  std::vector<double> hours;
  if (run.results.contains(p) && run.results.at(p).is_object())
    for (const auto& [cause, h] : run.results.at(p).items())
      if (h.is_number() && h.get<double>() > 0.0) {
        causes << QString::fromStdString(cause).replace('_', ' ');
        hours.push_back(h.get<double>());
      }
  if (causes.isEmpty())
    return {new_chart("GPU-hours lost to failures: none in this run"), nullptr};
  return bar_chart("GPU-hours lost to failures (simulated time)", causes, {{"GPU-hours", hours}}, "GPU-h",
                   [](double v) { return number(v, 1) + " GPU-h"; });
}

} // namespace

ResultCharts::ResultCharts(QWidget* summary, QWidget* parent) : QWidget(parent) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  for (const char* title : kTitles) {
    auto* view = new QChartView;
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(300, 240);
    view->setObjectName(title);
    views_.push_back(view);
  }
  // Three columns: the numbers (wide enough for a baseline and its changes) and the cost; GPU time over time and
  // the checkpoints; storage throughput, occupancy and the failures.
  grid->addWidget(summary, 0, 0, 1, 2);
  grid->addWidget(views_[1], 0, 2);
  grid->addWidget(views_[0], 1, 0, 1, 2);
  grid->addWidget(views_[4], 1, 2);
  grid->addWidget(views_[2], 2, 0);
  grid->addWidget(views_[3], 2, 1);
  grid->addWidget(views_[5], 2, 2);
  for (int c = 0; c < 3; ++c)
    grid->setColumnStretch(c, 1);
  for (int r = 0; r < 3; ++r)
    grid->setRowStretch(r, 1);
  clear();
}

void ResultCharts::clear() {
  for (auto* view : views_) {
    auto* old = view->chart();
    view->setChart(new_chart(view->objectName() + ": no run yet"));
    delete old;
  }
}

void ResultCharts::show_run(const RunResults& run) {
  run_ = run;
  const ChartParts parts[] = {gpu_time_chart(run_),  cost_chart(run_),       throughput_chart(run_),
                              occupancy_chart(run_), checkpoint_chart(run_), failures_chart(run_)};
  for (std::size_t i = 0; i < views_.size(); ++i) {
    auto* old = views_[i]->chart();
    views_[i]->setChart(parts[i].chart);
    delete old;
    hovers_[i] = parts[i].hover;
  }
}

QChart* ResultCharts::chart(const QString& title) const {
  for (auto* view : views_)
    if (view->objectName() == title)
      return view->chart();
  return nullptr;
}

QString ResultCharts::hover_text(const QString& title, double x) const {
  for (std::size_t i = 0; i < views_.size(); ++i)
    if (views_[i]->objectName() == title && hovers_[i])
      return hovers_[i](x);
  return {};
}

} // namespace aisim::gui
