#include "app/cli/check_command.hpp"

#include "app/cli/run_command.hpp"
#include "sim/engine/simulation.hpp"
#include "sim/results/timeseries_csv.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cstdio>
#include <iostream>

namespace aisim::app {

namespace {
// What the run would need (the estimates its refusal uses) and what this machine has.
models::Json memory_json(const models::Scenario& sc) {
  return {{"model_bytes", sim::estimate_model_memory_bytes(sc)},
          {"timeseries_bytes", sim::estimate_timeseries_memory_bytes(sc)},
          {"available_bytes", available_memory_bytes()}};
}
} // namespace

int check_command(const CheckCommand& cmd) {
  const auto loaded = models::load_scenario(cmd.scenario, cmd.sets);
  // Every refusal `aisim run` makes before simulating: the scenario's own errors, then whether it fits in memory.
  models::Diagnostics diagnostics = loaded.diagnostics;
  if (loaded.scenario)
    check_fits_in_memory(*loaded.scenario, diagnostics);
  const bool ok = loaded.scenario.has_value() && !diagnostics.has_errors();
  if (cmd.json) {
    models::Json doc{
        {"file", cmd.scenario}, {"ok", ok}, {"errors", models::Json::array()}, {"warnings", models::Json::array()}};
    for (const auto& d : diagnostics.items())
      doc[d.warning ? "warnings" : "errors"].push_back({{"pointer", d.pointer}, {"message", d.message}});
    if (loaded.scenario)
      doc["memory"] = memory_json(*loaded.scenario);
    if (ok)
      doc["scenario"] = loaded.scenario->resolved;
    std::printf("%s\n", doc.dump(2).c_str());
    return ok ? 0 : 2;
  }
  std::cerr << diagnostics.format(true);
  if (!loaded.scenario) {
    std::cerr << "aisim: " << cmd.scenario << ": the scenario has errors\n";
    return 2;
  }
  if (!ok) {
    std::cerr << "aisim: " << cmd.scenario << ": the run would not fit in memory\n";
    return 2;
  }
  const auto& sc = *loaded.scenario;
  const auto memory = memory_json(sc);
  std::printf("%s: ok: %s, %d GPUs, %zu storage systems, %zu workloads; needs about %s of memory (%s available)\n",
              cmd.scenario.c_str(), sc.name.c_str(), sc.gpu_count(), sc.storage.size(), sc.jobs.size(),
              models::format_bytes(
                  models::Bytes(memory["model_bytes"].get<double>() + memory["timeseries_bytes"].get<double>()))
                  .c_str(),
              models::format_bytes(models::Bytes(memory["available_bytes"].get<double>())).c_str());
  return 0;
}

} // namespace aisim::app
