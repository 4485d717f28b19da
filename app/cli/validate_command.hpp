// `aisim validate`: runs each case under validation/ in its own `aisim run` process and compares the chosen
// results.json metrics with the case's reference values. A "search" check instead runs the case once per probe to
// find the largest knob value (accelerators) that keeps a metric at a threshold, and an "optimum" check runs it over
// a grid of values with replicas to find where a metric peaks (the checkpoint interval); see validation/README.md.
#pragma once

#include <string>

namespace aisim::app {

struct ValidateCommand {
  std::string only_case;
  std::string dir;
  std::string self; // argv[0], used when /proc/self/exe is unavailable
};

// 0 when every check passes (a check marked known_failure may fail: it is printed, not counted), 1 when any other
// fails, 2 when a case file is malformed or a case is unknown.
int validate_command(const ValidateCommand& cmd);

} // namespace aisim::app
