// aisim-gui [SCENARIO] [--what-if PTR=VALUE]... [--screenshot FILE [--table FILE]] [--cli PATH]: the what-if
// explorer.
// --what-if runs the scenario as it is, pins that run as the baseline, then applies the changes and runs again, so
// the window opens on the comparison. --screenshot waits for the (last) run's results, writes the window as a PNG
// (and with --table the headline table as drawn, one row a line, cells tab-separated) and exits (how the tests and
// the README look at it, with QT_QPA_PLATFORM=offscreen): 0 with results, 2 when the scenario or a change has
// errors, 3 when the run failed, 1 when a file cannot be written.
#include "gui/main_window.hpp"

#include <QApplication>
#include <QCommandLineParser>
#include <QFile>
#include <QTimer>

#include <cstdio>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("aisim-gui");
  QApplication::setOrganizationName("aisim");
  QCommandLineParser cli;
  cli.setApplicationDescription("aisim what-if explorer");
  cli.addHelpOption();
  cli.addPositionalArgument("scenario", "Scenario file to open.", "[SCENARIO]");
  const QCommandLineOption screenshot("screenshot", "Run the scenario, write the window as a PNG to FILE and exit.",
                                      "FILE");
  const QCommandLineOption table("table",
                                 "With --screenshot: write the headline table as drawn to FILE (tab-separated), for a "
                                 "script that checks what the window shows.",
                                 "FILE");
  const QCommandLineOption what_if("what-if",
                                   "Pin the scenario's run as the baseline, then change /json/pointer to VALUE and "
                                   "run again (repeatable).",
                                   "PTR=VALUE");
  const QCommandLineOption cli_path("cli", "The aisim CLI to run (default: $AISIM_CLI, else the one beside this).",
                                    "PATH");
  cli.addOption(screenshot);
  cli.addOption(table);
  cli.addOption(what_if);
  cli.addOption(cli_path);
  cli.process(app);
  const QStringList args = cli.positionalArguments();
  if (args.size() > 1) {
    std::fprintf(stderr, "aisim-gui: one scenario at most (got %lld)\n", static_cast<long long>(args.size()));
    return 2;
  }
  QStringList changes = cli.values(what_if);
  for (const auto& c : changes)
    if (!c.startsWith('/') || !c.contains('=')) {
      std::fprintf(stderr, "aisim-gui: --what-if %s: expected /json/pointer=value\n", c.toLocal8Bit().constData());
      return 2;
    }
  if (!changes.isEmpty() && args.isEmpty()) {
    std::fprintf(stderr, "aisim-gui: --what-if needs a scenario\n");
    return 2;
  }

  aisim::gui::MainWindow window(cli.isSet(cli_path) ? cli.value(cli_path) : aisim::gui::default_cli_path());
  const bool shooting = cli.isSet(screenshot);
  const auto save = [&](int status) {
    const QString file = cli.value(screenshot);
    const QString table_file = cli.value(table);
    // Let the window lay out and paint what it just received before grabbing it.
    QTimer::singleShot(0, [&window, file, table_file, status] {
      QString unwritten;
      if (!window.grab().save(file, "PNG"))
        unwritten = file;
      // The headline table as drawn: what a test reads back (tests/gui/check_screenshot.cmake).
      if (!table_file.isEmpty()) {
        QFile out(table_file);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            out.write((window.shown_table().join('\n') + '\n').toUtf8()) < 0)
          unwritten = table_file;
      }
      const bool saved = unwritten.isEmpty();
      if (!saved)
        std::fprintf(stderr, "aisim-gui: cannot write %s\n", unwritten.toLocal8Bit().constData());
      if (status == 3)
        std::fprintf(stderr, "aisim-gui: %s\n", window.run_error().toLocal8Bit().constData());
      QApplication::exit(saved ? status : 1);
    });
  };
  window.on_run_settled = [&](bool ok) {
    if (ok && !changes.isEmpty()) {
      // The first run is the baseline; the changes make the next one.
      window.pin_baseline();
      const QStringList now = changes;
      changes.clear();
      for (const auto& c : now) {
        const auto eq = c.indexOf('=');
        if (!window.change(c.left(eq), c.mid(eq + 1))) {
          std::fprintf(stderr, "aisim-gui: --what-if %s: the scenario has errors with it\n",
                       c.toLocal8Bit().constData());
          if (shooting)
            save(2);
          return;
        }
      }
      return;
    }
    if (shooting)
      save(ok ? 0 : 3);
  };
  if (shooting)
    window.set_remember(false);
  else
    window.restore_window_state();
  window.show();
  const bool opened = args.isEmpty() || window.open_scenario(args.front());
  if (shooting && (!opened || args.isEmpty()))
    save(opened ? 0 : 2);
  return QApplication::exec();
}
