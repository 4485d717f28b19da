// The aisim command line: run a scenario, run the validation cases.
#include "run_command.hpp"
#include "validate_command.hpp"
#include "version_info.hpp"

#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <map>

int main(int argc, char** argv) {
  using namespace aisim::sim;
  CLI::App app{"aisim: a discrete-event simulator of AI storage clusters"};
  app.set_version_flag("--version", std::string("aisim ") + kAisimVersion + " (" + kGitCommit + ")");
  app.require_subcommand(1);

  RunCommand run;
  std::string progress = "auto";
  auto* run_cmd = app.add_subcommand("run", "Simulate a scenario; write results.json and timeseries.csv");
  run_cmd->add_option("scenario", run.scenario, "Scenario file (JSON)")->required();
  run_cmd->add_option("--out", run.out_dir, "Output folder (default: results/<scenario file stem>/)");
  run_cmd->add_option("--set", run.sets, "Override a value: /json/pointer=value (repeatable)");
  run_cmd->add_option("--seed", run.seed, "Random seed (same as --set /simulation/seed=N)")
      ->check(CLI::NonNegativeNumber);
  run_cmd
      ->add_option("--progress", progress,
                   "Progress: auto (a bar on a terminal), none, or jsonl (one JSON line per update)")
      ->check(CLI::IsMember({"auto", "none", "jsonl"}));

  ValidateCommand validate;
  auto* val_cmd = app.add_subcommand("validate", "Run the validation cases and print a table of model vs reference");
  val_cmd->add_option("--case", validate.only_case, "Run only this case (a folder name under validation/)");
  val_cmd->add_option("--dir", validate.dir,
                      "Folder of validation cases (default: ./validation, else the source tree's)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (*run_cmd) {
      static const std::map<std::string, ProgressMode> modes{
          {"auto", ProgressMode::automatic}, {"none", ProgressMode::none}, {"jsonl", ProgressMode::jsonl}};
      run.progress = modes.at(progress);
      return run_command(run);
    }
    if (*val_cmd) {
      validate.self = argv[0];
      return validate_command(validate);
    }
  } catch (const std::exception& e) {
    std::cerr << "aisim: internal error: " << e.what() << "\n";
    return 1;
  }
  return 1;
}
