#include "sim/cli/run_command.hpp"

#include "sim/cli/report_command.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/results/results.hpp"
#include "sim/results/trace.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>

namespace aisim::sim {

int run_command(const RunCommand& cmd) {
  if (cmd.replicas > 0 && !cmd.trace.empty()) {
    std::cerr << "aisim: --trace records one run; run the seed you want to see without --replicas\n";
    return 2;
  }
  if (cmd.replicas > 0)
    return run_replicas(cmd);
  std::vector<std::string> sets = cmd.sets;
  if (cmd.seed >= 0)
    sets.push_back("/simulation/seed=" + std::to_string(cmd.seed));
  auto loaded = models::load_scenario(cmd.scenario, sets);
  std::cerr << loaded.diagnostics.format(true);
  if (!loaded.scenario) {
    std::cerr << "aisim: " << cmd.scenario << ": the scenario has errors; nothing was run or written\n";
    return 2;
  }
  const auto& sc = *loaded.scenario;
  const std::string out_dir =
      cmd.out_dir.empty() ? (std::filesystem::path("results") / std::filesystem::path(cmd.scenario).stem()).string()
                          : cmd.out_dir;
  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) {
    std::cerr << "aisim: cannot create output folder " << out_dir << ": " << ec.message() << "\n";
    return 2;
  }
  Progress progress(cmd.progress);
  const RunOutput run =
      run_simulation(sc, [&progress](double simulated_s, double fraction) { progress.update(simulated_s, fraction); });
  progress.finish();
  const auto results = build_results(sc, run);
  const std::string results_path = (std::filesystem::path(out_dir) / "results.json").string();
  const std::string csv = build_timeseries_csv(sc, run);
  write_file_atomically((std::filesystem::path(out_dir) / "timeseries.csv").string(), csv);
  write_file_atomically(results_path, results.dump(2) + "\n");
  if (!cmd.trace.empty())
    write_file_atomically(cmd.trace,
                          build_trace(sc, run, cmd.trace_max_events > 0 ? cmd.trace_max_events : kTraceMaxEvents));
  // The page is rendered from what was just written, as `aisim report` renders the folder's files later.
  const std::string report_path = cmd.no_report ? "" : (std::filesystem::path(out_dir) / "report.html").string();
  if (!cmd.no_report)
    write_report(results, csv, report_path);
  if (cmd.progress == ProgressMode::jsonl) {
    models::Json done{{"type", "done"}, {"results", results_path}};
    if (!cmd.no_report)
      done["report"] = report_path;
    std::printf("%s\n", done.dump().c_str());
  } else {
    std::fputs(format_summary(results, results_path).c_str(), stdout);
    if (!cmd.no_report)
      std::printf("report: %s\n", report_path.c_str());
  }
  return 0;
}

} // namespace aisim::sim
