#include "app/cli/run_command.hpp"

#include "app/executor/distributed.hpp"
#include "sim/results/output_set.hpp"
#include "sim/results/replicas.hpp"
#include "sim/results/results.hpp"
#include "sim/results/timeseries_csv.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace aisim::app {

namespace fs = std::filesystem;

namespace {

std::string replica_folder(int i) {
  char name[32];
  std::snprintf(name, sizeof name, "replica-%04d", i + 1);
  return name;
}

// One child `aisim run` per replica, each into its staged folder with its own seed (base, base + 1, ...); `runs`
// and `staged` get each replica's seed, final folder and staged folder.
std::vector<ChildSpec> replica_specs(const RunCommand& cmd, sim::OutputSet& set, const fs::path& out,
                                     unsigned long long base, std::vector<sim::ReplicaRun>& runs,
                                     std::vector<std::string>& staged) {
  std::error_code ec;
  const std::string exe = self_executable(cmd.self);
  std::vector<ChildSpec> specs;
  for (int i = 0; i < cmd.replicas; ++i) {
    const std::string name = replica_folder(i);
    const fs::path dir = set.staged(name);
    fs::create_directories(dir, ec);
    auto& r = runs[static_cast<size_t>(i)];
    r.seed = base + static_cast<unsigned long long>(i);
    r.folder = (out / name).string(); // where it will be once committed, as results.json names it
    staged.push_back(dir.string());
    ChildSpec spec{
        {exe, "run", cmd.scenario, "--out", dir.string(), "--progress", "none", "--seed", std::to_string(r.seed)},
        (dir / "run.log").string(),
        dir.string()};
    for (const auto& s : cmd.sets) {
      spec.argv.push_back("--set");
      spec.argv.push_back(s);
    }
    for (const auto& [flag, value] : {std::pair{"--max-wall", cmd.max_wall}, {"--max-events", cmd.max_events}})
      if (!value.empty())
        spec.argv.insert(spec.argv.end(), {flag, value});
    specs.push_back(std::move(spec));
  }
  return specs;
}

// Each replica's outcome in words, its log and whether its results count; true when every one does.
bool record_outcomes(const PoolOutcome& outcome, std::vector<sim::ReplicaRun>& runs,
                     const std::vector<std::string>& staged) {
  std::error_code ec;
  bool all = !outcome.interrupted;
  for (size_t i = 0; i < runs.size(); ++i) {
    auto& r = runs[i];
    const auto& c = outcome.children[i];
    r.outcome = c.describe();
    r.has_log = fs::exists(fs::path(staged[i]) / "run.log", ec);
    if (c.finished && c.signal == 0 && c.exit_code == kExitStopped) // a partial period is no sample of the whole
      r.outcome = "stopped by --max-wall or --max-events (its partial results are in its folder, not in these "
                  "statistics)";
    if (c.ok()) {
      r.ok = !r.results.is_discarded() && !r.results.is_null();
      if (!r.ok)
        r.outcome = "exited 0 without a readable results.json";
    }
    all = all && r.ok;
  }
  return all;
}

} // namespace

int run_replicas(const RunCommand& cmd) {
  // Checked here once, so a bad scenario is one message and nothing written, not N failed children.
  auto loaded = models::load_scenario(cmd.scenario, cmd.sets);
  std::cerr << loaded.diagnostics.format(true);
  if (!loaded.scenario) {
    std::cerr << "aisim: " << cmd.scenario << ": the scenario has errors; nothing was run or written\n";
    return 2;
  }
  if (!run_fits_in_memory(*loaded.scenario, cmd.scenario))
    return 2;
  const unsigned long long base =
      cmd.seed >= 0 ? static_cast<unsigned long long>(cmd.seed) : loaded.scenario->simulation.seed;
  const fs::path out = cmd.out_dir.empty() ? fs::path(default_run_folder(cmd)) : fs::path(cmd.out_dir);
  // The replicas run into the staging folder and the set (their folders and the aggregate) is committed as one.
  // An OutputRefused (a busy or unusable folder, something of the user's in the way) reaches main: exit 2.
  std::vector<std::string> will_write{"results.json"};
  for (int i = 0; i < cmd.replicas; ++i)
    will_write.push_back(replica_folder(i));
  sim::OutputSet set(out.string(), will_write);
  set.require_space(sim::estimate_output_bytes(*loaded.scenario) * cmd.replicas);
  std::vector<sim::ReplicaRun> runs(static_cast<size_t>(cmd.replicas));
  std::vector<std::string> staged; // each replica's folder until the set is committed
  const std::vector<ChildSpec> specs = replica_specs(cmd, set, out, base, runs, staged);
  const int jobs = cmd.jobs > 0 ? cmd.jobs : default_runs_at_once();
  const bool tell = cmd.progress == ProgressMode::jsonl || (cmd.progress == ProgressMode::automatic && isatty(2));
  size_t done = 0;
  const auto outcome = run_many(specs, jobs, [&](size_t i, const ChildResult& c) {
    ++done;
    // Read while the other replicas still run, so the set's tail is not spent parsing.
    if (c.ok())
      runs[i].results = sim::read_results(staged[i]);
    if (cmd.progress == ProgressMode::jsonl)
      std::printf("%s\n", models::Json{{"type", "replica"},
                                       {"seed", runs[i].seed},
                                       {"outcome", c.ok() ? "finished" : c.describe()},
                                       {"done", done},
                                       {"of", runs.size()}}
                              .dump()
                              .c_str());
    else if (tell)
      std::fprintf(stderr, "replica %zu/%zu (seed %llu): %s in %.1f s\n", done, runs.size(), runs[i].seed,
                   c.ok() ? "finished" : c.describe().c_str(), c.wall_s);
    std::fflush(stdout);
  });
  const bool all = record_outcomes(outcome, runs, staged);
  auto aggregate = sim::aggregate_replicas(runs, outcome.interrupted);
  if (!aggregate.contains("scenario")) // no replica finished: the scenario as this command read it
    aggregate["scenario"] = loaded.scenario->resolved;
  const std::string path = (out / "results.json").string();
  set.write("results.json", aggregate.dump(2) + "\n");
  set.commit(); // an OutputError reaches main, which reports it (exit 1)
  if (cmd.progress == ProgressMode::jsonl)
    std::printf("%s\n", models::Json{{"type", "done"}, {"results", path}}.dump().c_str());
  else
    std::fputs(sim::format_replica_summary(aggregate, path).c_str(), stdout);
  if (outcome.interrupted)
    return 130;
  return all ? 0 : 1;
}

} // namespace aisim::app
