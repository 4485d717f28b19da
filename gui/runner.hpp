// Runs `aisim run` in a child process. The window never links SimGrid (one engine per process, and a second engine
// in one process keeps the first one's clock) and never blocks: the child reports progress as JSON lines and the
// window reads them from the event loop.
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QTemporaryDir;

namespace aisim::gui {

// The `aisim` CLI the GUI runs: $AISIM_CLI when set, else the `aisim` beside this executable.
QString default_cli_path();

class Runner {
public:
  struct Callbacks {
    // Each progress line of the run in progress: fraction of the simulated time done (0..1), simulated seconds.
    std::function<void(double fraction, double simulated_s)> progress;
    // The run finished: its results.json and timeseries.csv are in `results_dir`, kept until the next run finishes.
    std::function<void(const QString& results_dir)> done;
    // The run did not finish: the scenario has errors (the CLI's messages), the child crashed, was killed from
    // outside, or could not start. Never called for a run this Runner cancelled.
    std::function<void(const QString& message)> failed;
  };

  Runner(QString cli_path, Callbacks callbacks);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  // Starts `aisim run SCENARIO --progress=jsonl --out <a fresh folder> [--set S]...`; a run still going is
  // cancelled first, so only the newest change reports.
  void start(const QString& scenario, const QStringList& sets = {});
  // Kills the run in progress, if any; none of its callbacks follow. Its folder goes once the child has exited.
  void cancel();
  bool running() const { return current_ != nullptr; }
  // The child's process id while a run is in progress, else 0 (tests kill it from outside).
  qint64 child_pid() const;
  const QString& cli_path() const { return cli_; }

private:
  struct Run;
  void read_output(Run& run);
  void settle(Run& run, const QString& failure);
  void retire(Run* run); // deletes it

  QString cli_;
  Callbacks callbacks_;
  Run* current_ = nullptr;
  std::vector<std::unique_ptr<Run>> runs_; // current_, and runs waiting for their deletion
  std::unique_ptr<QTemporaryDir> last_results_;
  QObject reaper_; // the context of queued deletions: destroyed first, so none runs after the Runner
};

} // namespace aisim::gui
