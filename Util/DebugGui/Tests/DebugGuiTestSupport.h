#pragma once
// What the debug GUI's tests share: a headless QApplication with scratch settings, an event loop that waits for a
// condition, scratch copies of Config/, and the robot binary with the stand-in body on a free debug port.
#include "Tools/Testing/Files.h"
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/Tests/WaitFor.h"
#include <QApplication>
#include <QProcess>
#include <QRegularExpression>
#include <chrono>
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace nao::gui::test
{
using nao::test::readFile;

inline std::filesystem::path settingsFolder()
{
  return std::filesystem::temp_directory_path() / ("DebugGuiTests-" + std::to_string(::getpid()));
}

/// Removes the tests' QSettings folder when the test program ends.
struct RemoveSettingsAtExit
{
  ~RemoveSettingsAtExit() { std::filesystem::remove_all(settingsFolder()); }
};
inline RemoveSettingsAtExit removeSettingsAtExit;

inline QApplication& application()
{
  static int argc = 1;
  static char name[] = "DebugGuiTests";
  static char* argv[] = {name, nullptr};
  static QApplication* app = []
  {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    // QSettings of the tests go to a scratch folder, not the user's.
    qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString(settingsFolder().string()));
    return new QApplication(argc, argv);
  }();
  return *app;
}

inline std::vector<std::string> lines(const std::string& text)
{
  std::vector<std::string> result;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    result.push_back(line);
  return result;
}

/// A scratch copy of Config/ (edits are saved into it), optionally with other debug settings.
struct ScratchConfig
{
  std::filesystem::path directory;
  explicit ScratchConfig(const std::string& name, const std::string& settingsAppend = "")
  {
    directory =
        std::filesystem::temp_directory_path() / ("DebugGuiTests-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(directory);
    std::filesystem::copy(NAO_CONFIG_DIR, directory, std::filesystem::copy_options::recursive);
    if (!settingsAppend.empty())
    {
      std::string settings = readFile(directory / "settings.toml");
      for (const std::string key : {"debugBind", "debugToken"})
        if (settingsAppend.find(key) != std::string::npos)
        {
          const auto at = settings.find(key);
          settings.erase(at, settings.find('\n', at) - at + 1);
        }
      std::ofstream(directory / "settings.toml") << settings << settingsAppend;
    }
  }
  ~ScratchConfig() { std::filesystem::remove_all(directory); }
};

/// The robot binary with the stand-in body in real time, on a free debug port.
/// The robot binary's log of `frames` frames of the stand on the stand-in body, in `folder` (made if missing):
/// what the log replay tests open. Fails the test (the caller's ASSERT_NO_FATAL_FAILURE) if the run fails.
inline void recordStandLog(const std::filesystem::path& folder, const std::filesystem::path& log,
                           int frames = 300)
{
  std::filesystem::create_directories(folder);
  QProcess robot;
  robot.start(NAO_ROBOT_BINARY,
              {"--body", "standin", "--scenario", "stand", "--frames", QString::number(frames), "--no-debug",
               "--log", QString::fromStdString(log.string())});
  ASSERT_TRUE(robot.waitForFinished(60000));
  ASSERT_EQ(robot.exitCode(), 0) << robot.readAll().toStdString();
}

struct StandInRobot
{
  QProcess process;
  std::uint16_t port = 0;
  explicit StandInRobot(const std::filesystem::path& config, const QString& scenario = "standin")
  {
    process.setProcessChannelMode(QProcess::MergedChannels);
    process.start(NAO_ROBOT_BINARY,
                  {"--body", "standin", "--realtime", "--frames", "100000", "--scenario", scenario,
                   "--debug-port", "0", "--config", QString::fromStdString(config.string())});
    QString output;
    waitFor(
        [&]
        {
          output += QString::fromLocal8Bit(process.readAll());
          const int at = output.indexOf("debug channel on port ");
          if (at < 0) return process.state() == QProcess::NotRunning;
          port = static_cast<std::uint16_t>(
              output.mid(at + 22).section(QRegularExpression("[^0-9]"), 0, 0).toUInt());
          return true;
        },
        60);
    EXPECT_NE(port, 0) << output.toStdString();
  }
  ~StandInRobot()
  {
    process.terminate();
    if (!process.waitForFinished(10000)) process.kill();
  }
};

inline GuiOptions options(const std::filesystem::path& config = NAO_CONFIG_DIR)
{
  GuiOptions result;
  result.config = config;
  result.robot = "Default";
  result.robotBinary = NAO_ROBOT_BINARY;
  result.simulatorBinary = NAO_SIMULATOR_BINARY;
  return result;
}

/// Pixels of the plot's axis rectangle within a small distance of a colour.
inline int pixelsOfColour(const QImage& image, const QRect& area, const QColor& colour)
{
  int count = 0;
  for (int y = area.top(); y <= area.bottom(); ++y)
    for (int x = area.left(); x <= area.right(); ++x)
    {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green()) +
              std::abs(pixel.blue() - colour.blue()) <
          30)
        ++count;
    }
  return count;
}
} // namespace nao::gui::test
