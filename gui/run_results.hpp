// What one finished run produced, read back from its results.json and timeseries.csv alone (the same files a
// planner gets from the CLI), and the headline metrics the window shows and compares against a baseline.
#pragma once

#include "models/common/json_reader.hpp"

#include <QString>
#include <QStringList>

#include <optional>
#include <vector>

namespace aisim::gui {

struct Timeseries {
  QStringList columns;                     // the CSV header: time_s first
  std::vector<std::vector<double>> values; // values[column][row]
  // The column's values, or nullptr when the run has no such column.
  const std::vector<double>* column(const QString& name) const;
};

struct RunResults {
  QString dir;
  models::Json results;
  Timeseries timeseries;
};

// Reads DIR/results.json and DIR/timeseries.csv; on failure says which file and why in `error`.
std::optional<RunResults> load_run_results(const QString& dir, QString* error);

// A number the planner reads first. `higher_is_better` colours a change against the baseline.
struct Metric {
  QString name;
  double value = 0.0;
  QString unit; // "%", "s", "GPU-h", "$", "$/GPU-h", "events"
  bool higher_is_better = false;
  // Spend is shown but not coloured: it falls when GPUs stall (less energy), so a change that wastes GPUs would
  // look green. The cost with lost GPU time is what is coloured.
  bool ranked = true;
};

std::vector<Metric> headline_metrics(const models::Json& results);
// The value as the window prints it, with its unit ("99.86 %", "2.45 s", "$21,676,464").
QString format_metric(const Metric& m);

// A metric of this run against the pinned baseline's: the change as printed ("-0.27 pp", "+2.45 s (+100.0 %)",
// "+$1,234 (+5.6 %)"; percentages change in percentage points) and whether it is better (+1), worse (-1) or the
// same as far as the printed values show (0).
struct MetricChange {
  QString text;
  int better = 0;
};
MetricChange compare_metric(const Metric& now, const Metric& baseline);

} // namespace aisim::gui
