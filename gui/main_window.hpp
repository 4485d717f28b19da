// The explorer's main window: the scenario it works on (File > Open), a run of it in a child process with progress
// and cancel (Run menu, status bar), and the run's headline numbers. The parameter panel and the charts come in the
// next steps (gui/README.md).
#pragma once

#include "gui/run_results.hpp"
#include "gui/runner.hpp"

#include <QMainWindow>
#include <QString>

#include <functional>
#include <optional>

class QLabel;
class QProgressBar;
class QTableWidget;
class QToolButton;

namespace aisim::gui {

class MainWindow : public QMainWindow {
public:
  explicit MainWindow(const QString& cli_path = default_cli_path());

  // Reads a scenario with the same parser and checks as `aisim`; shows what it holds, or why it cannot be used.
  // A scenario that parses is run at once. Returns whether it parsed.
  bool open_scenario(const QString& path);
  // Runs the open scenario again (a run in progress is cancelled first).
  void run();
  void cancel_run();

  // Called when a run ends: true with results shown, false when it failed (its message is shown). Not called for
  // a cancelled run. The screenshot mode and the tests wait on it.
  std::function<void(bool ok)> on_run_settled;
  const std::optional<RunResults>& results() const { return results_; }
  const QString& run_error() const { return run_error_; }
  // The value shown for a headline metric (as printed, with its unit); empty when none is shown.
  QString shown_metric(const QString& name) const;
  Runner& runner() { return runner_; }

private:
  void show_results(const QString& dir);
  void show_failure(const QString& message);
  void set_running(bool running);

  QString scenario_path_;
  QLabel* summary_;
  QLabel* run_message_;
  QTableWidget* metrics_;
  QProgressBar* progress_;
  QToolButton* cancel_;
  Runner runner_;
  std::optional<RunResults> results_;
  QString run_error_;
};

} // namespace aisim::gui
