#include "gui/runner.hpp"

#include "models/common/json_reader.hpp"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

namespace aisim::gui {

QString default_cli_path() {
  const QString env = qEnvironmentVariable("AISIM_CLI");
  if (!env.isEmpty())
    return env;
  return QDir(QCoreApplication::applicationDirPath()).filePath("aisim");
}

// One child and the folder it writes into. A cancelled run lives on, disconnected, until its child has exited:
// removing the folder earlier could race with the child's last write. The Runner owns every run until then.
struct Runner::Run {
  QProcess process;
  std::unique_ptr<QTemporaryDir> dir;
  QString results_path;
  QByteArray errors;
  bool settled = false;
};

Runner::Runner(QString cli_path, Callbacks callbacks) : cli_(std::move(cli_path)), callbacks_(std::move(callbacks)) {}

Runner::~Runner() {
  cancel();
  // Runs whose deletion is still queued, and cancelled children still running (QProcess kills and reaps them):
  // at exit the event loop will not get to them (LeakSanitizer found these left behind after the GUI tests).
  runs_.clear();
}

void Runner::retire(Run* run) {
  std::erase_if(runs_, [run](const std::unique_ptr<Run>& r) { return r.get() == run; });
}

qint64 Runner::child_pid() const { return current_ ? current_->process.processId() : 0; }

void Runner::start(const QString& scenario, const QStringList& sets) {
  cancel();
  auto* run = runs_.emplace_back(std::make_unique<Run>()).get();
  current_ = run;
  run->dir = std::make_unique<QTemporaryDir>(QDir(QDir::tempPath()).filePath("aisim-gui-XXXXXX"));
  if (!run->dir->isValid()) {
    settle(*run,
           "Cannot create a folder for the run's results in " + QDir::tempPath() + ": " + run->dir->errorString());
    return;
  }
  QStringList args{"run", QFileInfo(scenario).absoluteFilePath(), "--progress=jsonl", "--out", run->dir->path()};
  for (const auto& s : sets)
    args << "--set" << s;
  QObject::connect(&run->process, &QProcess::readyReadStandardOutput, [this, run] { read_output(*run); });
  QObject::connect(&run->process, &QProcess::readyReadStandardError,
                   [run] { run->errors += run->process.readAllStandardError(); });
  QObject::connect(&run->process, &QProcess::errorOccurred, [this, run](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart)
      settle(*run, "Cannot start the simulator " + cli_ + ": " + run->process.errorString() +
                       ". Build it with `make`, or point AISIM_CLI at it.");
  });
  QObject::connect(&run->process, &QProcess::finished, [this, run](int code, QProcess::ExitStatus status) {
    read_output(*run);
    run->errors += run->process.readAllStandardError();
    const QString said = QString::fromLocal8Bit(run->errors).trimmed();
    if (status == QProcess::CrashExit)
      settle(*run, QString("The simulator stopped before it finished: killed or crashed (signal %1).%2")
                       .arg(code)
                       .arg(said.isEmpty() ? QString() : "\n" + said.right(2000)));
    else if (code == 2)
      settle(*run, "The scenario cannot be run:\n" + said);
    else if (code != 0 || run->results_path.isEmpty())
      settle(*run, QString("The simulator failed (exit %1).%2")
                       .arg(code)
                       .arg(said.isEmpty() ? QString() : "\n" + said.right(2000)));
    else
      settle(*run, QString());
  });
  run->process.start(cli_, args);
}

void Runner::read_output(Run& run) {
  while (run.process.canReadLine()) {
    const QByteArray line = run.process.readLine().trimmed();
    const auto msg = models::Json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
    if (!msg.is_object() || !msg.contains("type"))
      continue;
    const auto& type = msg["type"];
    if (type == "progress" && callbacks_.progress && &run == current_)
      callbacks_.progress(msg.value("fraction", 0.0), msg.value("simulated_s", 0.0));
    else if (type == "done" && msg.contains("results") && msg["results"].is_string())
      run.results_path = QString::fromStdString(msg["results"].get<std::string>());
  }
}

// Reports how the run ended, once, and hands its folder over (done) or drops it (failed).
void Runner::settle(Run& run, const QString& failure) {
  if (run.settled || &run != current_)
    return;
  run.settled = true;
  current_ = nullptr;
  QString dir;
  if (failure.isEmpty()) {
    last_results_ = std::move(run.dir);
    dir = last_results_->path();
  }
  // The child has exited (or never started): nothing writes into its folder any more. Delete from the event loop,
  // not from inside the QProcess signal that got us here; a call queued on reaper_ is dropped with the Runner.
  Run* doomed = &run;
  QMetaObject::invokeMethod(
      &reaper_, [this, doomed] { retire(doomed); }, Qt::QueuedConnection);
  if (failure.isEmpty()) {
    if (callbacks_.done)
      callbacks_.done(dir);
  } else if (callbacks_.failed) {
    callbacks_.failed(failure);
  }
}

void Runner::cancel() {
  Run* run = current_;
  if (!run)
    return;
  current_ = nullptr;
  run->process.disconnect();
  if (run->process.state() == QProcess::NotRunning) {
    retire(run);
    return;
  }
  QObject::connect(&run->process, &QProcess::finished, &reaper_, [this, run](int, QProcess::ExitStatus) {
    QMetaObject::invokeMethod(
        &reaper_, [this, run] { retire(run); }, Qt::QueuedConnection);
  });
  run->process.kill();
}

} // namespace aisim::gui
