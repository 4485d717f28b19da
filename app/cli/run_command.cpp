#include "app/cli/run_command.hpp"

#include "app/cli/report_command.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/results/output_set.hpp"
#include "sim/results/results.hpp"
#include "sim/results/summary.hpp"
#include "sim/results/timeseries_csv.hpp"
#include "sim/results/trace.hpp"

#include "models/common/json_reader.hpp"
#include "models/common/sha256.hpp"
#include "models/common/units.hpp"
#include "models/hardware/failure_spec.hpp"
#include "models/scenario/scenario_parser.hpp"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

namespace aisim::app {

double available_memory_bytes() {
  double available = 0;
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    double kib = 0;
    meminfo >> kib;
    if (key == "MemAvailable:") {
      available = kib * 1024;
      break;
    }
    meminfo.ignore(256, '\n');
  }
  // A container's limit (cgroup v2), when lower.
  std::ifstream max_file("/sys/fs/cgroup/memory.max"), current_file("/sys/fs/cgroup/memory.current");
  std::string max_text;
  double current = 0;
  if (max_file >> max_text && max_text != "max" && current_file >> current) {
    const double room = std::strtod(max_text.c_str(), nullptr) - current;
    if (room > 0 && (available == 0 || room < available))
      available = room;
  }
  return available;
}

// A model or a timeseries too large for this machine's memory is refused before the run (a 1 ms resolution over a
// week was killed for memory with no message, 0.5 us ended in bad_alloc; a million nodes take a gigabyte), naming
// the key to change. `aisim check` asks the same (its "ok" promised runs that `run` then refused).
void check_fits_in_memory(const models::Scenario& sc, models::Diagnostics& diag) {
  const double have = available_memory_bytes();
  constexpr double kShare = 0.8; // of the available memory; the results and the rest of the process need the rest
  double nodes = 0;
  size_t largest = 0;
  for (size_t g = 0; g < sc.node_groups.size(); ++g) {
    nodes += sc.node_groups[g].count;
    if (sc.node_groups[g].count > sc.node_groups[largest].count)
      largest = g;
  }
  const bool full = sc.simulation.fidelity == "full";
  // At full, the servers of a system that can fail (and a PFS's) stay apart, so a transfer there is a flow per
  // (leaf of a job's nodes, server), and SimGrid 3.32 walks every flow in flight at each completion
  // (sim/engine/README.md): the cost grows with the square of that count.
  std::string apart;
  for (size_t s = 0; s < sc.storage.size(); ++s)
    if (sc.storage[s].servers > 8 && (sc.storage[s].kind == "pfs" || sc.storage_can_fail(static_cast<int>(s))))
      apart += (apart.empty() ? "\"" : ", \"") + sc.storage[s].name + "\"";
  if (full && nodes > 256 && !apart.empty())
    diag.warn("/simulation/fidelity", "fidelity full with " + models::format_count(nodes) +
                                          " nodes keeps each server of " + apart +
                                          " apart (they can fail, or stripe as a PFS), a flow per leaf of nodes and "
                                          "server for every transfer, and its cost grows with the square of their "
                                          "count: expect a long run (fidelity aggregate models the same bandwidths "
                                          "with a flow per leaf class and server group; --max-wall bounds the run)");
  const double model = sim::estimate_model_memory_bytes(sc);
  if (have > 0 && model > kShare * have) {
    models::Scenario coarse = sc;
    coarse.simulation.fidelity = "aggregate";
    const double aggregate = sim::estimate_model_memory_bytes(coarse);
    const bool coarser_fits = full && aggregate <= kShare * have;
    const std::string where = coarser_fits || sc.node_groups.empty()
                                  ? "/simulation/fidelity"
                                  : "/cluster/node_groups/" + std::to_string(largest) + "/count";
    const std::string expected =
        coarser_fits ? "fidelity \"aggregate\", which needs about " + models::format_bytes(models::Bytes(aggregate))
                     : "fewer nodes, or a machine with more memory";
    char text[512];
    std::snprintf(text, sizeof text,
                  "the model of %s nodes at fidelity %s would need about %.3g GB of memory, more than this "
                  "machine's %.3g GB available can spare (expected %s)",
                  models::format_count(nodes).c_str(), sc.simulation.fidelity.c_str(), model / 1e9, have / 1e9,
                  expected.c_str());
    diag.error(where, text);
    return;
  }
  const double need = sim::estimate_timeseries_memory_bytes(sc);
  const double rows = sim::timeseries_rows(sc);
  const double budget = kShare * have - model;
  if (have <= 0 || need <= budget) {
    if (rows > 1e7) // fits, but a planner should know what is coming
      diag.warn("/simulation/timeseries_resolution", "timeseries.csv will have " + models::format_count(rows) +
                                                         " rows (about " + models::format_bytes(models::Bytes(need)) +
                                                         " of memory while it is built)");
    return;
  }
  // The finest resolution that fits, rounded up to 1, 2 or 5 times a power of ten.
  const double finest = sc.simulation.timeseries_resolution.value * need / budget;
  double nice = std::pow(10.0, std::floor(std::log10(finest)));
  for (const double m : {1.0, 2.0, 5.0, 10.0})
    if (m * nice >= finest) {
      nice *= m;
      break;
    }
  char text[512];
  std::snprintf(text, sizeof text,
                "the timeseries would have %.3g rows and need about %.3g GB of memory, more than this machine's %.3g "
                "GB available can spare (expected a resolution of at least %s for this duration)",
                rows, need / 1e9, have / 1e9, models::format_duration(models::Seconds(nice)).c_str());
  diag.error("/simulation/timeseries_resolution", text);
}

bool run_fits_in_memory(const models::Scenario& sc, const std::string& file) {
  models::Diagnostics diag(file);
  check_fits_in_memory(sc, diag);
  std::cerr << diag.format(true);
  if (!diag.has_errors())
    return true;
  std::cerr << "aisim: " << file << ": the run would not fit in memory; nothing was run or written\n";
  return false;
}

// --max-wall and --max-events as the engine takes them; nullopt (with the message on stderr) when one is not a
// positive duration or count.
std::optional<sim::RunLimits> parse_run_limits(const RunCommand& cmd) {
  sim::RunLimits limits;
  if (!cmd.max_wall.empty()) {
    std::string err;
    const auto v = models::parse_quantity(cmd.max_wall, models::Dimension::seconds, &err);
    if (!v || !(*v > 0) || *v > models::kSecondsPerYear) {
      std::cerr << "aisim: --max-wall " << cmd.max_wall << ": " << (err.empty() ? "out of range" : err)
                << " (expected a wall time above 0 and at most a year, like \"30min\")\n";
      return std::nullopt;
    }
    limits.max_wall_s = *v;
  }
  if (!cmd.max_events.empty()) {
    char* end = nullptr;
    const double v = std::strtod(cmd.max_events.c_str(), &end);
    if (end == cmd.max_events.c_str() || *end != '\0' || !(v >= 1) || v > 1e18 || v != std::floor(v)) {
      std::cerr << "aisim: --max-events " << cmd.max_events
                << ": expected a whole number of events from 1 to 1e18, like \"5000000\" or \"5e6\"\n";
      return std::nullopt;
    }
    limits.max_events = static_cast<uint64_t>(v);
  }
  return limits;
}

std::string default_run_folder(const RunCommand& cmd) {
  std::string stem = std::filesystem::path(cmd.scenario).stem().string();
  if (!cmd.sets.empty() || cmd.seed >= 0) {
    std::string what;
    for (const auto& s : cmd.sets)
      what += s + "\n";
    if (cmd.seed >= 0)
      what += "--seed " + std::to_string(cmd.seed) + "\n";
    stem += "+" + models::sha256_hex(what).substr(0, 8);
  }
  return (std::filesystem::path("results") / stem).string();
}

models::Json run_inputs(const RunCommand& cmd, const std::vector<std::string>& sets, const std::string& file_sha256) {
  models::Json overrides = models::Json::array();
  for (const auto& s : sets) {
    const auto eq = s.find('=');
    overrides.push_back({{"pointer", models::shown_as_utf8(s.substr(0, eq))},
                         {"value", eq == std::string::npos ? "" : models::shown_as_utf8(s.substr(eq + 1))}});
  }
  models::Json command = models::Json::array();
  for (const auto& a : cmd.command)
    command.push_back(models::shown_as_utf8(a));
  return {{"command", command},
          {"scenario_file", models::shown_as_utf8(cmd.scenario)},
          {"scenario_sha256", file_sha256},
          {"overrides", overrides}};
}

int run_command(const RunCommand& cmd) {
  const auto limits = parse_run_limits(cmd);
  if (!limits)
    return 2;
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
  if (!run_fits_in_memory(sc, cmd.scenario))
    return 2;
  const std::string out_dir = cmd.out_dir.empty() ? default_run_folder(cmd) : cmd.out_dir;
  // Locked and staged before the simulation: a folder another run is writing, one that cannot be written or
  // replaced, or something of the user's where a file of the set goes, is refused now rather than after hours of
  // simulating (an OutputRefused reaches main, which reports it: exit 2).
  std::vector<std::string> will_write{"results.json", "timeseries.csv"};
  if (!cmd.no_report)
    will_write.push_back("report.html");
  std::error_code ec;
  const auto trace_path = std::filesystem::weakly_canonical(std::filesystem::absolute(cmd.trace, ec), ec);
  const auto out_path = std::filesystem::weakly_canonical(std::filesystem::absolute(out_dir, ec), ec);
  const bool trace_in_set = !cmd.trace.empty() && trace_path.parent_path() == out_path;
  if (trace_in_set)
    will_write.push_back(trace_path.filename().string());
  sim::OutputSet set(out_dir, will_write);
  set.require_space(sim::estimate_output_bytes(sc));
  Progress progress(cmd.progress);
  const sim::RunOutput run = sim::run_simulation(
      sc, [&progress](double simulated_s, double fraction) { progress.update(simulated_s, fraction); }, *limits);
  progress.finish();
  // A stopped run's results are those of the period it simulated: the scenario with that duration.
  models::Scenario simulated_copy;
  if (run.stopped) {
    simulated_copy = sc;
    simulated_copy.simulation.duration.value = run.simulated_s;
  }
  const models::Scenario& simulated = run.stopped ? simulated_copy : sc;
  auto results = sim::build_results(simulated, run);
  results["provenance"].update(run_inputs(cmd, sets, loaded.file_sha256));
  const std::string results_path = (std::filesystem::path(out_dir) / "results.json").string();
  const std::string csv = sim::build_timeseries_csv(simulated, run);
  set.write("timeseries.csv", csv);
  set.write("results.json", results.dump(2) + "\n");
  // A trace inside the output folder is part of the set; one elsewhere is written on its own once the set is in.
  std::string trace;
  if (!cmd.trace.empty())
    trace = sim::build_trace(simulated, run, cmd.trace_max_events > 0 ? cmd.trace_max_events : sim::kTraceMaxEvents);
  if (trace_in_set)
    set.write(trace_path.filename().string(), trace);
  // The page is rendered from what was just written, as `aisim report` renders the folder's files later.
  const std::string report_path = cmd.no_report ? "" : (std::filesystem::path(out_dir) / "report.html").string();
  if (!cmd.no_report)
    set.write("report.html", report_page(results, csv));
  set.commit(); // an OutputError reaches main, which reports it (exit 1)
  if (!cmd.trace.empty() && !trace_in_set)
    sim::write_file_atomically(cmd.trace, trace);
  if (cmd.progress == ProgressMode::jsonl) {
    models::Json done{{"type", "done"}, {"results", results_path}};
    if (!cmd.no_report)
      done["report"] = report_path;
    std::printf("%s\n", done.dump().c_str());
  } else {
    std::fputs(sim::format_summary(results, results_path).c_str(), stdout);
    if (!cmd.no_report)
      std::printf("report: %s\n", report_path.c_str());
  }
  if (run.stopped) {
    std::cerr << "aisim: " << sim::stop_description(*run.stopped, run.simulated_s) << "\n";
    return kExitStopped;
  }
  return 0;
}

} // namespace aisim::app
