// The explorer's main window: the scenario it works on (File > Open, Save), its parameters to change (each change
// checked by the CLI's own checks and, when usable, run at once in a child process with progress and cancel), and
// the run's headline numbers and charts (gui/README.md).
#pragma once

#include "gui/run_results.hpp"
#include "gui/runner.hpp"
#include "gui/scenario_edits.hpp"

#include <QMainWindow>
#include <QString>

#include <functional>
#include <optional>

class QLabel;
class QMenu;
class QSplitter;
class QProgressBar;
class QTableWidget;
class QToolButton;

namespace aisim::gui {

class ParameterPanel;
class ResultCharts;
class SweepView;

class MainWindow : public QMainWindow {
public:
  explicit MainWindow(const QString& cli_path = default_cli_path());

  // Reads a scenario with the same parser and checks as `aisim`; shows its parameters, or why it cannot be used
  // (then its values as written, with each problem marked, to be fixed here). A usable scenario is run at once.
  // Returns whether it was usable.
  bool open_scenario(const QString& path);
  // A changed value, as typed into the panel: checked, and run when the scenario is usable (the tests call it as
  // the panel does). Returns whether the scenario is usable with it.
  bool change(const QString& pointer, const QString& text);
  void revert(const QString& pointer);
  void revert_all();
  // Takes back the last change (Ctrl+Z): how a change that named no value shown (a misspelt key) is undone.
  void undo();
  // Writes the scenario with the changes to `path` (the open file when empty); false with a message shown.
  bool save(const QString& path = {});
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
  // Every headline row as shown, "metric<TAB>value" (with a baseline "<TAB>baseline<TAB>change"), for a script that
  // checks what the window drew (aisim-gui --screenshot FILE --table FILE writes them).
  QStringList shown_table() const;
  // What-if: the current run becomes the baseline; later runs show each metric's change against it.
  void pin_baseline();
  void clear_baseline();
  bool has_baseline() const { return baseline_.has_value(); }
  // The change shown for a metric against the baseline ("same", "+2.45 s (+100.0 %)"); `better` gets +1 (better,
  // green), -1 (worse, red) or 0. Empty without a baseline.
  QString shown_change(const QString& name, int* better = nullptr) const;
  Runner& runner() { return runner_; }
  // Window size and layout as the planner left them last time (QSettings); the screenshot mode keeps the default.
  void restore_window_state();
  // The scenarios opened or saved lately, newest first (File > Open Recent).
  QStringList recent_files() const;
  // Whether opening, saving and closing update the recent files and the saved window state (the screenshot mode
  // turns it off: a picture taken by a script is not the planner's session).
  void set_remember(bool remember) { remember_ = remember; }
  // Asked on close with unsaved changes: QMessageBox::Save, Discard or Cancel. A dialog unless set (the tests).
  std::function<int()> ask_unsaved;
  ParameterPanel& panel() { return *panel_; }
  // Run > Sweep a parameter (F6): the sweep window, offering the value under the cursor.
  void show_sweep();
  SweepView& sweep_view() { return *sweep_view_; }
  // Opens a sweep's point as the current run: its value becomes a change (checked, not run again) and its
  // results are shown. False when the value does not make a usable scenario.
  bool open_point(const QString& pointer, const QString& value, const QString& dir);
  ResultCharts& charts() { return *charts_; }
  const ScenarioEdits& edits() const { return edits_; }

protected:
  void closeEvent(QCloseEvent* event) override;

private:
  // Checks the file with the changes; shows the resolved values or the problems; runs when usable.
  bool check_and_run(bool run_it = true);
  void show_header();
  bool save_as();
  void show_results(const QString& dir);
  void show_failure(const QString& message);
  void set_running(bool running);
  void fill_metrics();
  void remember_recent(const QString& path);
  void fill_recent_menu();

  QSplitter* split_ = nullptr;
  bool remember_ = true;
  QMenu* recent_ = nullptr;
  QLabel* summary_;
  ParameterPanel* panel_;
  ScenarioEdits edits_;
  models::Json resolved_; // the last usable resolved scenario
  QLabel* run_message_;
  QTableWidget* metrics_;
  ResultCharts* charts_;
  QProgressBar* progress_;
  QToolButton* cancel_;
  Runner runner_;
  SweepView* sweep_view_;
  std::optional<RunResults> results_;
  std::optional<RunResults> baseline_;
  QString run_error_;
};

} // namespace aisim::gui
