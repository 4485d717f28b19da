#include "gui/sweep_view.hpp"

#include <QChart>
#include <QChartView>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLineSeries>
#include <QProcess>
#include <QProgressBar>
#include <QPushButton>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace aisim::gui {
namespace {

using models::Json;

// The metrics charted when the sweep has them, in this order.
const char* const kCharted[] = {"gpu_utilization_fraction", "total_with_lost_gpu_usd", "checkpoint_write_p99_s",
                                "stall_data_fraction", "expected_loss_usd_per_year"};

// How a metric reads on its axis: fractions in percent, dollars in millions, the rest as they are.
std::pair<double, QString> axis_scale(const QString& column) {
  if (column.endsWith("_fraction"))
    return {100.0, "%"};
  if (column.contains("usd"))
    return {1e-6, "$M"};
  if (column.endsWith("_s"))
    return {1.0, "s"};
  return {1.0, ""};
}

// An axis value as a number: a number, or the number a quantity starts with ("400Gbps": 400).
std::optional<double> number_of(const Json& v) {
  if (v.is_number())
    return v.get<double>();
  if (!v.is_string())
    return std::nullopt;
  const std::string s = v.get<std::string>();
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  return end == s.c_str() ? std::nullopt : std::optional<double>(x);
}

} // namespace

SweepView::SweepView(QString cli_path, QWidget* parent)
    : QWidget(parent, Qt::Window), cli_(std::move(cli_path)), pointer_(new QLineEdit), values_(new QLineEdit),
      start_(new QPushButton("Sweep")), stop_(new QPushButton("Cancel")), progress_(new QProgressBar),
      status_(new QLabel), charts_(new QGridLayout) {
  setWindowTitle("aisim: sweep a parameter");
  pointer_->setPlaceholderText("/storage/hot/enclosures");
  values_->setPlaceholderText("1..16:1   or   2,4,8   or   400Gbps..1.6Tbps:x2");
  auto* form = new QFormLayout;
  form->addRow("parameter", pointer_);
  form->addRow("values", values_);
  auto* buttons = new QHBoxLayout;
  buttons->addWidget(start_);
  buttons->addWidget(stop_);
  buttons->addWidget(progress_, 1);
  status_->setWordWrap(true);
  status_->setTextFormat(Qt::PlainText);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setText("Each value is an ordinary run of the scenario with the window's changes; click a point to open "
                   "its run in the window.");
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(buttons);
  layout->addWidget(status_);
  layout->addLayout(charts_, 1);
  progress_->setFormat("%v of %m points");
  progress_->hide();
  stop_->hide();
  QObject::connect(start_, &QPushButton::clicked, [this] { start(pointer_->text().trimmed(), values_->text()); });
  QObject::connect(stop_, &QPushButton::clicked, [this] { cancel(); });
  resize(1100, 800);
}

SweepView::~SweepView() { cancel(); }

void SweepView::set_scenario(const QString& scenario, const QStringList& sets, const QString& pointer) {
  scenario_ = scenario;
  sets_ = sets;
  if (!pointer.isEmpty())
    pointer_->setText(pointer);
}

bool SweepView::running() const { return process_ && process_->state() != QProcess::NotRunning; }

void SweepView::cancel() {
  if (!process_)
    return;
  process_->disconnect();
  process_->kill();
  process_->waitForFinished(5000);
  process_.reset();
  progress_->hide();
  stop_->hide();
  start_->setEnabled(true);
  status_->setText("Sweep cancelled.");
}

void SweepView::start(const QString& pointer, const QString& values) {
  cancel();
  pointer_->setText(pointer);
  values_->setText(values);
  sweep_ = Json();
  message_.clear();
  errors_.clear();
  dir_ = std::make_unique<QTemporaryDir>(QDir(QDir::tempPath()).filePath("aisim-gui-sweep-XXXXXX"));
  if (scenario_.isEmpty() || pointer.isEmpty() || values.trimmed().isEmpty() || !dir_->isValid()) {
    finished(2, false);
    return;
  }
  // A fresh folder per sweep: the points of the last one stay openable until the next starts.
  const QString out = QDir(dir_->path()).filePath("sweep");
  QStringList args{"sweep",      QFileInfo(scenario_).absoluteFilePath(),
                   "--vary",     pointer + "=" + values.trimmed(),
                   "--progress", "jsonl",
                   "--out",      out};
  for (const auto& s : sets_)
    args << "--set" << s;
  process_ = std::make_unique<QProcess>();
  QObject::connect(process_.get(), &QProcess::readyReadStandardOutput, [this] { read_output(); });
  QObject::connect(process_.get(), &QProcess::readyReadStandardError,
                   [this] { errors_ += process_->readAllStandardError(); });
  QObject::connect(process_.get(), &QProcess::finished,
                   [this](int code, QProcess::ExitStatus status) { finished(code, status == QProcess::CrashExit); });
  QObject::connect(process_.get(), &QProcess::errorOccurred, [this](QProcess::ProcessError error) {
    if (error == QProcess::FailedToStart)
      finished(127, false);
  });
  progress_->setRange(0, 0);
  progress_->show();
  stop_->show();
  start_->setEnabled(false);
  status_->setText("Sweeping " + pointer + " over " + values.trimmed() + "...");
  process_->start(cli_, args);
}

void SweepView::read_output() {
  while (process_ && process_->canReadLine()) {
    const QByteArray line = process_->readLine().trimmed();
    const auto msg = Json::parse(line.constData(), line.constData() + line.size(), nullptr, false);
    if (msg.is_object() && msg.value("type", "") == "point") {
      progress_->setRange(0, msg.value("of", 0));
      progress_->setValue(msg.value("done", 0));
    }
  }
}

void SweepView::finished(int code, bool crashed) {
  if (process_) {
    read_output();
    errors_ += process_->readAllStandardError();
    process_->disconnect();
    process_.release()->deleteLater();
  }
  progress_->hide();
  stop_->hide();
  start_->setEnabled(true);
  const QString said = QString::fromLocal8Bit(errors_).trimmed();
  const QString doc_path = dir_ ? QDir(dir_->path()).filePath("sweep/sweep.json") : QString();
  QFile file(doc_path);
  // Exit 1: some points failed; the others are charted and the failures named.
  if (!crashed && (code == 0 || code == 1) && file.open(QIODevice::ReadOnly)) {
    const QByteArray text = file.readAll();
    sweep_ = Json::parse(text.constData(), text.constData() + text.size(), nullptr, false);
  }
  if (sweep_.is_discarded() || !sweep_.is_object() || !sweep_.contains("points")) {
    sweep_ = Json();
    if (scenario_.isEmpty())
      message_ = "Open a scenario first.";
    else if (pointer_->text().isEmpty() || values_->text().trimmed().isEmpty())
      message_ = "Give the parameter (a JSON pointer, as the parameter tree's right-click copies it) and its values.";
    else if (code == 127)
      message_ = "Cannot start the simulator " + cli_ + ". Build it with `make`, or point AISIM_CLI at it.";
    else if (crashed)
      message_ = "The sweep stopped before it finished (killed or crashed).";
    else
      message_ = "The sweep cannot run:\n" + said;
    status_->setText(message_);
    if (on_settled)
      on_settled(false);
    return;
  }
  draw();
  size_t failed = 0;
  for (const auto& p : sweep_["points"])
    failed += p.value("status", "") != "ok";
  status_->setText(
      QString::fromStdString(sweep_.value("description", "")) +
      (failed ? QString(", %1 failed (see the CLI's message below)\n%2").arg(failed).arg(said.right(600)) : QString()) +
      ". Click a point to open its run in the window.");
  if (on_settled)
    on_settled(true);
}

void SweepView::draw() {
  while (auto* item = charts_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  drawn_.clear();
  const Json axes = sweep_.value("/run/plan/axes"_json_pointer, Json::array());
  if (axes.size() != 1)
    return;
  const std::string pointer = axes[0].value("pointer", "");
  const bool numeric = axes[0].contains("unit");
  const QString x_title =
      QString::fromStdString(pointer) + (numeric && !axes[0]["unit"].get<std::string>().empty()
                                             ? " [" + QString::fromStdString(axes[0]["unit"].get<std::string>()) + "]"
                                             : (numeric ? QString() : QString(" (value number)")));
  const Json knees = sweep_.value("knees", Json::object());
  const Json& values = axes[0]["values"];
  const auto x_of = [&](const Json& p) -> std::optional<double> {
    const Json& v = p["values"][pointer];
    if (numeric)
      return number_of(v);
    const auto it = std::find(values.begin(), values.end(), v);
    return it == values.end() ? std::nullopt : std::optional<double>(double(it - values.begin()) + 1);
  };
  std::map<std::string, std::string> labels;
  for (const auto& m : sweep_.value("metrics", Json::array()))
    labels[m.value("column", "")] = m.value("label", "");
  int slot = 0;
  for (const char* column : kCharted) {
    Chart c{column, {}, {}, std::nullopt};
    for (const auto& p : sweep_["points"]) {
      const auto x = x_of(p);
      if (p.value("status", "") != "ok" || !x || !p["metrics"].contains(column))
        continue;
      c.points.emplace_back(*x, p["metrics"][column].get<double>());
      c.numbers.push_back(p.value("point", 0));
    }
    if (c.points.empty())
      continue;
    if (knees.contains(column)) {
      const int kp = knees[column].value("point", 0);
      const auto at = std::find(c.numbers.begin(), c.numbers.end(), kp);
      if (at != c.numbers.end())
        c.knee = c.points[size_t(at - c.numbers.begin())];
    }
    const auto [scale, unit] = axis_scale(column);
    auto* chart = new QChart;
    chart->setTitle(QString::fromStdString(labels.count(column) ? labels[column] : column));
    auto* line = new QLineSeries;
    auto* dots = new QScatterSeries;
    dots->setName("points (click to open)");
    dots->setMarkerSize(9);
    std::vector<std::pair<double, double>> sorted = c.points;
    std::sort(sorted.begin(), sorted.end());
    for (const auto& [x, y] : sorted) {
      line->append(x, y * scale);
      dots->append(x, y * scale);
    }
    chart->addSeries(line);
    chart->addSeries(dots);
    QScatterSeries* knee = nullptr;
    if (c.knee) {
      knee = new QScatterSeries;
      knee->setName(QString("knee: %1").arg(c.knee->first));
      knee->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
      knee->setMarkerSize(15);
      knee->setColor(QColor("#b00020"));
      knee->append(c.knee->first, c.knee->second * scale);
      chart->addSeries(knee);
    }
    double lo_x = sorted.front().first, hi_x = sorted.back().first, lo_y = 1e300, hi_y = -1e300;
    for (const auto& [x, y] : sorted) {
      lo_y = std::min(lo_y, y * scale);
      hi_y = std::max(hi_y, y * scale);
    }
    const double pad_x = hi_x > lo_x ? (hi_x - lo_x) * 0.05 : 1, pad_y = hi_y > lo_y ? (hi_y - lo_y) * 0.1 : 1;
    auto* ax = new QValueAxis;
    ax->setTitleText(x_title);
    ax->setRange(lo_x - pad_x, hi_x + pad_x);
    ax->applyNiceNumbers(); // whole ticks for counts, round ones for rates
    ax->setLabelFormat("%g");
    auto* ay = new QValueAxis;
    ay->setTitleText(unit);
    ay->setRange(lo_y - pad_y, hi_y + pad_y);
    ay->setLabelFormat("%.4g");
    chart->addAxis(ax, Qt::AlignBottom);
    chart->addAxis(ay, Qt::AlignLeft);
    for (auto* s : chart->series()) {
      s->attachAxis(ax);
      s->attachAxis(ay);
    }
    chart->legend()->setAlignment(Qt::AlignBottom);
    line->setName("");
    chart->legend()->markers(line).front()->setVisible(false);
    const auto numbers = c.numbers;
    const auto points = c.points;
    const auto clicked = [this, numbers, points](const QPointF& at) {
      size_t best = 0;
      for (size_t i = 1; i < points.size(); ++i)
        if (std::fabs(points[i].first - at.x()) < std::fabs(points[best].first - at.x()))
          best = i;
      open_point(numbers[best]);
    };
    QObject::connect(dots, &QScatterSeries::clicked, clicked);
    if (knee)
      QObject::connect(knee, &QScatterSeries::clicked, clicked);
    auto* view = new QChartView(chart);
    view->setRenderHint(QPainter::Antialiasing);
    view->setMinimumSize(420, 300);
    charts_->addWidget(view, slot / 2, slot % 2);
    ++slot;
    drawn_.push_back(std::move(c));
  }
}

QStringList SweepView::charted() const {
  QStringList out;
  for (const auto& c : drawn_)
    out << c.metric;
  return out;
}

std::vector<std::pair<double, double>> SweepView::chart_points(const QString& metric) const {
  for (const auto& c : drawn_)
    if (c.metric == metric)
      return c.points;
  return {};
}

std::optional<std::pair<double, double>> SweepView::chart_knee(const QString& metric) const {
  for (const auto& c : drawn_)
    if (c.metric == metric)
      return c.knee;
  return std::nullopt;
}

bool SweepView::open_point(int point) {
  if (!sweep_.is_object() || point < 1 || point > int(sweep_["points"].size()) || !dir_)
    return false;
  const Json& p = sweep_["points"][size_t(point - 1)];
  const Json axes = sweep_.value("/run/plan/axes"_json_pointer, Json::array());
  if (p.value("status", "") != "ok" || axes.size() != 1)
    return false;
  const std::string pointer = axes[0].value("pointer", "");
  const Json& v = p["values"][pointer];
  const QString value = QString::fromStdString(v.is_string() ? v.get<std::string>() : v.dump());
  const QString dir =
      QDir(QDir(dir_->path()).filePath("sweep")).filePath(QString::fromStdString(p.value("folder", "")));
  if (on_open_point)
    on_open_point(QString::fromStdString(pointer), value, dir);
  return true;
}

} // namespace aisim::gui
