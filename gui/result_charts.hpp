// The run's answer as pictures, drawn from results.json and timeseries.csv alone: GPU time over time with the stall
// causes stacked, storage throughput and occupancy per system, checkpoint write times per job, the cost breakdown and
// the GPU-hours lost to failures. Hovering a chart shows the values under the cursor with their units.
#pragma once

#include "gui/run_results.hpp"

#include <QString>
#include <QWidget>

#include <array>
#include <functional>
#include <vector>

class QChart;
class QChartView;

namespace aisim::gui {

class ResultCharts : public QWidget {
public:
  // `summary` (the window's table of headline numbers) takes the top-left cell, beside GPU time over time.
  explicit ResultCharts(QWidget* summary, QWidget* parent = nullptr);
  // Replaces every chart with the run's.
  void show_run(const RunResults& run);
  void clear();

  // The charts by title ("GPU time", "storage throughput", "storage occupancy", "checkpoint writes", "cost",
  // "failures"), for the tests; nullptr when there is none.
  QChart* chart(const QString& title) const;
  // What hovering shows at a point of a chart, in value coordinates ("day 3.2: computing 99.9 %, ...").
  QString hover_text(const QString& title, double x) const;

private:
  std::vector<QChartView*> views_;
  std::array<std::function<QString(double)>, 6> hovers_;
  RunResults run_; // the charts' hover texts read its columns
};

} // namespace aisim::gui
