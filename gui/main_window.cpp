#include "gui/main_window.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenuBar>
#include <QStatusBar>

namespace aisim::gui {

MainWindow::MainWindow() : summary_(new QLabel(this)) {
  setWindowTitle("aisim what-if explorer");
  summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  summary_->setMargin(16);
  summary_->setTextFormat(Qt::PlainText);
  summary_->setText("No scenario open. File > Open... a scenario file (scenarios/*.json).");
  setCentralWidget(summary_);
  auto* file = menuBar()->addMenu("&File");
  file->addAction("&Open...", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open a scenario", QString(), "Scenarios (*.json)");
    if (!path.isEmpty())
      open_scenario(path);
  });
  file->addAction("&Quit", QKeySequence::Quit, [this] { close(); });
  statusBar()->showMessage("Ready");
  resize(900, 600);
}

bool MainWindow::open_scenario(const QString& path) {
  const auto loaded = models::load_scenario(path.toStdString());
  if (!loaded.scenario) {
    // The same messages as `aisim check`: file, JSON pointer, what was expected.
    summary_->setText("Cannot use " + path + ":\n\n" + QString::fromStdString(loaded.diagnostics.format(false)));
    statusBar()->showMessage("The scenario has errors");
    return false;
  }
  const auto& sc = *loaded.scenario;
  QString text = QString::fromStdString(sc.name) + "\n" + QFileInfo(path).absoluteFilePath() + "\n\n";
  text += QString("%1 GPUs in %2 node groups\n").arg(sc.gpu_count()).arg(sc.node_groups.size());
  text += QString("%1 storage systems:").arg(sc.storage.size());
  for (const auto& s : sc.storage)
    text += QString(" %1 (%2)").arg(QString::fromStdString(s.name), QString::fromStdString(s.kind));
  text += QString("\n%1 workloads, %2 simulated\n")
              .arg(sc.jobs.size())
              .arg(QString::fromStdString(models::format_duration(sc.simulation.duration)));
  summary_->setText(text);
  setWindowTitle("aisim what-if explorer: " + QString::fromStdString(sc.name));
  statusBar()->showMessage("Opened " + path);
  return true;
}

} // namespace aisim::gui
