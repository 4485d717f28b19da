// The window as a planner uses it, offscreen: open a scenario, wait for its run, read the numbers it shows; a run
// killed from outside shows its message and the window carries on.
#include "gui/main_window.hpp"
#include "tests/gui/wait.hpp"

#include <catch2/catch.hpp>

#include <signal.h>

using namespace aisim::gui;

namespace {
const QString source_dir = AISIM_SOURCE_DIR;
const QString cli = AISIM_CLI_PATH;
} // namespace

TEST_CASE("window: opening a scenario runs it and shows its headline numbers", "[gui]") {
  MainWindow window(cli);
  int settled = 0;
  bool ok = false;
  window.on_run_settled = [&](bool good) {
    ++settled;
    ok = good;
  };
  REQUIRE(window.open_scenario(source_dir + "/scenarios/default.json"));
  REQUIRE(wait_until([&] { return settled > 0; }));
  INFO(window.run_error().toStdString());
  REQUIRE(ok);
  REQUIRE(window.results());
  // What the table shows is what results.json says, printed with its unit.
  const auto metrics = headline_metrics(window.results()->results);
  for (const auto& m : metrics)
    CHECK(window.shown_metric(m.name) == format_metric(m));
  const QString util = window.shown_metric("GPU utilization");
  REQUIRE(util.endsWith(" %"));
  const double shown = util.chopped(2).toDouble();
  CHECK(shown > 90.0);
  CHECK(shown <= 100.0);
  CHECK(window.shown_metric("total cost over the horizon").startsWith("$"));
}

TEST_CASE("window: a scenario with errors is not run", "[gui]") {
  MainWindow window(cli);
  int settled = 0;
  window.on_run_settled = [&](bool) { ++settled; };
  CHECK_FALSE(window.open_scenario(source_dir + "/tests/cli/bad-scenarios/storage-failures.json"));
  CHECK_FALSE(window.runner().running());
  settle_events();
  CHECK(settled == 0);
}

TEST_CASE("window: a killed run is reported in the window, which keeps working", "[gui]") {
  MainWindow window(source_dir + "/tests/gui/slow-cli.sh");
  int settled = 0;
  bool ok = true;
  window.on_run_settled = [&](bool good) {
    ++settled;
    ok = good;
  };
  REQUIRE(window.open_scenario(source_dir + "/scenarios/default.json"));
  REQUIRE(window.runner().running());
  REQUIRE(wait_until([&] { return window.runner().child_pid() > 0; }));
  REQUIRE(::kill(static_cast<pid_t>(window.runner().child_pid()), SIGKILL) == 0);
  REQUIRE(wait_until([&] { return settled > 0; }));
  CHECK_FALSE(ok);
  CHECK(window.run_error().contains("killed or crashed"));
  CHECK(window.isEnabled());
  // Cancel with nothing running is harmless; a new run can start.
  window.cancel_run();
  window.run();
  CHECK(window.runner().running());
  window.cancel_run();
  CHECK_FALSE(window.runner().running());
}
