#include "sim/cli/check_command.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <cstdio>
#include <iostream>

namespace aisim::sim {

int check_command(const CheckCommand& cmd) {
  const auto loaded = models::load_scenario(cmd.scenario, cmd.sets);
  const bool ok = loaded.scenario.has_value();
  if (cmd.json) {
    models::Json doc{
        {"file", cmd.scenario}, {"ok", ok}, {"errors", models::Json::array()}, {"warnings", models::Json::array()}};
    for (const auto& d : loaded.diagnostics.items())
      doc[d.warning ? "warnings" : "errors"].push_back({{"pointer", d.pointer}, {"message", d.message}});
    if (ok)
      doc["scenario"] = loaded.scenario->resolved;
    std::printf("%s\n", doc.dump(2).c_str());
    return ok ? 0 : 2;
  }
  std::cerr << loaded.diagnostics.format(true);
  if (!ok) {
    std::cerr << "aisim: " << cmd.scenario << ": the scenario has errors\n";
    return 2;
  }
  const auto& sc = *loaded.scenario;
  std::printf("%s: ok: %s, %d GPUs, %zu storage systems, %zu workloads\n", cmd.scenario.c_str(), sc.name.c_str(),
              sc.gpu_count(), sc.storage.size(), sc.jobs.size());
  return 0;
}

} // namespace aisim::sim
