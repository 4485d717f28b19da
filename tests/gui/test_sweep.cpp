// Run > Sweep a parameter as a planner uses it: enclosures over a range through `aisim sweep`, the metrics charted
// against it with aisim's knee marked, a point clicked open as the window's current run; bad values explained.
#include "gui/main_window.hpp"
#include "gui/sweep_view.hpp"
#include "tests/gui/session.hpp"

#include <catch2/catch.hpp>

using namespace aisim::gui;
using aisim::models::Json;

namespace {

const QString default_scenario = QString(AISIM_SOURCE_DIR) + "/scenarios/default.json";

} // namespace

TEST_CASE("sweep: one parameter charted with its knee; a clicked point becomes the current run", "[gui]") {
  Session s(default_scenario);
  REQUIRE(s.window.change("/simulation/duration", "1d"));
  s.next_run();
  SweepView& view = s.window.sweep_view();
  int settled = 0;
  bool ok = false;
  view.on_settled = [&](bool good) {
    ++settled;
    ok = good;
  };
  view.start("/storage/hot/enclosures", "1..8:1");
  REQUIRE(wait_until([&] { return settled == 1; }));
  INFO(view.message().toStdString());
  REQUIRE(ok);
  // Every point charted for each metric the sweep has, at the sweep's own values.
  const Json& doc = view.sweep();
  REQUIRE(doc["points"].size() == 8);
  CHECK(view.charted().contains("gpu_utilization_fraction"));
  CHECK(view.charted().contains("total_with_lost_gpu_usd"));
  const auto util = view.chart_points("gpu_utilization_fraction");
  REQUIRE(util.size() == 8);
  for (size_t i = 0; i < util.size(); ++i) {
    CHECK(util[i].first == doc["points"][i]["values"]["/storage/hot/enclosures"].get<double>());
    CHECK(util[i].second == doc["points"][i]["metrics"]["gpu_utilization_fraction"].get<double>());
  }
  // The knee marked is the one aisim wrote (sweep.json's knees), at its point.
  REQUIRE(doc["knees"].contains("gpu_utilization_fraction"));
  const auto knee = view.chart_knee("gpu_utilization_fraction");
  REQUIRE(knee);
  CHECK(knee->first == doc["knees"]["gpu_utilization_fraction"]["value"].get<double>());

  // A click on point 3 (3 enclosures): the window shows that run, with the value as a change, without running.
  const int runs_before = s.settled;
  REQUIRE(view.open_point(3));
  CHECK(s.settled == runs_before + 1); // shown at once, not run again
  CHECK_FALSE(s.window.runner().running());
  CHECK(s.window.edits().sets().contains("/storage/hot/enclosures=3"));
  CHECK(s.number("/jobs/0/utilization") == doc["points"][2]["metrics"]["gpu_utilization_fraction"].get<double>());
  CHECK(s.window.results()->results["scenario"]["storage"]["hot"]["enclosures"] == 3);
  CHECK_FALSE(view.open_point(99));
}

TEST_CASE("sweep: a value the scenario cannot take is explained, nothing charted", "[gui]") {
  Session s(default_scenario);
  SweepView& view = s.window.sweep_view();
  int settled = 0;
  bool ok = true;
  view.on_settled = [&](bool good) {
    ++settled;
    ok = good;
  };
  view.start("/storage/hot/enclosures", "1TB,2TB");
  REQUIRE(wait_until([&] { return settled == 1; }));
  CHECK_FALSE(ok);
  CHECK(view.message().contains("does not make a valid scenario"));
  CHECK(view.charted().isEmpty());
  view.start("/storage/hot/enclosures", "");
  REQUIRE(wait_until([&] { return settled == 2; }));
  CHECK(view.message().contains("Give the parameter"));
}
