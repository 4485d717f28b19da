// One parameter swept over a range, as a planner asks "how many enclosures until it stops helping?": `aisim sweep`
// in a child process (its executor runs the points on the machine's cores), the chosen metrics charted against the
// parameter with the knee aisim found marked, and a click on a point opening that run in the window.
#pragma once

#include "models/common/json_reader.hpp"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <functional>
#include <memory>

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QGridLayout;
class QProcess;
class QTemporaryDir;

namespace aisim::gui {

class SweepView : public QWidget {
public:
  explicit SweepView(QString cli_path, QWidget* parent = nullptr);
  ~SweepView() override;

  // The scenario and changes every point runs with (the window's current ones), and the parameter to offer.
  void set_scenario(const QString& scenario, const QStringList& sets, const QString& pointer);
  // Starts `aisim sweep SCENARIO --vary POINTER=VALUES --progress jsonl --out <a fresh folder> [--set S]...`
  // (VALUES as `--vary` reads them: "1..16:1", "2,4,8", "400Gbps..1.6Tbps:x2"); a sweep still going is stopped.
  void start(const QString& pointer, const QString& values);
  void cancel();
  bool running() const;

  // The sweep ended: true with its points charted, false with the CLI's message shown.
  std::function<void(bool ok)> on_settled;
  // A point was clicked (or open_point called): the swept pointer, the point's value as `--set` text, its folder.
  std::function<void(const QString& pointer, const QString& value, const QString& dir)> on_open_point;

  // What the finished sweep wrote (sweep.json), null before; the message shown after a failure.
  const models::Json& sweep() const { return sweep_; }
  const QString& message() const { return message_; }
  // The metrics charted, in order; each chart's points (x the parameter, y the metric) and its knee when found.
  QStringList charted() const;
  std::vector<std::pair<double, double>> chart_points(const QString& metric) const;
  std::optional<std::pair<double, double>> chart_knee(const QString& metric) const;
  // Opens point N (1-based) as a click does; false when there is no such finished point.
  bool open_point(int point);

private:
  void read_output();
  void finished(int code, bool crashed);
  void draw();

  QString cli_;
  QString scenario_;
  QStringList sets_;
  QLineEdit* pointer_;
  QLineEdit* values_;
  QPushButton* start_;
  QPushButton* stop_;
  QProgressBar* progress_;
  QLabel* status_;
  QGridLayout* charts_;
  std::unique_ptr<QProcess> process_;
  std::unique_ptr<QTemporaryDir> dir_;
  QByteArray errors_;
  models::Json sweep_;
  QString message_;
  struct Chart {
    QString metric;
    std::vector<std::pair<double, double>> points;
    std::vector<int> numbers; // each chart point's point number
    std::optional<std::pair<double, double>> knee;
  };
  std::vector<Chart> drawn_;
};

} // namespace aisim::gui
