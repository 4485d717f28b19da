// The explorer's main window: the scenario it works on, with File > Open and Quit. The parameter panel, the runs
// and the charts come in the next steps (gui/README.md).
#pragma once

#include <QMainWindow>
#include <QString>

class QLabel;

namespace aisim::gui {

class MainWindow : public QMainWindow {
public:
  MainWindow();
  // Reads a scenario with the same parser and checks as `aisim`; shows what it holds, or why it cannot be used.
  // Returns whether it parsed.
  bool open_scenario(const QString& path);

private:
  QLabel* summary_;
};

} // namespace aisim::gui
