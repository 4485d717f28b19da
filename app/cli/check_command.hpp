// `aisim check SCENARIO [--set PTR=VALUE]... [--json]`: the checks `aisim run` makes before it simulates, without
// simulating. Exit 0 when the scenario can run (warnings allowed), 2 when it has errors. With --json, one document
// on stdout that programs (the GUI, scripts) read: every problem with its JSON pointer, and the resolved scenario
// (defaults filled in) when it is usable.
#pragma once

#include <string>
#include <vector>

namespace aisim::app {

struct CheckCommand {
  std::string scenario;
  std::vector<std::string> sets;
  bool json = false;
};

int check_command(const CheckCommand& cmd);

} // namespace aisim::app
