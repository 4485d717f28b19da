// aisim-gui [SCENARIO] [--screenshot FILE]: the what-if explorer. --screenshot opens the scenario, runs it, waits
// for the results, writes the window as a PNG and exits (how the tests and the README look at it, with
// QT_QPA_PLATFORM=offscreen): 0 with results, 2 when the scenario has errors, 3 when the run failed, 1 when the PNG
// cannot be written.
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
  const QCommandLineOption screenshot("screenshot", "Run the scenario, write the window as a PNG to FILE and exit.",
                                      "FILE");
  const QCommandLineOption cli_path("cli", "The aisim CLI to run (default: $AISIM_CLI, else the one beside this).",
                                    "PATH");
  cli.addOption(screenshot);
  cli.addOption(cli_path);
  cli.process(app);
  const QStringList args = cli.positionalArguments();
  if (args.size() > 1) {
    std::fprintf(stderr, "aisim-gui: one scenario at most (got %lld)\n", static_cast<long long>(args.size()));
    return 2;
  }
  aisim::gui::MainWindow window(cli.isSet(cli_path) ? cli.value(cli_path) : aisim::gui::default_cli_path());
  const auto save = [&](int status) {
    const QString file = cli.value(screenshot);
    // Let the window lay out and paint what it just received before grabbing it.
    QTimer::singleShot(0, [&window, file, status] {
      const bool saved = window.grab().save(file, "PNG");
      if (!saved)
        std::fprintf(stderr, "aisim-gui: cannot write %s\n", file.toLocal8Bit().constData());
      if (status == 3)
        std::fprintf(stderr, "aisim-gui: %s\n", window.run_error().toLocal8Bit().constData());
      QApplication::exit(saved ? status : 1);
    });
  };
  if (cli.isSet(screenshot))
    window.on_run_settled = [&](bool ok) { save(ok ? 0 : 3); };
  window.show();
  const bool opened = args.isEmpty() || window.open_scenario(args.front());
  if (cli.isSet(screenshot) && (!opened || args.isEmpty()))
    save(opened ? 0 : 2);
  return QApplication::exec();
}
