// What-if as a planner uses it: pin a run as the baseline, change a value, read each metric's change coloured
// better or worse; unsaved changes are not lost on close without asking; opened scenarios are remembered.
#include "gui/main_window.hpp"
#include "gui/parameter_panel.hpp"
#include "tests/gui/session.hpp"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QMessageBox>

using namespace aisim::gui;

namespace {

const QString source_dir = AISIM_SOURCE_DIR;
const QString default_scenario = source_dir + "/scenarios/default.json";

} // namespace

TEST_CASE("what-if: a pinned baseline shows each metric's change, better or worse", "[gui]") {
  Session s(default_scenario);
  CHECK(s.window.shown_change("GPU utilization").isEmpty());
  s.window.pin_baseline();
  REQUIRE(s.window.has_baseline());
  // Right after pinning, the run is its own baseline.
  int better = 7;
  CHECK(s.window.shown_change("GPU utilization", &better) == "same");
  CHECK(better == 0);

  // Checkpoints three times as often: more checkpoint stall, less utilization.
  REQUIRE(s.window.change("/workloads/0/checkpoint/interval", "10min"));
  s.next_run();
  const QString stall = s.window.shown_change("checkpoint stall", &better);
  CHECK(stall.startsWith("+"));
  CHECK(stall.endsWith(" pp"));
  CHECK(better == -1);
  CHECK(s.window.shown_change("GPU utilization", &better).startsWith(QString::fromUtf8("\u2212")));
  CHECK(better == -1);
  CHECK(s.window.shown_change("checkpoint write mean (worst job)", &better) == "same");
  CHECK(better == 0);

  // Checkpoints half as often as the baseline: better than it.
  REQUIRE(s.window.change("/workloads/0/checkpoint/interval", "1h"));
  s.next_run();
  CHECK(s.window.shown_change("checkpoint stall", &better).startsWith(QString::fromUtf8("\u2212")));
  CHECK(better == 1);
  CHECK(s.window.shown_change("GPU utilization", &better).startsWith("+"));
  CHECK(better == 1);

  s.window.clear_baseline();
  CHECK(s.window.shown_change("GPU utilization").isEmpty());
}

TEST_CASE("what-if: the change of a metric is printed in its unit, relative where it means something", "[gui]") {
  const Metric now{"checkpoint write mean (worst job)", 4.9, "s", false};
  const Metric base{"checkpoint write mean (worst job)", 2.45, "s", false};
  const auto c = compare_metric(now, base);
  CHECK(c.text == "+2.45 s (+100.0 %)");
  CHECK(c.better == -1);
  const Metric cheaper{"cost with lost GPU time", 900000.0, "$", false};
  const Metric dearer{"cost with lost GPU time", 1000000.0, "$", false};
  CHECK(compare_metric(cheaper, dearer).text == QString::fromUtf8("\u2212$100,000 (\u221210.0 %)"));
  CHECK(compare_metric(cheaper, dearer).better == 1);
  // Spend that falls is not coloured as better: it falls when GPUs stall too.
  const Metric spent_less{"total cost over the horizon", 900000.0, "$", false, false};
  const Metric spent_more{"total cost over the horizon", 1000000.0, "$", false, false};
  CHECK(compare_metric(spent_less, spent_more).better == 0);
  CHECK(compare_metric(spent_less, spent_more).text == QString::fromUtf8("\u2212$100,000 (\u221210.0 %)"));
  const Metric from_zero{"data-loss events", 2.0, "events", false};
  const Metric zero{"data-loss events", 0.0, "events", false};
  CHECK(compare_metric(from_zero, zero).text == "+2");
}

TEST_CASE("what-if: closing with unsaved changes asks, and Cancel keeps them", "[gui]") {
  Session s(default_scenario);
  s.window.show();
  REQUIRE(s.window.change("/storage/hot/enclosures", "6"));
  s.next_run();
  int asked = 0;
  s.window.ask_unsaved = [&] {
    ++asked;
    return int(QMessageBox::Cancel);
  };
  CHECK_FALSE(s.window.close());
  CHECK(asked == 1);
  CHECK(s.window.isVisible());
  CHECK(s.window.edits().sets() == QStringList{"/storage/hot/enclosures=6"});
  s.window.ask_unsaved = [&] {
    ++asked;
    return int(QMessageBox::Discard);
  };
  CHECK(s.window.close());
  CHECK(asked == 2);
}

TEST_CASE("what-if: opened scenarios are remembered for File > Open Recent", "[gui]") {
  Session s(default_scenario);
  REQUIRE_FALSE(s.window.recent_files().isEmpty());
  CHECK(s.window.recent_files().front() == QFileInfo(default_scenario).absoluteFilePath());
}
