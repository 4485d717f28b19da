// aisim-gui [SCENARIO] [--screenshot FILE]: the what-if explorer. --screenshot renders the window once, writes it
// as a PNG and exits (how the tests and the README look at it, with QT_QPA_PLATFORM=offscreen).
#include "gui/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("aisim-gui");
  QCommandLineParser cli;
  cli.setApplicationDescription("aisim what-if explorer");
  cli.addHelpOption();
  cli.addPositionalArgument("scenario", "Scenario file to open.", "[SCENARIO]");
  const QCommandLineOption screenshot("screenshot", "Write the window as a PNG to FILE and exit.", "FILE");
  cli.addOption(screenshot);
  cli.process(app);
  const QStringList args = cli.positionalArguments();
  if (args.size() > 1) {
    std::fprintf(stderr, "aisim-gui: one scenario at most (got %lld)\n", static_cast<long long>(args.size()));
    return 2;
  }
  aisim::gui::MainWindow window;
  const bool opened = args.isEmpty() || window.open_scenario(args.front());
  window.show();
  if (cli.isSet(screenshot)) {
    const QString file = cli.value(screenshot);
    QTimer::singleShot(0, [&] {
      const bool saved = window.grab().save(file, "PNG");
      if (!saved)
        std::fprintf(stderr, "aisim-gui: cannot write %s\n", file.toLocal8Bit().constData());
      QApplication::exit(saved ? (opened ? 0 : 2) : 1);
    });
  }
  return QApplication::exec();
}
