// The tuning loop of the protective fall as Util/DebugGui/Docs/README.md shows it, step by step under Xvfb: push the
// simulated robot from the events bar, watch FallProtection protect and then go passive after lieStillTime, shorten
// lieStillTime in the parameters, put the robot back (restart, pick up, put down), push again: it goes passive sooner. Each step saves the
// README's screenshot (debuggui-tuning-*.png). ~25 s of the suite.
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/ParameterEditor.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/Tests/ScreenshotSupport.h"
#include "Util/DebugGui/Tests/XvfbApplication.h"
#include <QAction>
#include <QDockWidget>
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::testing;

namespace
{
const std::string phase = "FallProtection.phase", falls = "FallProtection.protectedFalls";

/// s of simulated time from the push's fall being protected to the robot lying passive: the first sample of
/// `protecting` after `from` to the first `lyingPassive` after it (NaN while not both seen).
double protectedToPassive(MainWindow& window, double from)
{
  const Series& series = window.store().series(phase);
  double protecting = NAN;
  for (std::size_t i = 0; i < series.value.size(); ++i)
  {
    if (series.time[i] < from) continue;
    if (std::isnan(protecting) && series.value[i] == 1.0) protecting = series.time[i];
    if (!std::isnan(protecting) && series.value[i] == 2.0) return series.time[i] - protecting;
  }
  return NAN;
}

void screenshot(MainWindow& window, const char* name)
{
  window.pump();
  QApplication::processEvents();
  EXPECT_TRUE(window.grab().save(readmeScreenshot(name))) << name;
}
} // namespace

TEST(DebugGuiTuningLoop, AShorterLieStillTimeMakesTheFallenRobotPassiveSooner)
{
  application();
  MainWindow window(simulationOptions());
  window.resize(1600, 1000);
  window.show();
  // 1. The simulated stand, the fall protection's phase and the true torso pitch plotted.
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  window.plotField(phase);
  window.plotField("truth.torso.pitch");
  ASSERT_TRUE(waitFor([&] { return window.store().series(phase).value.size() >= 250; }))
      << "standing for 3 s: " << window.statusLine().toStdString();

  // 2. A push from the events bar: protected, then passive after the default lieStillTime (1 s).
  QAction* push = window.findChild<QAction*>("pushFront");
  const double firstPush = window.store().series(phase).time.back();
  push->trigger();
  ASSERT_TRUE(waitFor([&] { return !std::isnan(protectedToPassive(window, firstPush)); }, 30))
      << window.store().latest(phase);
  const double before = protectedToPassive(window, firstPush);
  screenshot(window, "debuggui-tuning-push.png");

  // 3. The parameters: lieStillTime 1000 → 200 ms, applied live.
  ParameterEditor& editor = window.parameters();
  window.findChild<QDockWidget*>("parameters")->raise();
  editor.selectModule("FallProtectionProvider");
  ASSERT_TRUE(waitFor([&] { return editor.value("lieStillTime") == "1000"; }))
      << editor.value("lieStillTime").toStdString();
  ASSERT_TRUE(editor.editValue("lieStillTime", "200"));
  ASSERT_TRUE(waitFor([&] { return editor.message().startsWith("applied"); }))
      << editor.message().toStdString();
  screenshot(window, "debuggui-tuning-parameter.png");

  // 4. Back on its feet as a person would do it: restart (the plant crouched on the floor again), pick it up (lifted:
  // the fall protection hands the joints back to the stand), put it down; then push again.
  window.findChild<QAction*>("restartScenario")->trigger();
  window.findChild<QAction*>("pickUp")->trigger();
  ASSERT_TRUE(waitFor([&] { return window.simulation().lastReply.starts_with("applied pickup"); }))
      << window.simulation().lastReply;
  ASSERT_TRUE(waitFor([&] { return window.store().latest(phase) == "passThrough"; }, 30))
      << "handed back while lifted: " << window.store().latest(phase);
  window.findChild<QAction*>("putDown")->trigger();
  const double putDown = window.store().series(phase).time.back();
  ASSERT_TRUE(waitFor(
      [&]
      {
        const Series& series = window.store().series(phase);
        return series.time.back() > putDown + 3.0 && window.store().latest(phase) == "passThrough";
      },
      30))
      << "standing again: " << window.store().latest(phase);
  const double secondPush = window.store().series(phase).time.back();
  push->trigger();
  ASSERT_TRUE(waitFor([&] { return !std::isnan(protectedToPassive(window, secondPush)); }, 30))
      << window.store().latest(phase);
  const double after = protectedToPassive(window, secondPush);
  window.findChild<QDockWidget*>("robot3d")->raise();
  screenshot(window, "debuggui-tuning-again.png");
  std::cout << "protected to passive: " << before << " s, with lieStillTime 200 ms " << after << " s\n";
  EXPECT_LT(after, before - 0.5) << "s: the shorter lieStillTime shows";
  EXPECT_GE(std::stod(window.store().latest(falls)), 2.0) << "both falls protected";
  window.close();
}
