// --sim's ground truth beside the robot's estimate, under Xvfb as the 3D view's other tests: the simulator's truth
// lines reach the store (truth.*) with physical values of a standing NAO, the IMU's error against it is one field
// (error.*), and after a push that fells the robot the view draws the true robot on the ground (label and pixels) with
// the estimate translucent. Writes the README's screenshot of the fall (debuggui-truth.png). ~15 s of the suite.
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/PoseFromStore.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/SimulationTruth.h"
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
double latest(MainWindow& window, const std::string& field)
{
  const Series& series = window.store().series(field);
  return series.value.empty() ? NAN : series.value.back();
}
} // namespace

TEST(DebugGuiTruth, TheTrueRobotIsDrawnBesideTheEstimateAndFallsWhenPushed)
{
  application();
  MainWindow window(simulationOptions());
  window.resize(1600, 1000);
  window.show();
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  // Risen from the crouch (1.5 s) and standing: 300 frames of truth at 25 Hz are ~100 lines.
  ASSERT_TRUE(waitFor([&] { return window.store().series("truth.torso.z").value.size() >= 100; }))
      << window.simulation().truths << " truth lines; " << window.statusLine().toStdString();
  window.plotField("truth.torso.pitch");
  window.plotField("InertialData.angles[1]");
  window.plotField("error.InertialData.pitch");
  ASSERT_TRUE(waitFor([&] { return window.store().series("error.InertialData.pitch").value.size() >= 20; }))
      << "the error needs InertialData, which plotting the error subscribes";
  // A standing NAO V6 (5.3 kg): the torso origin about a third of a metre up, both soles carrying its weight, the
  // filtered IMU within a few degrees of the truth.
  EXPECT_GT(latest(window, "truth.torso.z"), 0.25);
  EXPECT_LT(latest(window, "truth.torso.z"), 0.40);
  const double soles = latest(window, "truth.soles.left") + latest(window, "truth.soles.right");
  EXPECT_NEAR(soles, 5.3 * 9.81, 0.25 * 5.3 * 9.81) << "N on both soles";
  EXPECT_LT(std::abs(latest(window, "error.InertialData.pitch")), 0.05) << "rad, the filtered pitch's error";
  EXPECT_NEAR(latest(window, "truth.angles.LKneePitch") * 180 / std::numbers::pi, 48, 5)
      << "°, the stand's knee";
  RobotView3D& view = window.robotView();
  ASSERT_TRUE(view.refresh()) << view.error().toStdString();
  EXPECT_EQ(view.truthLabel().toStdString(), "truth: upright");
  ASSERT_TRUE(view.scene()->hasTruth());
  EXPECT_LT((view.scene()->trueTorsoPosition() - view.scene()->torsoPosition()).head<2>().norm(), 1e-9)
      << "the estimate stands at the truth's x, y";

  // The events bar's push fells it: the true robot lies on the floor, drawn there.
  window.findChild<QAction*>("pushFront")->trigger();
  ASSERT_TRUE(waitFor(
      [&]
      {
        view.refresh();
        return view.truthLabel().startsWith("truth: on the ground");
      },
      20))
      << view.truthLabel().toStdString();
  EXPECT_LT(view.scene()->trueTorsoPosition().z(), 0.2) << "m: the true torso near the floor";
  EXPECT_GT(count(view.image(), robotGrey), view.image().width() * view.image().height() / 60)
      << "the true robot's solid grey";
  window.pump();
  window.findChild<QDockWidget*>("robot3d")->raise();
  QApplication::processEvents();
  EXPECT_TRUE(window.grab().save(readmeScreenshot("debuggui-truth.png")));
  window.close();
}
