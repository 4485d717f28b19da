// A sweep's results as a table: the headline metrics of each point (read from its results.json, a single run or a
// replica set), the Pareto front of cost against utilization (and risk where every point has it), and the table
// written as sweep.csv (plain decimals, units in the column names) and sweep.json.
#pragma once

#include "app/sweep/sweep_plan.hpp"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace aisim::app {

enum class Better { higher, lower, neither };

struct SweepMetric {
  std::string column; // its unit in the name, as in results.json: total_usd, checkpoint_write_p99_s
  std::string label;  // for people: "GPU utilization"
  Better better = Better::neither;
};

// The headline metrics, in column order. A replica set adds the 95% half-widths of utilization and cost.
const std::vector<SweepMetric>& sweep_metrics(bool replicas);

// The headline metrics of one point's results.json; a metric the run does not have (no checkpoints, no priced
// data) is absent.
std::map<std::string, double> headline_metrics(const models::Json& results);

struct SweepRow {
  std::string folder;  // relative to the sweep's folder
  std::string status;  // "ok", "failed" or "not_run"
  std::string outcome; // "finished", "exited 2", "killed by signal 9 (Killed)", "not run (interrupted)"
  std::string error;   // the failed run's last words (from its log), empty when ok
  double wall_s = 0;   // wall-clock, not part of the comparable outputs
  std::map<std::string, double> metrics;
  bool pareto = false;
};

// The objectives the front is taken over: utilization up, total cost down, and expected data-loss dollars a year
// down when every finished point has them.
std::vector<std::string> pareto_objectives(const std::vector<SweepRow>& rows);

// Marks rows[i].pareto on the finished points no other finished point dominates (at least as good in every
// objective, better in one). Equal points are all on the front.
void mark_pareto(std::vector<SweepRow>& rows, const std::vector<std::string>& objectives);

// sweep.csv: point, status, each axis (its numbers under "POINTER [unit]" where the axis has one unit, else the
// values as given; a sub-object by its "name" or its place in the list), the metrics, pareto, error.
std::string sweep_csv(const SweepPlan& plan, const std::vector<SweepRow>& rows, bool replicas);

// A number as a plain decimal with no exponent, exact to the double's shortest round trip.
std::string plain_number(double v);

// How an axis value shows in tables: its number when the axis has a unit, a sub-object's "name", else its text.
std::string axis_label(const SweepAxis& axis, uint32_t value_index);

// An axis's column header: its pointer, with " [unit]" when its values are numbers with a unit.
std::string axis_header(const SweepAxis& axis);

// A metric's value for people, by the unit its column name carries: "99.86 %", "$19,888,513", "2.45 s", "1.2 TB".
std::string format_metric(const std::string& column, double v);

} // namespace aisim::app
