// `make bench`'s GUI row: the time from a parameter change to redrawn charts, on the default scenario, offscreen.
// Each change is made as the planner makes it (a value typed into the parameter panel): checked, run in a child
// `aisim run`, its files read, the table and charts rebuilt, and the window painted. Prints one line per
// measurement set; benchmarks report wall time, tests never assert on it.
#include "gui/main_window.hpp"
#include "gui/parameter_panel.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QStandardPaths>

#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QStandardPaths::setTestModeEnabled(true);
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s AISIM_CLI SCENARIO [CHANGES]\n", argv[0]);
    return 2;
  }
  const int changes = argc > 3 ? std::max(1, std::atoi(argv[3])) : 10;
  aisim::gui::MainWindow window(QString::fromLocal8Bit(argv[1]));
  window.show();
  QElapsedTimer timer;
  std::vector<double> latency_s, simulate_s;
  int settled = 0;
  bool failed = false;
  window.on_run_settled = [&](bool ok) {
    window.repaint(); // the charts drawn now, not at the next idle moment
    if (settled > 0)
      latency_s.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e9);
    if (ok && window.results())
      simulate_s.push_back(window.results()->results.value("/sim/wall_s"_json_pointer, 0.0));
    failed = failed || !ok;
    ++settled;
  };
  if (!window.open_scenario(QString::fromLocal8Bit(argv[2]))) {
    std::fprintf(stderr, "%s: the scenario has errors\n", argv[2]);
    return 2;
  }
  while (settled < 1)
    QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  for (int i = 0; i < changes && !failed; ++i) {
    // A different checkpoint interval each time, so every run is a new one.
    const QString interval = QString("%1min").arg(20 + i);
    timer.start();
    if (!window.panel().edit("/workloads/0/checkpoint/interval", interval)) {
      std::fprintf(stderr, "the scenario has no /workloads/0/checkpoint/interval to change\n");
      return 2;
    }
    const int want = settled + 1;
    while (settled < want)
      QApplication::processEvents(QEventLoop::WaitForMoreEvents);
  }
  if (failed || latency_s.empty()) {
    std::fprintf(stderr, "a run failed: %s\n", window.run_error().toLocal8Bit().constData());
    return 1;
  }
  std::sort(latency_s.begin(), latency_s.end());
  const double median = latency_s[latency_s.size() / 2];
  std::sort(simulate_s.begin(), simulate_s.end());
  std::printf("%-26s %7d %9.3f %9.3f %9.3f %12.3f\n", "change -> redrawn charts", static_cast<int>(latency_s.size()),
              latency_s.front(), median, latency_s.back(), simulate_s[simulate_s.size() / 2]);
  return 0;
}
