// Catch2's runner for the GUI tests, inside a QApplication: offscreen unless the environment picks a platform.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QApplication>
#include <QStandardPaths>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  // Recent files and window state go to Qt's test locations, not the user's settings.
  QStandardPaths::setTestModeEnabled(true);
  QApplication::setOrganizationName("aisim-tests");
  return Catch::Session().run(argc, argv);
}
