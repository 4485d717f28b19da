// One SimGrid engine per test case, configured as the simulator configures it (sim/platform/platform.hpp).
#pragma once

#include "sim/platform/platform.hpp"

#include <catch2/catch.hpp>
#include <simgrid/s4u.hpp>
#include <xbt/config.hpp>
#include <xbt/log.h>

#include <string>

namespace aisim::test {

struct TestEngine {
  int argc = 1;
  char name[5] = "test";
  char* argv[2] = {name, nullptr};
  simgrid::s4u::Engine engine{&argc, argv};
  TestEngine() {
    xbt_log_control_set("root.thresh:warning");
    // SimGrid keeps its configuration for the whole process and aborts on a change of network model once an
    // earlier engine has initialised its models ("Cannot change the model after the initialization"). So only
    // the process's first engine is configured; later ones inherit the settings, which the checks confirm.
    if (simgrid::config::is_default("network/model"))
      aisim::sim::configure_engine(engine);
    REQUIRE(simgrid::config::get_value<std::string>("network/model") == "CM02");
    REQUIRE(simgrid::config::get_value<double>("network/TCP-gamma") == 1e18);
    REQUIRE(simgrid::config::get_value<std::string>("network/optim") == "Full");
  }
};

} // namespace aisim::test
