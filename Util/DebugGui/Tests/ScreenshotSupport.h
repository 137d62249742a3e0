#pragma once
// What the 3D view's tests share: the window's options for this build's robot binary and simulator, where a README
// screenshot goes, counting pixels of a colour, and the robot's grey as it comes out lit (RobotScene.h).
#include "Tools/Testing/SourceTree.h"
#include "Util/DebugGui/MainWindow.h"
#include <QImage>
#include <QString>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace nao::gui::testing
{
/// The window's options: this source tree's Config/, robot Default, this build's robot binary and simulator.
inline GuiOptions simulationOptions()
{
  GuiOptions options;
  options.config = NAO_CONFIG_DIR;
  options.robot = "Default";
  options.robotBinary = NAO_ROBOT_BINARY;
  options.simulatorBinary = NAO_SIMULATOR_BINARY;
  return options;
}

/// Where a README screenshot goes: into the build folder, and with NAO_UPDATE_SCREENSHOTS=1 over the README's own
/// (Util/DebugGui/Docs), so that a test run leaves the source tree as it was unless asked.
inline QString readmeScreenshot(const char* name)
{
  const char* update = std::getenv("NAO_UPDATE_SCREENSHOTS");
  const std::filesystem::path folder = update && std::string_view(update) == "1"
                                           ? nao::test::sourceDirectory() / "Util/DebugGui/Docs"
                                           : std::filesystem::path(NAO_BUILD_DIR);
  return QString::fromStdString((folder / name).string());
}

/// Counts pixels for which `is(r, g, b)` holds.
template<class Predicate>
int count(const QImage& image, Predicate is)
{
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
    {
      const QRgb p = image.pixel(x, y);
      if (is(qRed(p), qGreen(p), qBlue(p))) ++n;
    }
  return n;
}

inline bool robotGrey(int r, int g, int b)
{
  return std::min({r, g, b}) >= 110 && std::max({r, g, b}) - std::min({r, g, b}) <= 30;
}
} // namespace nao::gui::testing
