#include "gui/main_window.hpp"

#include "gui/parameter_panel.hpp"
#include "gui/result_charts.hpp"
#include "gui/sweep_view.hpp"

#include <QCloseEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStatusBar>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace aisim::gui {

MainWindow::MainWindow(const QString& cli_path)
    : summary_(new QLabel), panel_(new ParameterPanel), run_message_(new QLabel), metrics_(new QTableWidget(0, 4)),
      progress_(new QProgressBar), cancel_(new QToolButton),
      runner_(cli_path, Runner::Callbacks{
                            [this](double fraction, double) { progress_->setValue(static_cast<int>(fraction * 1000)); },
                            [this](const QString& dir) { show_results(dir); },
                            [this](const QString& message) { show_failure(message); },
                        }) {
  setWindowTitle("aisim what-if explorer");
  sweep_view_ = new SweepView(cli_path, this);
  sweep_view_->on_open_point = [this](const QString& pointer, const QString& value, const QString& dir) {
    open_point(pointer, value, dir);
  };
  summary_->setTextFormat(Qt::PlainText);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_->setWordWrap(true);
  summary_->setText("No scenario open. File > Open... a scenario file (scenarios/*.json).");
  panel_->on_edit = [this](const QString& pointer, const QString& text) { change(pointer, text); };
  panel_->on_revert = [this](const QString& pointer) { revert(pointer); };
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->addWidget(summary_);
  left_layout->addWidget(panel_, 1);

  run_message_->setTextFormat(Qt::PlainText);
  run_message_->setWordWrap(true);
  run_message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  run_message_->setMargin(8);
  run_message_->hide();
  metrics_->setHorizontalHeaderLabels({"metric", "value", "baseline", "change"});
  metrics_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  for (int c = 1; c < 4; ++c)
    metrics_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  metrics_->setColumnHidden(2, true);
  metrics_->setColumnHidden(3, true);
  metrics_->verticalHeader()->hide();
  metrics_->verticalHeader()->setDefaultSectionSize(metrics_->fontMetrics().height() + 6);
  metrics_->setWordWrap(false);
  metrics_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  metrics_->setSelectionMode(QAbstractItemView::NoSelection);
  metrics_->setMinimumWidth(300);
  charts_ = new ResultCharts(metrics_);
  auto* results_panel = new QWidget;
  auto* results_layout = new QVBoxLayout(results_panel);
  results_layout->setContentsMargins(0, 0, 0, 0);
  results_layout->addWidget(run_message_);
  results_layout->addWidget(charts_, 1);
  // Below about 1100 x 800 the charts keep a readable size and the panel scrolls.
  auto* results_scroll = new QScrollArea;
  results_scroll->setWidget(results_panel);
  results_scroll->setWidgetResizable(true);
  results_scroll->setFrameShape(QFrame::NoFrame);
  results_panel->setMinimumSize(960, 760);

  split_ = new QSplitter(Qt::Horizontal);
  split_->addWidget(left);
  split_->addWidget(results_scroll);
  split_->setStretchFactor(0, 0);
  split_->setStretchFactor(1, 1);
  split_->setSizes({500, 1100});
  setCentralWidget(split_);

  auto* file = menuBar()->addMenu("&File");
  file->addAction("&Open...", QKeySequence::Open, [this] {
    if (!isWindowModified() || QMessageBox::question(this, "Open another scenario",
                                                     "Discard the changes to the open scenario?") == QMessageBox::Yes) {
      const QString path = QFileDialog::getOpenFileName(this, "Open a scenario", QString(), "Scenarios (*.json)");
      if (!path.isEmpty())
        open_scenario(path);
    }
  });
  recent_ = file->addMenu("Open &Recent");
  QObject::connect(recent_, &QMenu::aboutToShow, [this] { fill_recent_menu(); });
  file->addAction("&Save", QKeySequence::Save, [this] { save(); });
  file->addAction("Save &As...", QKeySequence::SaveAs, [this] { save_as(); });
  file->addSeparator();
  file->addAction("&Quit", QKeySequence::Quit, [this] { close(); });
  auto* edit = menuBar()->addMenu("&Edit");
  edit->addAction("&Undo last change", QKeySequence::Undo, [this] { undo(); });
  edit->addAction("&Revert all changes", [this] { revert_all(); });
  auto* run_menu = menuBar()->addMenu("&Run");
  run_menu->addAction("&Run again", QKeySequence(Qt::Key_F5), [this] { run(); });
  run_menu->addAction("&Cancel run", QKeySequence(Qt::Key_Escape), [this] { cancel_run(); });
  run_menu->addSeparator();
  run_menu->addAction("&Pin as baseline", QKeySequence(Qt::CTRL | Qt::Key_B), [this] { pin_baseline(); });
  run_menu->addAction("C&lear baseline", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_B), [this] { clear_baseline(); });
  run_menu->addSeparator();
  run_menu->addAction("&Sweep a parameter...", QKeySequence(Qt::Key_F6), [this] { show_sweep(); });

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
  resize(1600, 1000);
}

bool MainWindow::open_scenario(const QString& path) {
  runner_.cancel();
  set_running(false);
  QString error;
  resolved_ = models::Json::object();
  panel_->clear();
  if (!edits_.load(path, &error)) {
    summary_->setText("Cannot use " + path + ":\n\n" + error);
    setWindowModified(false);
    statusBar()->showMessage("The scenario cannot be read");
    return false;
  }
  setWindowModified(false);
  remember_recent(path);
  return check_and_run();
}

namespace {
QString plural(int n, const QString& noun) { return QString("%1 %2%3").arg(n).arg(noun, n == 1 ? "" : "s"); }
} // namespace

void MainWindow::show_header() {
  const auto& r = resolved_;
  QString text = QFileInfo(edits_.path()).absoluteFilePath();
  if (r.contains("name") && r["name"].is_string()) {
    int gpus = 0;
    if (r.contains("cluster") && r["cluster"].contains("node_groups"))
      for (const auto& g : r["cluster"]["node_groups"])
        gpus += g.value("count", 0) * g.value("gpus_per_node", 0);
    text = QString::fromStdString(r["name"].get<std::string>()) + "  (" + text + ")\n" + plural(gpus, "GPU") + ", " +
           plural(r.contains("storage") ? int(r["storage"].size()) : 0, "storage system") + ", " +
           plural(r.contains("workloads") ? int(r["workloads"].size()) : 0, "workload");
    setWindowTitle("aisim what-if explorer: " + QString::fromStdString(r["name"].get<std::string>()) + "[*]");
  }
  summary_->setText(text);
}

bool MainWindow::check_and_run(bool run_it) {
  const auto checked = edits_.check();
  QSet<QString> edited;
  for (const auto& p : edits_.edited())
    edited.insert(p);
  if (checked.resolved) {
    resolved_ = *checked.resolved;
    panel_->show_document(resolved_, edited);
    panel_->show_diagnostics(checked.diagnostics); // warnings, if any
    run_message_->hide();
    show_header();
    sweep_view_->set_scenario(edits_.path(), edits_.sets(), {});
    if (run_it)
      run();
    return true;
  }
  // Not usable: keep the values shown (or, on open, show the file as written) with each problem marked.
  if (resolved_.empty()) {
    panel_->show_document(edits_.document(), edited);
    summary_->setText("Cannot run " + edits_.path() + " as it is: fix the marked values.");
  }
  for (const auto& p : edits_.edited())
    if (const auto text = edits_.edited_text(p))
      panel_->show_text(p, *text);
  panel_->show_diagnostics(checked.diagnostics);
  // Every message in full, as `aisim check` prints it, beside the marks (whose column is narrow).
  const QString message = "Not run: the scenario has errors (marked in the parameters):\n" +
                          QString::fromStdString(checked.diagnostics.format(false)).trimmed();
  run_message_->setText(message);
  run_message_->setStyleSheet("color: #b00020;");
  run_message_->show();
  statusBar()->showMessage("Fix the marked values; the numbers shown are from the last usable scenario");
  return false;
}

bool MainWindow::change(const QString& pointer, const QString& text) {
  edits_.set(pointer, text, resolved_);
  setWindowModified(!edits_.empty());
  return check_and_run();
}

void MainWindow::revert(const QString& pointer) {
  edits_.revert(pointer);
  setWindowModified(!edits_.empty());
  check_and_run();
}

void MainWindow::undo() {
  if (!edits_.undo())
    return;
  setWindowModified(!edits_.empty());
  check_and_run();
}

void MainWindow::revert_all() {
  if (edits_.empty())
    return;
  edits_.clear();
  setWindowModified(false);
  check_and_run();
}

bool MainWindow::save(const QString& path) {
  if (edits_.path().isEmpty())
    return false;
  const QString target = path.isEmpty() ? edits_.path() : path;
  QString error;
  if (!edits_.save(target, &error)) {
    QMessageBox::warning(this, "Cannot save", error);
    statusBar()->showMessage("Not saved: " + error);
    return false;
  }
  // The saved file is now the scenario: no changes left over it.
  if (!edits_.load(target, &error)) {
    statusBar()->showMessage("Saved, but cannot read it back: " + error);
    return false;
  }
  setWindowModified(false);
  remember_recent(target);
  statusBar()->showMessage("Saved " + target);
  const auto checked = edits_.check();
  if (!checked.resolved) // relative drive files no longer found from a new folder, for instance
    return check_and_run();
  resolved_ = *checked.resolved;
  panel_->show_document(resolved_, {});
  show_header();
  return true;
}

bool MainWindow::save_as() {
  if (edits_.path().isEmpty())
    return false;
  const QString path = QFileDialog::getSaveFileName(this, "Save the scenario as", edits_.path(), "Scenarios (*.json)");
  return !path.isEmpty() && save(path);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (isWindowModified()) {
    const int answer =
        ask_unsaved
            ? ask_unsaved()
            : QMessageBox::question(this, "Unsaved changes",
                                    "The scenario has changes that are not saved. Save them before closing?",
                                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel || (answer == QMessageBox::Save && !save())) {
      event->ignore();
      return;
    }
  }
  if (remember_) {
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    settings.setValue("window/split", split_->saveState());
  }
  event->accept();
}

void MainWindow::restore_window_state() {
  QSettings settings;
  restoreGeometry(settings.value("window/geometry").toByteArray());
  restoreState(settings.value("window/state").toByteArray());
  split_->restoreState(settings.value("window/split").toByteArray());
}

QStringList MainWindow::recent_files() const { return QSettings().value("recent").toStringList(); }

void MainWindow::remember_recent(const QString& path) {
  if (!remember_)
    return;
  QStringList recent = recent_files();
  const QString full = QFileInfo(path).absoluteFilePath();
  recent.removeAll(full);
  recent.prepend(full);
  while (recent.size() > 8)
    recent.removeLast();
  QSettings().setValue("recent", recent);
}

void MainWindow::fill_recent_menu() {
  recent_->clear();
  const QStringList recent = recent_files();
  if (recent.isEmpty())
    recent_->addAction("(none yet)")->setEnabled(false);
  int n = 0;
  for (const auto& path : recent)
    recent_->addAction(QString("&%1 %2").arg(++n).arg(path), [this, path] {
      if (!isWindowModified() || QMessageBox::question(this, "Open another scenario",
                                                       "Discard the changes to the open scenario?") == QMessageBox::Yes)
        open_scenario(path);
    });
}

void MainWindow::run() {
  if (edits_.path().isEmpty() || resolved_.empty())
    return;
  set_running(true);
  progress_->setValue(0);
  statusBar()->showMessage("Running " + QFileInfo(edits_.path()).fileName() +
                           (edits_.empty() ? QString() : QString(" with %1 changes").arg(edits_.sets().size())) +
                           "...");
  runner_.start(edits_.path(), edits_.sets());
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
  fill_metrics();
  charts_->show_run(*results_);
  const double wall = results_->results.value("/sim/wall_s"_json_pointer, 0.0);
  statusBar()->showMessage(QString("Simulated in %1 s").arg(wall, 0, 'f', 2));
  if (on_run_settled)
    on_run_settled(true);
}

// The headline numbers; with a pinned baseline, its values and each change coloured better or worse.
void MainWindow::fill_metrics() {
  const auto metrics = results_ ? headline_metrics(results_->results) : std::vector<Metric>{};
  const auto base = baseline_ ? headline_metrics(baseline_->results) : std::vector<Metric>{};
  metrics_->setColumnHidden(2, !baseline_);
  metrics_->setColumnHidden(3, !baseline_);
  metrics_->clearContents();
  metrics_->setRowCount(static_cast<int>(metrics.size()));
  const auto cell = [this](int row, int column, const QString& text) {
    auto* item = new QTableWidgetItem(text);
    if (column > 0)
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    metrics_->setItem(row, column, item);
    return item;
  };
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const int row = static_cast<int>(i);
    const auto& m = metrics[i];
    cell(row, 0, m.name);
    cell(row, 1, format_metric(m));
    if (i >= base.size())
      continue;
    cell(row, 2, format_metric(base[i]));
    const auto change = compare_metric(m, base[i]);
    auto* item = cell(row, 3, change.text);
    item->setData(Qt::UserRole, change.better);
    if (change.better != 0) {
      item->setForeground(change.better > 0 ? QColor("#1b5e20") : QColor("#b00020"));
      item->setBackground(change.better > 0 ? QColor("#e3f4e5") : QColor("#fde0e0"));
      item->setToolTip(change.better > 0 ? "better than the baseline" : "worse than the baseline");
    }
  }
}

void MainWindow::pin_baseline() {
  if (!results_)
    return;
  baseline_ = results_;
  const QString changes = edits_.empty() ? QString("as the file is") : edits_.sets().join(", ");
  metrics_->horizontalHeaderItem(2)->setToolTip("Pinned: " + changes);
  fill_metrics();
  statusBar()->showMessage("Pinned this run as the baseline (" + changes + "); the next runs show their changes");
}

void MainWindow::clear_baseline() {
  baseline_.reset();
  fill_metrics();
}

QString MainWindow::shown_change(const QString& name, int* better) const {
  for (int i = 0; i < metrics_->rowCount(); ++i)
    if (metrics_->item(i, 0) && metrics_->item(i, 0)->text() == name && metrics_->item(i, 3)) {
      if (better)
        *better = metrics_->item(i, 3)->data(Qt::UserRole).toInt();
      return metrics_->item(i, 3)->text();
    }
  return {};
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

QStringList MainWindow::shown_table() const {
  QStringList rows;
  for (int i = 0; i < metrics_->rowCount(); ++i) {
    QStringList cells;
    for (int c = 0; c < metrics_->columnCount(); ++c)
      if (!metrics_->isColumnHidden(c))
        cells << (metrics_->item(i, c) ? metrics_->item(i, c)->text() : QString());
    rows << cells.join('\t');
  }
  return rows;
}

void MainWindow::show_sweep() {
  sweep_view_->set_scenario(edits_.path(), edits_.sets(), panel_->current_pointer());
  sweep_view_->show();
  sweep_view_->raise();
  sweep_view_->activateWindow();
}

bool MainWindow::open_point(const QString& pointer, const QString& value, const QString& dir) {
  runner_.cancel();
  edits_.set(pointer, value, resolved_);
  setWindowModified(!edits_.empty());
  // The point's run is the run of the scenario with this value: shown, not run again.
  if (!check_and_run(false))
    return false;
  show_results(dir);
  statusBar()->showMessage("Showing the sweep's run at " + pointer + " = " + value);
  return true;
}

} // namespace aisim::gui
