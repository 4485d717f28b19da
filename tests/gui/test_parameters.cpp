// The parameter panel as a planner uses it, offscreen: change a value and the scenario re-runs with the numbers
// following; a bad value is marked with the CLI's own message and nothing runs; a default under an object the file
// leaves out can be changed; Save writes the changes into a file the CLI accepts.
#include "gui/main_window.hpp"
#include "gui/parameter_panel.hpp"
#include "tests/gui/session.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <catch2/catch.hpp>

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

using namespace aisim::gui;

namespace {

const QString source_dir = AISIM_SOURCE_DIR;
const QString default_scenario = source_dir + "/scenarios/default.json";

} // namespace

TEST_CASE("parameters: a change re-runs the scenario and the numbers follow", "[gui]") {
  Session s(default_scenario);
  auto& panel = s.window.panel();
  CHECK(panel.value_text("/workloads/0/checkpoint/interval") == "30min");
  CHECK(panel.unit_text("/cluster/node_groups/0/count") == "nodes");
  CHECK(panel.unit_text("/storage/hot/drives_per_enclosure") == "drives per enclosure");
  CHECK(panel.value_text("/storage/hot/port_speed") == "400Gbps");
  const double stall_30min = s.number("/gpu/stall/checkpoint");
  REQUIRE(stall_30min > 0.0);

  REQUIRE(panel.edit("/workloads/0/checkpoint/interval", "10min"));
  s.next_run();
  CHECK(s.window.edits().sets() == QStringList{"/workloads/0/checkpoint/interval=10min"});
  CHECK(s.window.isWindowModified());
  CHECK(s.window.results()->results["scenario"]["workloads"][0]["checkpoint"]["interval"] == "10min");
  // Sync checkpoints of the same size three times as often: about three times the stall.
  const double stall_10min = s.number("/gpu/stall/checkpoint");
  CHECK(stall_10min / stall_30min == Approx(3.0).epsilon(0.05));
  Metric shown{"checkpoint stall", 100.0 * stall_10min, "%", false};
  CHECK(s.window.shown_metric("checkpoint stall") == format_metric(shown));
  CHECK(panel.value_text("/workloads/0/checkpoint/interval") == "10min");

  // Reset brings the file's value back and runs again.
  s.window.revert("/workloads/0/checkpoint/interval");
  s.next_run();
  CHECK(s.window.edits().empty());
  CHECK_FALSE(s.window.isWindowModified());
  CHECK(s.number("/gpu/stall/checkpoint") == Approx(stall_30min));
}

TEST_CASE("parameters: a bad value is marked with the CLI's message and not run", "[gui]") {
  Session s(default_scenario);
  auto& panel = s.window.panel();
  const int runs = s.settled;
  REQUIRE(panel.edit("/cluster/node_groups/0/count", "-3"));
  REQUIRE(wait_until([&] { return !panel.check_text("/cluster/node_groups/0/count").isEmpty(); }));
  // The message is the one `aisim run --set` and `aisim check` give for the same value.
  const auto cli_check =
      aisim::models::load_scenario(default_scenario.toStdString(), {"/cluster/node_groups/0/count=-3"});
  REQUIRE(cli_check.diagnostics.items().size() == 1);
  CHECK(panel.check_text("/cluster/node_groups/0/count") ==
        QString::fromStdString(cli_check.diagnostics.items().front().message));
  CHECK(panel.value_text("/cluster/node_groups/0/count") == "-3");
  CHECK_FALSE(s.window.runner().running());
  settle_events();
  CHECK(s.settled == runs);

  // A value fine on its own that breaks another: the mark goes where the CLI points (the workload's GPUs).
  REQUIRE(panel.edit("/cluster/node_groups/0/count", "2"));
  REQUIRE(wait_until([&] { return !panel.check_text("/workloads/0/gpus").isEmpty(); }));
  CHECK(panel.check_text("/workloads/0/gpus").contains("more GPUs than node group"));
  CHECK(panel.check_text("/cluster/node_groups/0/count").isEmpty());
  CHECK(s.settled == runs);

  // Fixing it clears the marks and runs: twice the nodes the job needs, half of them idle.
  REQUIRE(panel.edit("/cluster/node_groups/0/count", "128"));
  s.next_run();
  CHECK(panel.check_text("/workloads/0/gpus").isEmpty());
  CHECK(s.number("/gpu/count") == 1024);
  CHECK(s.number("/gpu/stall/idle") == Approx(0.5).margin(0.01));
}

TEST_CASE("parameters: a default under an object the file leaves out can be changed", "[gui]") {
  Session s(default_scenario);
  auto& panel = s.window.panel();
  // default.json has no protection object: its scheme is the parser's default.
  REQUIRE(panel.value_text("/storage/hot/protection/scheme") == "none");
  const double unprotected = s.number("/storage/0/capacity_bytes");
  REQUIRE(panel.edit("/storage/hot/protection/scheme", "mirror"));
  s.next_run();
  REQUIRE(s.window.edits().sets().size() == 1);
  CHECK(s.window.edits().sets().front().startsWith("/storage/hot/protection={"));
  // Two copies of everything: half the usable capacity.
  CHECK(s.number("/storage/0/capacity_bytes") == Approx(unprotected / 2));
  CHECK(panel.value_text("/storage/hot/protection/scheme") == "mirror");
}

TEST_CASE("parameters: Save writes the changes into a file the CLI accepts", "[gui]") {
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  REQUIRE(QDir(dir.path()).mkdir("drives"));
  REQUIRE(QFile::copy(default_scenario, dir.filePath("default.json")));
  REQUIRE(QFile::copy(source_dir + "/scenarios/drives/micron-9400-pro-7.68tb.json",
                      dir.filePath("drives/micron-9400-pro-7.68tb.json")));
  Session s(dir.filePath("default.json"));
  REQUIRE(s.window.panel().edit("/storage/hot/enclosures", "6"));
  s.next_run();
  REQUIRE(s.window.isWindowModified());
  REQUIRE(s.window.save());
  CHECK_FALSE(s.window.isWindowModified());
  CHECK(s.window.edits().empty());
  const auto saved = aisim::models::load_scenario(dir.filePath("default.json").toStdString());
  INFO(saved.diagnostics.format(true));
  REQUIRE(saved.scenario);
  CHECK(saved.scenario->resolved["storage"]["hot"]["enclosures"] == 6);
  // The rest as the file had it: a default the file left out stays out.
  QFile f(dir.filePath("default.json"));
  REQUIRE(f.open(QIODevice::ReadOnly));
  const auto doc = aisim::models::Json::parse(f.readAll().toStdString());
  CHECK_FALSE(doc["storage"]["hot"].contains("protection"));
  CHECK(doc["workloads"][0]["checkpoint"]["interval"] == "30min");
}

TEST_CASE("parameters: a value the file does not have can be added to a group", "[gui]") {
  Session s(default_scenario);
  auto& panel = s.window.panel();
  REQUIRE(panel.value_text("/storage/hot/failures/drives/repair_time").isEmpty());
  // Drives that fail (at the drive file's AFR) and are replaced in a day; the parser's defaults appear with them.
  REQUIRE(panel.add("/storage/hot", "failures", R"({"drives":{"repair_time":"24h"}})"));
  s.next_run();
  CHECK(panel.value_text("/storage/hot/failures/drives/repair_time") == "24h");
  CHECK(panel.value_text("/storage/hot/failures/drives/weibull_shape") == "1.0");
  CHECK(s.window.results()->results["storage"][0].contains("failures"));
  // A key the CLI does not know is refused with its message, where it points.
  REQUIRE(panel.add("/storage/hot", "enclosurs", "6"));
  REQUIRE(wait_until([&] { return !panel.check_text("/storage/hot").isEmpty(); }));
  CHECK(panel.check_text("/storage/hot").contains("enclosures"));
  // Undo takes the misspelt key back (it has no row to reset) and the scenario runs again.
  s.window.undo();
  s.next_run();
  CHECK(panel.check_text("/storage/hot").isEmpty());
  CHECK(s.window.edits().sets().size() == 1);
}
