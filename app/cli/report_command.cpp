#include "app/cli/report_command.hpp"

#include "app/report/compare.hpp"
#include "app/report/report.hpp"
#include "sim/results/replicas.hpp"
#include "sim/results/results.hpp"
#include "sim/results/output_set.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace aisim::app {

namespace fs = std::filesystem;

FolderPage render_folder_page(const std::string& dir) {
  FolderPage out;
  // A sweep's folder holds sweep.json (its points have their own folders, rendered one by one).
  const auto sweep_path = fs::path(dir) / "sweep.json";
  if (fs::exists(sweep_path) && !fs::exists(fs::path(dir) / "results.json")) {
    std::ifstream in(sweep_path, std::ios::binary);
    const auto doc = models::Json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || doc.value("kind", "") != "sweep" || !doc.contains("points") ||
        !doc["points"].is_array()) {
      out.why = sweep_path.string() + ": not a sweep document that aisim wrote (expected \"kind\": \"sweep\")";
      return out;
    }
    try {
      out.html = render_sweep(doc);
    } catch (const models::Json::exception& e) {
      // A hand-edited document with a value of the wrong type somewhere the page reads (found by tests/fuzz).
      out.why = sweep_path.string() + ": a value aisim cannot read (" + e.what() + ")";
      return out;
    }
    out.file_name = "sweep.html";
    return out;
  }
  const auto results = sim::read_results(dir, &out.why);
  if (results.is_discarded())
    return out;
  // A replica set (`aisim run --replicas`): its statistics, no time series of its own.
  if (results.is_object() && results.value("kind", "") == "replicas") {
    try {
      out.html = render_replicas(results, sim::replica_rows(results));
    } catch (const models::Json::exception& e) {
      out.why = (fs::path(dir) / "results.json").string() + ": a value aisim cannot read (" + e.what() + ")";
      return out;
    }
    out.file_name = "report.html";
    return out;
  }
  const auto csv_path = fs::path(dir) / "timeseries.csv";
  std::ifstream in(csv_path, std::ios::binary);
  std::error_code ec;
  const auto size = fs::file_size(csv_path, ec);
  std::string csv(ec ? 0 : size, '\0');
  if (!in || ec || !in.read(csv.data(), static_cast<std::streamsize>(csv.size()))) {
    out.why = csv_path.string() + ": cannot read it (a results folder has results.json and timeseries.csv)";
    return out;
  }
  try {
    out.html = report_page(results, csv);
  } catch (const models::Json::exception& e) {
    out.why = (fs::path(dir) / "results.json").string() + ": a value aisim cannot read (" + e.what() + ")";
    return out;
  } catch (const std::runtime_error& e) {
    out.why = csv_path.string() + ":" + e.what();
    return out;
  }
  out.file_name = "report.html";
  return out;
}

std::string write_folder_report(const std::string& dir, const std::string& out) {
  const auto page = render_folder_page(dir);
  if (!page.why.empty())
    return page.why;
  sim::write_file_atomically(out.empty() ? (fs::path(dir) / page.file_name).string() : out, page.html);
  return "";
}

std::string report_page(const models::Json& results, const std::string& csv) {
  return render_report(results, timeseries_for_page(csv));
}

int report_command(const ReportCommand& cmd) {
  if (const auto why = write_folder_report(cmd.dir, cmd.out); !why.empty()) {
    std::cerr << "aisim report: " << why << "\n";
    return 2;
  }
  const bool sweep = fs::exists(fs::path(cmd.dir) / "sweep.json") && !fs::exists(fs::path(cmd.dir) / "results.json");
  std::printf(
      "report: %s\n",
      (cmd.out.empty() ? (fs::path(cmd.dir) / (sweep ? "sweep.html" : "report.html")).string() : cmd.out).c_str());
  return 0;
}

int compare_command(const CompareCommand& cmd) {
  std::vector<std::pair<std::string, models::Json>> runs;
  bool bad = false;
  for (const auto& dir : cmd.dirs) {
    std::string why;
    auto r = sim::read_results(dir, &why);
    if (r.is_discarded()) {
      std::cerr << "aisim compare: " << why << "\n";
      bad = true;
      continue;
    }
    runs.emplace_back(dir, std::move(r));
  }
  if (bad)
    return 2;
  const auto comparison = compare_runs(runs);
  const std::string out_dir = cmd.out_dir.empty() ? (fs::path("results") / "compare").string() : cmd.out_dir;
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "aisim compare: cannot create output folder " << out_dir << ": " << ec.message() << "\n";
    return 2;
  }
  const auto page = (fs::path(out_dir) / "compare.html").string();
  sim::write_file_atomically(page, render_comparison(comparison, runs));
  std::fputs(format_comparison(comparison).c_str(), stdout);
  std::printf("\ncomparison: %s\n", page.c_str());
  return 0;
}

} // namespace aisim::app
