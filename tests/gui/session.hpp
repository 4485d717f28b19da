// A window on a scenario, as the GUI tests drive it: opened, its runs counted as they settle, its numbers read
// from the results it shows. The CLI is the one this build made (AISIM_CLI_PATH).
#pragma once

#include "gui/main_window.hpp"
#include "tests/gui/wait.hpp"

#include <catch2/catch.hpp>

struct Session {
  aisim::gui::MainWindow window{AISIM_CLI_PATH};
  int settled = 0;
  bool ok = false;
  // Opens `scenario` (shown on the offscreen screen first when `show`) and waits for its first run's results.
  explicit Session(const QString& scenario, bool show = false) {
    window.on_run_settled = [this](bool good) {
      ++settled;
      ok = good;
    };
    if (show)
      window.show();
    REQUIRE(window.open_scenario(scenario));
    next_run();
  }
  // Waits for the next run to settle and requires that it produced results.
  void next_run() {
    const int before = settled;
    REQUIRE(wait_until([&] { return settled > before; }));
    INFO(window.run_error().toStdString());
    REQUIRE(ok);
    REQUIRE(window.run_error().isEmpty());
  }
  // A number of the results shown, by JSON pointer.
  double number(const char* pointer) const {
    return window.results()->results.at(aisim::models::Json::json_pointer(pointer)).get<double>();
  }
};
