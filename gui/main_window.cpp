#include "gui/main_window.hpp"

#include "models/scenario/scenario_parser.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QProgressBar>
#include <QScrollArea>
#include <QSplitter>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace aisim::gui {

namespace {

QScrollArea* scrolled(QWidget* inner) {
  auto* area = new QScrollArea;
  area->setWidget(inner);
  area->setWidgetResizable(true);
  area->setFrameShape(QFrame::NoFrame);
  return area;
}

} // namespace

MainWindow::MainWindow(const QString& cli_path)
    : summary_(new QLabel), run_message_(new QLabel), metrics_(new QTableWidget(0, 2)), progress_(new QProgressBar),
      cancel_(new QToolButton),
      runner_(cli_path, Runner::Callbacks{
                            [this](double fraction, double) { progress_->setValue(static_cast<int>(fraction * 1000)); },
                            [this](const QString& dir) { show_results(dir); },
                            [this](const QString& message) { show_failure(message); },
                        }) {
  setWindowTitle("aisim what-if explorer");
  summary_->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  summary_->setMargin(12);
  summary_->setTextFormat(Qt::PlainText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  summary_->setText("No scenario open. File > Open... a scenario file (scenarios/*.json).");

  run_message_->setTextFormat(Qt::PlainText);
  run_message_->setWordWrap(true);
  run_message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  run_message_->setMargin(8);
  run_message_->hide();
  metrics_->setHorizontalHeaderLabels({"metric", "value"});
  metrics_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  metrics_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
  metrics_->verticalHeader()->hide();
  metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  metrics_->setSelectionMode(QAbstractItemView::NoSelection);
  auto* results_panel = new QWidget;
  auto* results_layout = new QVBoxLayout(results_panel);
  results_layout->addWidget(run_message_);
  results_layout->addWidget(metrics_, 1);

  auto* split = new QSplitter(Qt::Horizontal);
  split->addWidget(scrolled(summary_));
  split->addWidget(results_panel);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 2);
  setCentralWidget(split);

  auto* file = menuBar()->addMenu("&File");
  file->addAction("&Open...", QKeySequence::Open, [this] {
    const QString path = QFileDialog::getOpenFileName(this, "Open a scenario", QString(), "Scenarios (*.json)");
    if (!path.isEmpty())
      open_scenario(path);
  });
  file->addAction("&Quit", QKeySequence::Quit, [this] { close(); });
  auto* run_menu = menuBar()->addMenu("&Run");
  run_menu->addAction("&Run again", QKeySequence(Qt::Key_F5), [this] { run(); });
  run_menu->addAction("&Cancel run", QKeySequence(Qt::Key_Escape), [this] { cancel_run(); });

  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(240);
  progress_->setFormat("%p% simulated");
  cancel_->setText("Cancel");
  cancel_->setToolTip("Stop the run in progress (Esc)");
  QObject::connect(cancel_, &QToolButton::clicked, [this] { cancel_run(); });
  statusBar()->addPermanentWidget(progress_);
  statusBar()->addPermanentWidget(cancel_);
  set_running(false);
  statusBar()->showMessage("Ready");
  resize(1100, 700);
}

bool MainWindow::open_scenario(const QString& path) {
  runner_.cancel();
  set_running(false);
  const auto loaded = models::load_scenario(path.toStdString());
  if (!loaded.scenario) {
    // The same messages as `aisim check`: file, JSON pointer, what was expected.
    scenario_path_.clear();
    summary_->setText("Cannot use " + path + ":\n\n" + QString::fromStdString(loaded.diagnostics.format(false)));
    statusBar()->showMessage("The scenario has errors");
    return false;
  }
  scenario_path_ = path;
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
  run();
  return true;
}

void MainWindow::run() {
  if (scenario_path_.isEmpty())
    return;
  set_running(true);
  progress_->setValue(0);
  statusBar()->showMessage("Running " + QFileInfo(scenario_path_).fileName() + "...");
  runner_.start(scenario_path_);
}

void MainWindow::cancel_run() {
  if (!runner_.running())
    return;
  runner_.cancel();
  set_running(false);
  statusBar()->showMessage("Run cancelled; the numbers shown are from the last finished run");
}

void MainWindow::set_running(bool running) {
  progress_->setVisible(running);
  cancel_->setVisible(running);
}

void MainWindow::show_results(const QString& dir) {
  set_running(false);
  QString error;
  auto loaded = load_run_results(dir, &error);
  if (!loaded) {
    show_failure("The run finished but its results cannot be read: " + error);
    return;
  }
  results_ = std::move(loaded);
  run_error_.clear();
  run_message_->hide();
  const auto metrics = headline_metrics(results_->results);
  metrics_->setRowCount(static_cast<int>(metrics.size()));
  for (int i = 0; i < static_cast<int>(metrics.size()); ++i) {
    const auto& m = metrics[static_cast<std::size_t>(i)];
    metrics_->setItem(i, 0, new QTableWidgetItem(m.name));
    auto* value = new QTableWidgetItem(format_metric(m));
    value->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    metrics_->setItem(i, 1, value);
  }
  const double wall = results_->results.value("/sim/wall_s"_json_pointer, 0.0);
  statusBar()->showMessage(QString("Simulated in %1 s").arg(wall, 0, 'f', 2));
  if (on_run_settled)
    on_run_settled(true);
}

void MainWindow::show_failure(const QString& message) {
  set_running(false);
  run_error_ = message;
  run_message_->setText(message);
  run_message_->setStyleSheet("color: #b00020;");
  run_message_->show();
  statusBar()->showMessage(results_ ? "The run failed; the numbers shown are from the last finished run"
                                    : "The run failed");
  if (on_run_settled)
    on_run_settled(false);
}

QString MainWindow::shown_metric(const QString& name) const {
  for (int i = 0; i < metrics_->rowCount(); ++i)
    if (metrics_->item(i, 0) && metrics_->item(i, 0)->text() == name)
      return metrics_->item(i, 1) ? metrics_->item(i, 1)->text() : QString();
  return {};
}

} // namespace aisim::gui
