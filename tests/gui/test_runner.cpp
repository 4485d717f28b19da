// The child-process runner: progress and results from the real CLI, the CLI's messages for a bad scenario, a newer
// run cancelling the older, cancel, a child killed from outside, a CLI that cannot start.
#include "gui/run_results.hpp"
#include "gui/runner.hpp"
#include "tests/gui/wait.hpp"

#include <catch2/catch.hpp>

#include <QFileInfo>

#include <signal.h>

using namespace aisim::gui;

namespace {

const QString source_dir = AISIM_SOURCE_DIR;
const QString cli = AISIM_CLI_PATH;
const QString slow_cli = source_dir + "/tests/gui/slow-cli.sh";

struct Seen {
  std::vector<double> fractions;
  std::vector<QString> done;
  std::vector<QString> failed;
  Runner::Callbacks callbacks() {
    return {[this](double f, double) { fractions.push_back(f); }, [this](const QString& d) { done.push_back(d); },
            [this](const QString& m) { failed.push_back(m); }};
  }
  std::size_t settled() const { return done.size() + failed.size(); }
};

} // namespace

TEST_CASE("runner: a run reports progress, then results the GUI can read", "[gui]") {
  Seen seen;
  Runner runner(cli, seen.callbacks());
  runner.start(source_dir + "/scenarios/default.json");
  REQUIRE(runner.running());
  REQUIRE(wait_until([&] { return seen.settled() > 0; }));
  INFO((seen.failed.empty() ? QString() : seen.failed.front()).toStdString());
  REQUIRE(seen.done.size() == 1);
  CHECK_FALSE(runner.running());
  REQUIRE_FALSE(seen.fractions.empty());
  CHECK(seen.fractions.back() == Approx(1.0));
  CHECK(std::is_sorted(seen.fractions.begin(), seen.fractions.end()));
  QString error;
  const auto results = load_run_results(seen.done.front(), &error);
  INFO(error.toStdString());
  REQUIRE(results);
  CHECK(results->results["scenario"]["name"] == "llama-70b-512xH100-jbof");
  const auto* util = results->timeseries.column("gpu_utilization");
  REQUIRE(util);
  CHECK(util->size() == results->timeseries.column("time_s")->size());
  const auto metrics = headline_metrics(results->results);
  REQUIRE(metrics.front().name == "GPU utilization");
  CHECK(metrics.front().value > 90.0);
  CHECK(metrics.front().value <= 100.0);
}

TEST_CASE("runner: a scenario with errors reports the CLI's path-qualified messages", "[gui]") {
  Seen seen;
  Runner runner(cli, seen.callbacks());
  runner.start(source_dir + "/tests/cli/bad-scenarios/storage-failures.json");
  REQUIRE(wait_until([&] { return seen.settled() > 0; }));
  REQUIRE(seen.failed.size() == 1);
  CHECK(seen.done.empty());
  CHECK(seen.failed.front().contains("cannot be run"));
  CHECK(seen.failed.front().contains("/storage/"));
}

TEST_CASE("runner: a newer run cancels the older; only the newer reports", "[gui]") {
  Seen seen;
  Runner runner(slow_cli, seen.callbacks());
  runner.start(source_dir + "/scenarios/default.json");
  REQUIRE(wait_until([&] { return !seen.fractions.empty(); }));
  const qint64 old_pid = runner.child_pid();
  REQUIRE(old_pid > 0);
  runner.start(source_dir + "/scenarios/default.json");
  const qint64 new_pid = runner.child_pid();
  CHECK(new_pid != old_pid);
  REQUIRE(wait_until([&] { return ::kill(static_cast<pid_t>(old_pid), 0) != 0; }));
  CHECK(seen.settled() == 0);
  runner.cancel();
  settle_events();
  CHECK(seen.settled() == 0);
}

TEST_CASE("runner: cancel stops the child and nothing is reported for it", "[gui]") {
  Seen seen;
  Runner runner(slow_cli, seen.callbacks());
  runner.start(source_dir + "/scenarios/default.json");
  REQUIRE(wait_until([&] { return !seen.fractions.empty(); }));
  CHECK(seen.fractions.front() == Approx(0.25));
  const qint64 pid = runner.child_pid();
  runner.cancel();
  CHECK_FALSE(runner.running());
  CHECK(runner.child_pid() == 0);
  REQUIRE(wait_until([&] { return ::kill(static_cast<pid_t>(pid), 0) != 0; }));
  settle_events();
  CHECK(seen.settled() == 0);
}

TEST_CASE("runner: a child killed from outside is reported, not fatal", "[gui]") {
  Seen seen;
  Runner runner(slow_cli, seen.callbacks());
  runner.start(source_dir + "/scenarios/default.json");
  REQUIRE(wait_until([&] { return !seen.fractions.empty(); }));
  REQUIRE(::kill(static_cast<pid_t>(runner.child_pid()), SIGKILL) == 0);
  REQUIRE(wait_until([&] { return seen.settled() > 0; }));
  REQUIRE(seen.failed.size() == 1);
  CHECK(seen.failed.front().contains("killed or crashed"));
  CHECK_FALSE(runner.running());
  // The runner still works after it.
  Runner again(cli, seen.callbacks());
  again.start(source_dir + "/scenarios/default.json");
  REQUIRE(wait_until([&] { return seen.done.size() == 1; }));
}

TEST_CASE("runner: a CLI that cannot start is reported with its path", "[gui]") {
  Seen seen;
  Runner runner("/nonexistent/aisim", seen.callbacks());
  runner.start(source_dir + "/scenarios/default.json");
  REQUIRE(wait_until([&] { return seen.settled() > 0; }));
  REQUIRE(seen.failed.size() == 1);
  CHECK(seen.failed.front().contains("/nonexistent/aisim"));
  CHECK_FALSE(runner.running());
}
