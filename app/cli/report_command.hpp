// `aisim report DIR`: (re)renders DIR/report.html from the folder's results.json and timeseries.csv, as `aisim run`
// does after each run (a sweep's folder: sweep.html from its sweep.json). `aisim compare A B [...]`: the metrics the
// runs share side by side on the terminal and as an HTML page. Exit 0 on success, 2 on bad input (a folder that is not
// a results folder, a results.json of another schema version), naming the path; nothing is written then.
#pragma once

#include "models/common/json_reader.hpp"

#include <string>
#include <vector>

namespace aisim::app {

struct ReportCommand {
  std::string dir;
  std::string out; // empty: DIR/report.html
};

int report_command(const ReportCommand& cmd);

struct CompareCommand {
  std::vector<std::string> dirs;
  std::string out_dir; // empty: results/compare/
};

int compare_command(const CompareCommand& cmd);

// A folder's page as `aisim report` renders it, without writing it: report.html from results.json and
// timeseries.csv, or sweep.html from a sweep's sweep.json. `why` says what was wrong (naming the file) when empty.
struct FolderPage {
  std::string html;
  std::string file_name; // "report.html" or "sweep.html"
  std::string why;       // "" when html was rendered
};
FolderPage render_folder_page(const std::string& dir);
// Renders `dir`'s report from its files into `out` (empty: dir/report.html). Returns "" or what was wrong.
std::string write_folder_report(const std::string& dir, const std::string& out = "");

// A run's report.html from its results.json and timeseries.csv, as they are in memory or on disk: the run renders
// what it has just written, `aisim report` what it reads, the same way. Throws std::runtime_error ("line N: ...")
// when the CSV is not aisim's.
std::string report_page(const models::Json& results, const std::string& csv);

} // namespace aisim::app
