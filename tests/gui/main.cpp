// Catch2's runner for the GUI tests, inside a QApplication: offscreen unless the environment picks a platform.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  // Recent files and window state go to a folder of this process, not the user's settings, and not a file that
  // the test processes ctest runs in parallel would share.
  QStandardPaths::setTestModeEnabled(true);
  QApplication::setOrganizationName("aisim-tests");
  QTemporaryDir settings;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
  return Catch::Session().run(argc, argv);
}
