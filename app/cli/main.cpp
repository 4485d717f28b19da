// The aisim command line: run a scenario, run the validation cases, calibrate a drive.
#include "app/cli/calibrate_command.hpp"
#include "app/cli/check_command.hpp"
#include "app/cli/report_command.hpp"
#include "app/cli/run_command.hpp"
#include "app/cli/size_command.hpp"
#include "app/cli/sweep_command.hpp"
#include "app/cli/validate_command.hpp"
#include "app/executor/distributed.hpp"
#include "sim/engine/simgrid_internals.hpp"
#include "sim/results/output_set.hpp"
#include "sim/results/version_info.hpp"

#include <CLI/CLI.hpp>
#include <csignal>

#include <exception>
#include <iostream>
#include <map>

namespace aisim::app {
namespace {

const std::map<std::string, ProgressMode> kProgressModes{
    {"auto", ProgressMode::automatic}, {"none", ProgressMode::none}, {"jsonl", ProgressMode::jsonl}};

// Every subcommand's flags, each bound to the field of its command that holds it. One function per subcommand
// (the small ones together), added in the order `aisim --help` lists them.
struct Commands {
  RunCommand run;
  std::string run_progress = "auto";
  SweepCommand sweep;
  std::string sweep_progress = "auto";
  SizeCommand size;
  CheckCommand check;
  ValidateCommand validate;
  ReportCommand report;
  CompareCommand compare;
  CalibrateCommand calibrate;
};

void add_run(CLI::App& app, RunCommand& run, std::string& progress) {
  auto* run_cmd = app.add_subcommand("run", "Simulate a scenario; write results.json and timeseries.csv");
  run_cmd->add_option("scenario", run.scenario, "Scenario file (JSON)")->required();
  run_cmd->add_option("--out", run.out_dir, "Output folder (default: results/<scenario file stem>/)");
  run_cmd->add_option("--set", run.sets, "Override a value: /json/pointer=value (repeatable)")
      ->allow_extra_args(false); // one value per --set, so a SCENARIO after it stays the scenario
  run_cmd->add_option("--seed", run.seed, "Random seed (same as --set /simulation/seed=N)")
      ->check(CLI::NonNegativeNumber);
  run_cmd
      ->add_option("--replicas", run.replicas,
                   "Run N replicas (seeds SEED, SEED+1, ...) in parallel and report each metric's mean with its "
                   "95% confidence interval")
      ->check(CLI::Range(1, 10000));
  run_cmd->add_option("-j,--jobs", run.jobs, "Replicas at once (default: the machine's cores)")
      ->check(CLI::Range(1, 4096));
  run_cmd->add_option("--trace", run.trace,
                      "Write a Chrome/Perfetto trace of the run (jobs, phases, checkpoints, copies, failures, "
                      "rebuilds) to this file; opens in ui.perfetto.dev");
  run_cmd
      ->add_option("--trace-max-events", run.trace_max_events,
                   "Past this many events the trace merges each track's events per stretch of time (default 200000)")
      ->check(CLI::Range(static_cast<std::size_t>(10), static_cast<std::size_t>(100000000)));
  run_cmd->add_option("--max-wall", run.max_wall,
                      "Stop after this much wall time (\"30min\"): the results cover the period simulated until then, "
                      "marked as stopped (exit 3)");
  run_cmd->add_option("--max-events", run.max_events,
                      "Stop after this many events (\"5e6\"): the results cover the period simulated until then, "
                      "marked as stopped (exit 3)");
  run_cmd->add_flag("--no-report", run.no_report,
                    "Do not write report.html (`aisim report DIR` renders it later from results.json and "
                    "timeseries.csv)");
  run_cmd
      ->add_option("--progress", progress,
                   "Progress: auto (a bar on a terminal), none, or jsonl (one JSON line per update)")
      ->check(CLI::IsMember({"auto", "none", "jsonl"}));
}

void add_sweep(CLI::App& app, SweepCommand& sweep, std::string& sweep_progress) {
  auto* sweep_cmd = app.add_subcommand(
      "sweep", "Run a scenario over a grid or sample of values (each point an ordinary run); write sweep.csv and "
               "sweep.json with the Pareto front of cost against utilization");
  sweep_cmd->add_option("scenario", sweep.scenario, "Scenario file (JSON)")->required();
  auto* vary_opt =
      sweep_cmd
          ->add_option("--vary", sweep.vary,
                       "POINTER=VALUES (repeatable, one per axis): a list 1,2,4,8; a range A..B:STEP such as 8..64:8 "
                       "or 400Gbps..1600Gbps:x2; a JSON array of values or sub-objects; or @FILE holding one")
          ->allow_extra_args(false); // one value per --vary, so a SCENARIO after it stays the scenario
  auto* sens_opt = sweep_cmd->add_flag(
      "--sensitivity", sweep.sensitivity,
      "Instead of --vary: every uncertain input (bandwidths, operation rates, prices, failure rates; the scenario's "
      "`uncertainty` low/high where given) at low and high, the others nominal, ranked by how much each moves "
      "--metric");
  vary_opt->excludes(sens_opt);
  sweep_cmd->add_option("--range", sweep.range, "With --sensitivity: the low/high of inputs without their own (±20%)")
      ->needs(sens_opt);
  sweep_cmd
      ->add_option(
          "--metric", sweep.metric,
          "With --sensitivity: the sweep.csv metric to rank by (default total_with_lost_gpu_usd, the money objective)")
      ->needs(sens_opt);
  sweep_cmd->add_option("--set", sweep.sets, "Override a value in every point: /json/pointer=value (repeatable)")
      ->allow_extra_args(false);
  sweep_cmd->add_option("--sample", sweep.sample, "grid (every combination, the default), random:N or latin:N");
  sweep_cmd->add_option("--sample-seed", sweep.sample_seed, "Seed of random and latin samples (default 1)");
  sweep_cmd->add_option("--seed", sweep.seed, "Random seed of every run (default: the scenario's)")
      ->check(CLI::NonNegativeNumber);
  sweep_cmd
      ->add_option("--replicas", sweep.replicas,
                   "Run each point N times (seeds SEED, SEED+1, ...); its metrics are the means, with 95% half-widths")
      ->check(CLI::Range(1, 10000));
  sweep_cmd->add_option("-j,--jobs", sweep.jobs, "Runs at once (default: the machine's cores)")
      ->check(CLI::Range(1, 4096));
  sweep_cmd->add_option("--out", sweep.out_dir, "Output folder (default: results/<scenario file stem>-sweep/)");
  sweep_cmd->add_flag("--resume", sweep.resume,
                      "Finish the sweep in --out: run only the points without a result (same arguments required)");
  sweep_cmd->add_flag("--yes", sweep.yes, "Allow more than 1,000,000 points");
  sweep_cmd
      ->add_option("--progress", sweep_progress,
                   "Progress: auto (a bar on a terminal), none, or jsonl (one JSON line per finished point)")
      ->check(CLI::IsMember({"auto", "none", "jsonl"}));
}

void add_size(CLI::App& app, SizeCommand& size) {
  auto* size_cmd = app.add_subcommand(
      "size", "Find the cheapest value of a parameter (or combination) meeting a target, or the largest that still "
              "meets it; bisection where the metric is monotone (checked), else every value");
  size_cmd->add_option("scenario", size.scenario, "Scenario file (JSON)")->required();
  size_cmd->add_option("--vary", size.vary, "POINTER=RANGE (repeatable): the values to size over, as for sweep")
      ->required()
      ->allow_extra_args(false);
  size_cmd
      ->add_option("--target", size.target,
                   "METRIC>=VALUE or METRIC<=VALUE, a sweep.csv metric (gpu_utilization_fraction>=95%, "
                   "checkpoint_write_p99_s<=30)")
      ->required();
  size_cmd->add_option("--minimize", size.minimize, "cost (the default): the cheapest value meeting the target");
  size_cmd->add_option("--maximize", size.maximize,
                       "A varied POINTER: its largest value that still meets the target (accelerators supported)");
  size_cmd->add_option("--set", size.sets, "Override a value in every run: /json/pointer=value (repeatable)")
      ->allow_extra_args(false);
  size_cmd->add_option("--seed", size.seed, "Random seed of every run (default: the scenario's)")
      ->check(CLI::NonNegativeNumber);
  size_cmd->add_option("-j,--jobs", size.jobs, "Runs at once (default: the machine's cores)")
      ->check(CLI::Range(1, 4096));
  size_cmd->add_option("--out", size.out_dir, "Output folder (default: results/<scenario file stem>-size/)");
}

// check, validate, report and compare: a scenario or results folders in, few flags.
void add_small_commands(CLI::App& app, Commands& c) {
  auto* check_cmd =
      app.add_subcommand("check", "Check a scenario as `run` would, without simulating (exit 0 usable, 2 errors)");
  check_cmd->add_option("scenario", c.check.scenario, "Scenario file (JSON)")->required();
  check_cmd->add_option("--set", c.check.sets, "Override a value: /json/pointer=value (repeatable)")
      ->allow_extra_args(false);
  check_cmd->add_flag("--json", c.check.json,
                      "Print one JSON document: errors and warnings with their pointers, the resolved scenario");

  auto* val_cmd = app.add_subcommand("validate", "Run the validation cases and print a table of model vs reference");
  val_cmd->add_option("--case", c.validate.only_case, "Run only this case (a folder name under validation/)");
  val_cmd->add_option("--dir", c.validate.dir,
                      "Folder of validation cases (default: ./validation, else the source tree's)");

  auto* report_cmd = app.add_subcommand("report", "Render a results folder's report.html again from its files");
  report_cmd->add_option("dir", c.report.dir, "Results folder (results.json and timeseries.csv)")->required();
  report_cmd->add_option("--out", c.report.out, "Page to write (default: DIR/report.html)");

  auto* compare_cmd =
      app.add_subcommand("compare", "Compare results folders side by side: a table on the terminal and an HTML page");
  compare_cmd->add_option("dirs", c.compare.dirs, "Two or more results folders")->required()->expected(2, 64);
  compare_cmd->add_option("--out", c.compare.out_dir, "Folder for compare.html (default: results/compare/)");
}

void add_calibrate(CLI::App& app, CalibrateCommand& calibrate) {
  auto* cal_cmd = app.add_subcommand(
      "calibrate", "Measure a drive with the io_uring probe and fit an aisim.drive/v1 model (or --refit saved data)");
  cal_cmd->add_option("target", calibrate.target,
                      "File (created with --size if missing) or block device to measure; read-only unless --write");
  cal_cmd->add_option("--out", calibrate.out, "Drive model to write; NAME.raw.json and NAME.fit.json go beside it")
      ->required();
  cal_cmd->add_flag("--quick", calibrate.quick, "Few, short points: under a minute, for a first look and tests");
  cal_cmd->add_option("--size", calibrate.size,
                      "Create the target file at this size (\"4GiB\"), filled with incompressible data");
  cal_cmd->add_flag("--write", calibrate.write, "Also measure writes (overwrites the target's data)");
  cal_cmd->add_flag("--allow-destructive", calibrate.allow_destructive,
                    "Required with --write on a block device; a mounted or busy device is refused anyway");
  cal_cmd->add_option("--refit", calibrate.refit, "Fit again from a saved NAME.raw.json instead of measuring");
  cal_cmd
      ->add_option("--point", calibrate.points,
                   "Measure only this point, OP:PATTERN:BS:QD (e.g. read:random:4KiB:32; repeatable); writes the "
                   "raw measurements to --out, no model")
      ->allow_extra_args(false); // one value per --point, so a TARGET after it stays the target
  cal_cmd->add_option("--runtime", calibrate.runtime, "Measured time per point (\"10s\"; default 5s with --point)");
}

// Runs the parsed subcommand; what it throws becomes a line on stderr and an exit status.
int dispatch(const CLI::App& app, Commands& c, int argc, char** argv) {
  try {
    for (const CLI::App* sub : app.get_subcommands()) {
      const std::string& name = sub->get_name();
      if (name == "run") {
        c.run.progress = kProgressModes.at(c.run_progress);
        c.run.self = argv[0];
        c.run.command.assign(argv, argv + argc);
        return run_command(c.run);
      }
      if (name == "sweep") {
        c.sweep.progress = kProgressModes.at(c.sweep_progress);
        c.sweep.self = argv[0];
        return sweep_command(c.sweep);
      }
      if (name == "size") {
        c.size.self = argv[0];
        return size_command(c.size);
      }
      if (name == "check")
        return check_command(c.check);
      if (name == "report")
        return report_command(c.report);
      if (name == "compare")
        return compare_command(c.compare);
      if (name == "calibrate")
        return calibrate_command(c.calibrate);
      if (name == "validate") {
        c.validate.self = argv[0];
        return validate_command(c.validate);
      }
    }
  } catch (const aisim::sim::OutputRefused& e) { // found before anything ran: bad input, nothing written
    std::cerr << "aisim: " << e.what() << "\n";
    return 2;
  } catch (const aisim::sim::OutputError& e) { // a write that failed after the run: the user's to fix, not a bug
    std::cerr << "aisim: " << e.what() << "\n";
    return 1;
  } catch (const aisim::sim::SimGridMismatch& e) { // the SimGrid installed is not the one aisim was checked on
    std::cerr << "aisim: " << e.what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "aisim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}

int cli_main(int argc, char** argv) {
  CLI::App app{"aisim: a discrete-event simulator of AI storage clusters"};
  app.set_version_flag("--version", std::string("aisim ") + aisim::sim::kAisimVersion + " (" + aisim::sim::kGitCommit +
                                        "), SimGrid " + aisim::sim::simgrid_version_found());
  app.require_subcommand(1);
  Commands c;
  add_run(app, c.run, c.run_progress);
  add_sweep(app, c.sweep, c.sweep_progress);
  add_size(app, c.size);
  add_small_commands(app, c);
  add_calibrate(app, c.calibrate);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  return dispatch(app, c, argc, argv);
}

} // namespace
} // namespace aisim::app

int main(int argc, char** argv) {
  // Past a file-size limit (ulimit -f) a write fails with EFBIG and is reported, instead of SIGXFSZ ending the run.
  std::signal(SIGXFSZ, SIG_IGN);
  // Replicas, validation runs and sweeps are this program again: forked from here, they skip its start-up.
  aisim::app::set_in_process_entry(aisim::app::cli_main, aisim::app::self_executable(argv[0]));
  aisim::app::register_sweep_digests();
  // A run that ended on another MPI rank is committed into its folder by rank 0 as a local run commits its own.
  aisim::app::set_folder_writer([](const std::string& folder, const auto& files) {
    std::vector<std::string> names;
    for (const auto& [name, content] : files)
      names.push_back(name);
    aisim::sim::OutputSet set(folder, names);
    for (const auto& [name, content] : files)
      set.write(name, content);
    set.commit();
  });
  // Under mpirun, rank 0 runs the command and the other ranks run its runs (app/executor/distributed.hpp).
  const auto& world = aisim::app::mpi_world();
  if (world.rank > 0)
    return aisim::app::serve_runs();
  const int rc = aisim::app::cli_main(argc, argv);
  aisim::app::finish_runs();
  return rc;
}
