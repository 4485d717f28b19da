// The charts drawn from a run's files: GPU time stacked to 100 %, per-system throughput and occupancy with hover
// texts in units, checkpoint bars equal to results.json, the cost bars summing to the total, and a window grab that
// shows them in colour.
#include "gui/main_window.hpp"
#include "gui/result_charts.hpp"
#include "tests/gui/session.hpp"

#include <catch2/catch.hpp>

#include <QAbstractBarSeries>
#include <QAreaSeries>
#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QImage>
#include <QLineSeries>
#include <QSet>

using namespace aisim::gui;

namespace {

const QString source_dir = AISIM_SOURCE_DIR;

QBarSet* bar_set(QChart* chart, const QString& label) {
  for (auto* s : chart->series())
    if (auto* bars = qobject_cast<QAbstractBarSeries*>(s))
      for (auto* set : bars->barSets())
        if (set->label() == label)
          return set;
  return nullptr;
}

// The value a bar set shows for a category, found by the category's name on the chart's axis.
double bar_value(QChart* chart, QBarSet* set, const QString& category) {
  for (auto* axis : chart->axes())
    if (auto* names = qobject_cast<QBarCategoryAxis*>(axis)) {
      const int i = static_cast<int>(names->categories().indexOf(category));
      REQUIRE(i >= 0);
      return set->at(i);
    }
  FAIL("no category axis");
  return 0;
}

} // namespace

TEST_CASE("charts: GPU time stacks its causes to 100 % at every time", "[gui]") {
  Session o(source_dir + "/scenarios/failures.json", true);
  auto* chart = o.window.charts().chart("GPU time");
  REQUIRE(chart);
  QStringList names;
  for (auto* s : chart->series())
    names << s->name();
  CHECK(names == QStringList{"computing", "data stall", "checkpoint stall", "failure", "idle"});
  auto* top = qobject_cast<QAreaSeries*>(chart->series().back());
  REQUIRE(top);
  const auto points = top->upperSeries()->points();
  REQUIRE(points.size() == 2 * static_cast<qsizetype>(o.window.results()->timeseries.column("time_s")->size()));
  for (const auto& p : points)
    REQUIRE(p.y() == Approx(100.0).margin(0.01));
  // The run had failures: the failure layer is not empty.
  auto* failure = qobject_cast<QAreaSeries*>(chart->series()[3]);
  double thickest = 0.0;
  const auto upper = failure->upperSeries()->points(), lower = failure->lowerSeries()->points();
  for (qsizetype i = 0; i < upper.size(); ++i)
    thickest = std::max(thickest, upper[i].y() - lower[i].y());
  CHECK(thickest > 1.0);
  // Hovering names the interval and every cause in %.
  const QString tip = o.window.charts().hover_text("GPU time", 2.5);
  CHECK(tip.startsWith("2.50 d to 2.54 d"));
  CHECK(tip.contains("computing: "));
  CHECK(tip.contains(" %"));
}

TEST_CASE("charts: storage throughput and occupancy per system, hover in units", "[gui]") {
  Session o(source_dir + "/scenarios/multi-tier.json", true);
  auto* throughput = o.window.charts().chart("storage throughput");
  REQUIRE(throughput);
  QStringList names;
  for (auto* s : throughput->series())
    names << s->name();
  CHECK(names.contains("warm write"));
  CHECK(names.contains("cold write"));
  auto* occupancy = o.window.charts().chart("storage occupancy");
  REQUIRE(occupancy);
  CHECK(occupancy->series().size() == 3);
  // The occupancy line is used / usable capacity, in %.
  auto* hot = qobject_cast<QLineSeries*>(occupancy->series().front());
  REQUIRE(hot);
  const double capacity = o.number("/storage/0/capacity_bytes");
  const double used0 = o.window.results()->timeseries.column("hot_used_bytes")->front();
  CHECK(hot->points().front().y() == Approx(100.0 * used0 / capacity));
  const QString tip = o.window.charts().hover_text("storage occupancy", 10.0);
  CHECK(tip.contains("hot: "));
  CHECK(tip.contains(" of "));
  CHECK(tip.contains("TB"));
  CHECK(o.window.charts().hover_text("storage throughput", 10.0).contains("B/s"));
}

TEST_CASE("charts: checkpoint bars and cost bars are results.json's numbers", "[gui]") {
  Session o(source_dir + "/scenarios/default.json", true);
  auto* ckpt = o.window.charts().chart("checkpoint writes");
  REQUIRE(ckpt);
  auto* mean = bar_set(ckpt, "mean");
  auto* p99 = bar_set(ckpt, "p99");
  REQUIRE(mean);
  REQUIRE(p99);
  CHECK(mean->at(0) == Approx(o.number("/jobs/0/checkpoints/write_s/mean")));
  CHECK(p99->at(0) == Approx(o.number("/jobs/0/checkpoints/write_s/p99")));
  auto* cost = o.window.charts().chart("cost");
  REQUIRE(cost);
  auto* usd = bar_set(cost, "$");
  REQUIRE(usd);
  REQUIRE(usd->count() >= 3);
  // The bars are in millions of dollars here; capex written off, maintenance and energy make the total (the
  // default scenario has no object tier to bill services).
  const double scale = 1e6;
  const double capex = bar_value(cost, usd, "capex"), maintenance = bar_value(cost, usd, "maintenance"),
               energy = bar_value(cost, usd, "energy");
  CHECK((capex + maintenance + energy) * scale == Approx(o.number("/cost/total_usd")));
  CHECK(capex * scale == Approx(o.number("/cost/capex_amortized_usd")));
  CHECK(energy * scale == Approx(o.number("/cost/energy_usd")));
  // Listed top-down in the order they add up: the first category is the top row, Qt's last.
  auto* names = qobject_cast<QBarCategoryAxis*>(cost->axes(Qt::Vertical).front());
  REQUIRE(names);
  CHECK(names->categories().back() == "capex");
}

TEST_CASE("charts: the window shows them drawn, in colour", "[gui]") {
  Session o(source_dir + "/scenarios/failures.json", true);
  const QImage image = o.window.grab().toImage().convertToFormat(QImage::Format_RGB32);
  QSet<QRgb> colours;
  qint64 computing = 0, failure = 0;
  for (int y = 0; y < image.height(); ++y) {
    const auto* line = reinterpret_cast<const QRgb*>(image.constScanLine(y));
    for (int x = 0; x < image.width(); ++x) {
      colours.insert(line[x] & 0xffffff);
      computing += (line[x] & 0xffffff) == 0x009E73;
      failure += (line[x] & 0xffffff) == 0xD55E00;
    }
  }
  CHECK(colours.size() > 200);
  // The stacked GPU time: a large area of the computing colour and visible failure bands.
  CHECK(computing > 20000);
  CHECK(failure > 500);
}
