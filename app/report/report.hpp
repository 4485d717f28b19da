// The report a planner forwards: one self-contained HTML page (report.html) per results folder, and one comparing
// several. The page carries the folder's results.json and a time series reduced for drawing, and its own script
// (page.js) draws every table and chart from them with Chart.js, all inlined: it opens from a file, offline, and
// a folder can be re-rendered at any time (`aisim report DIR`). Nothing here computes a metric.
#pragma once

#include "models/common/json_reader.hpp"

#include <string>
#include <utility>
#include <vector>

namespace aisim::app {

// The time series as the page draws it: one array per column of timeseries.csv, at most `max_points` rows (when
// the run has more, each point is the mean of consecutive bins and the page says so). Throws std::runtime_error
// naming the line when the text is not aisim's CSV.
models::Json timeseries_for_page(const std::string& csv, std::size_t max_points = 2000);

// One run's page.
std::string render_report(const models::Json& results, const models::Json& timeseries);

// Several runs side by side for `aisim compare`: the comparison (app/report/compare.hpp) and each run's label
// (its folder) and results.
std::string render_comparison(const models::Json& comparison,
                              const std::vector<std::pair<std::string, models::Json>>& runs);

// A replica set's page (report.html of a `--replicas` folder): each metric's mean ± 95 % half-width and range as the
// summary prints them (`rows`, sim/results/replicas.hpp's replica_rows), and the spread drawn per metric.
std::string render_replicas(const models::Json& aggregate, const models::Json& rows);

// A sweep's page (sweep.html) from its sweep.json: the Pareto front, each metric against each varied value, the
// points and the failures. Past 20,000 points it carries the front and an even spread of the rest, and says so.
std::string render_sweep(const models::Json& sweep);

} // namespace aisim::app
