// The 3D view under a real X server: the test starts its own Xvfb (XvfbApplication.h) and Qt's xcb platform makes
// a GLX context with Mesa's software renderer. Without OpenGL every test fails with the view's message: the view is
// what is tested, not skipped.
//
// What is asserted is what a user sees: pixels of the robot's grey inside the image, a raised arm reaching above
// the head, the mouse turning and zooming, the overlays' colours appearing only when switched on, in the whole
// window fed by a log the pose and the stiffness ellipsoids of the logged frames, fed by the simulator the stand it
// subscribed itself, each joint's link coloured by its estimated temperature; and the placement without an IMU.
#include "Tools/Testing/SourceTree.h"
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/Tests/ScreenshotSupport.h"
#include "Util/DebugGui/Tests/XvfbApplication.h"
#include <QApplication>
#include <QCheckBox>
#include <QDockWidget>
#include <QMouseEvent>
#include <QProcess>
#include <QSlider>
#include <QWheelEvent>
#include <array>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <gtest/gtest.h>
#include <iostream>
#include <numbers>
#include <qcustomplot.h>
#include <string_view>
#include <thread>
#include <vector>

using namespace nao;
using namespace nao::gui;
using namespace nao::gui::testing;

namespace
{
// The colours the view draws with (RobotScene.h), as they come out lit (robotGrey: ScreenshotSupport.h).
bool red(int r, int g, int b)
{
  return r >= 150 && g <= 90 && b <= 90;
}
bool green(int r, int g, int b)
{
  return g >= 150 && r <= 110 && b <= 110;
}
bool orange(int r, int g, int b)
{
  return r >= 170 && g >= 80 && g <= 190 && b <= 90 && r - g >= 50;
}
bool blue(int r, int g, int b)
{
  return b >= 150 && r <= 130 && g < b && b - r >= 60;
}

/// The topmost image row holding robot grey, or the image height.
int topmostRobotRow(const QImage& image)
{
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x)
    {
      const QRgb p = image.pixel(x, y);
      if (robotGrey(qRed(p), qGreen(p), qBlue(p))) return y;
    }
  return image.height();
}

/// The standing robot's joint angles as JointSensorData leaves (degrees in, radians as the debug channel sends).
Sample jointSample(double leftShoulderPitchDegrees)
{
  JointArray<double> degrees{};
  degrees[Joint::LShoulderPitch] = leftShoulderPitchDegrees;
  degrees[Joint::RShoulderPitch] = 90;
  degrees[Joint::LShoulderRoll] = 7;
  degrees[Joint::RShoulderRoll] = -7;
  for (const auto& [hip, knee, ankle] : {std::array{Joint::LHipPitch, Joint::LKneePitch, Joint::LAnklePitch},
                                         std::array{Joint::RHipPitch, Joint::RKneePitch, Joint::RAnklePitch}})
  {
    degrees[hip] = -20;
    degrees[knee] = 48;
    degrees[ankle] = -28;
  }
  Sample sample;
  sample.representation = "JointSensorData";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    sample.values.emplace_back("angles." + std::string(jointNames[j]),
                               std::to_string(degrees[j] * std::numbers::pi / 180));
  return sample;
}

struct ViewFixture
{
  QApplication& app = application(); // before any widget
  SeriesStore store;
  RobotView3D view{store, NAO_CONFIG_DIR, "Default"};
  ViewFixture()
  {
    view.resize(640, 520);
    view.show();
    for (const Overlay overlay : {Overlay::collisionShapes, Overlay::centerOfMass, Overlay::supportPolygon,
                                  Overlay::stiffness, Overlay::seeThrough})
      view.setOverlay(overlay, false);
  }
  QImage draw(double leftShoulderPitchDegrees)
  {
    store.add(jointSample(leftShoulderPitchDegrees));
    EXPECT_TRUE(view.refresh()) << view.error().toStdString();
    return view.image();
  }
};
} // namespace

TEST(DebugGui3D, RendersTheRobotInTheMiddleOfTheImage)
{
  ViewFixture fixture;
  const QImage image = fixture.draw(90);
  ASSERT_FALSE(image.isNull()) << fixture.view.error().toStdString();
  EXPECT_GE(image.width(), 400);
  const int all = count(image, robotGrey);
  // The robot (about 55 cm high, 1.1 m away) covers a good part of the picture; the floor and the background
  // are darker than its grey.
  EXPECT_GT(all, image.width() * image.height() / 40) << "robot grey pixels";
  const QImage middle = image.copy(image.width() / 4, 0, image.width() / 2, image.height());
  EXPECT_GT(count(middle, robotGrey), all * 8 / 10) << "the robot stands in the middle";
  // The torso stands on the ground: the placement put the lowest sole point at z = 0.
  ASSERT_NE(fixture.view.scene(), nullptr);
  EXPECT_NEAR(fixture.view.scene()->torsoPosition().z(), 0.31, 0.04) << "m, torso height in the stand";
  image.save(QString(NAO_BUILD_DIR) + "/DebugGui3D-stand.png");
  // What a frame costs here (Mesa's software renderer): reported, not asserted.
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < 20; ++i)
    fixture.view.refresh();
  std::cout << "3D view: "
            << std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count() /
                   20
            << " ms per " << image.width() << " x " << image.height() << " frame (pose, render, read-back)\n";
}

TEST(DebugGui3D, TheMouseOrbitsAndZooms)
{
  ViewFixture fixture;
  const QImage front = fixture.draw(90);
  QWidget* canvas = fixture.view.findChild<QWidget*>("canvas");
  ASSERT_NE(canvas, nullptr);
  const QPointF centre(canvas->width() / 2.0, canvas->height() / 2.0);
  QMouseEvent press(QEvent::MouseButtonPress, centre, canvas->mapToGlobal(centre), Qt::LeftButton,
                    Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(canvas, &press);
  const QPointF moved = centre + QPointF(150, 0); // 60° about the vertical
  QMouseEvent move(QEvent::MouseMove, moved, canvas->mapToGlobal(moved), Qt::NoButton, Qt::LeftButton,
                   Qt::NoModifier);
  QCoreApplication::sendEvent(canvas, &move);
  ASSERT_TRUE(fixture.view.refresh());
  const QImage side = fixture.view.image();
  int changed = 0;
  for (int y = 0; y < side.height(); ++y)
    for (int x = 0; x < side.width(); ++x)
      changed += side.pixel(x, y) != front.pixel(x, y);
  EXPECT_GT(changed, 2000) << "pixels that differ after the orbit";
  QWheelEvent wheel(centre, canvas->mapToGlobal(centre), QPoint(), QPoint(0, 360), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QCoreApplication::sendEvent(canvas, &wheel);
  ASSERT_TRUE(fixture.view.refresh());
  EXPECT_GT(count(fixture.view.image(), robotGrey), count(side, robotGrey) * 5 / 4)
      << "zoomed in: a larger robot";
}

TEST(DebugGui3D, ARaisedArmReachesAboveTheHead)
{
  ViewFixture fixture;
  const QImage down = fixture.draw(90); // arm hanging
  const QImage up = fixture.draw(-90);  // arm pointing at the sky
  up.save(QString(NAO_BUILD_DIR) + "/DebugGui3D-arm.png");
  ASSERT_EQ(down.size(), up.size());
  int changed = 0;
  for (int y = 0; y < up.height(); ++y)
    for (int x = 0; x < up.width(); ++x)
      changed += up.pixel(x, y) != down.pixel(x, y);
  EXPECT_GT(changed, 1000) << "pixels that differ";
  // The hand above the head: the robot's topmost row moves up by more than a forearm's worth of pixels.
  EXPECT_LT(topmostRobotRow(up), topmostRobotRow(down) - 20);
  EXPECT_EQ(fixture.view.framesDrawn(), 2u);
}

TEST(DebugGui3D, OverlaysShowTheirColourOnlyWhenSwitchedOn)
{
  ViewFixture fixture;
  const QImage plain = fixture.draw(90);
  EXPECT_EQ(count(plain, red), 0);
  EXPECT_EQ(count(plain, green), 0);
  EXPECT_EQ(count(plain, orange), 0);
  struct Case
  {
    Overlay overlay;
    bool (*colour)(int, int, int);
    const char* name;
  };
  for (const Case& c : {Case{Overlay::centerOfMass, red, "centre of mass"},
                        Case{Overlay::supportPolygon, green, "support polygon"},
                        Case{Overlay::collisionShapes, orange, "collision shapes"}})
  {
    fixture.view.setOverlay(c.overlay, true);
    const QImage with = fixture.draw(90);
    fixture.view.setOverlay(c.overlay, false);
    EXPECT_GT(count(with, c.colour), 100) << c.name;
  }
  // The centre of mass lies inside the support polygon of a symmetric stand, near its middle.
  const RobotScene& scene = *fixture.view.scene();
  const auto& polygon = scene.supportPolygon();
  ASSERT_GE(polygon.size(), 4u) << "both soles on the ground";
  const Eigen::Vector2d com = scene.centerOfMass().head<2>();
  for (std::size_t i = 0; i < polygon.size(); ++i)
  {
    const Eigen::Vector2d edge = polygon[(i + 1) % polygon.size()] - polygon[i], toCom = com - polygon[i];
    EXPECT_GT(edge.x() * toCom.y() - edge.y() * toCom.x(), 0) << "CoM left of edge " << i;
  }
  EXPECT_NEAR(com.y(), 0.0, 0.01) << "m, symmetric stand";
  // See-through: the CoM sphere inside the torso shows.
  fixture.view.setOverlay(Overlay::centerOfMass, true);
  const int comOnly = count(fixture.draw(90), red);
  fixture.view.setOverlay(Overlay::seeThrough, true);
  EXPECT_GT(count(fixture.draw(90), red), comOnly + 50) << "the CoM sphere through the translucent torso";
}

namespace
{
/// A JointThermalState sample as the debug channel sends it: per leaf (name, the legs' pitch joints' value, every other
/// joint's value), for every joint.
Sample thermalSample(const std::vector<std::array<std::string, 3>>& leaves)
{
  Sample sample;
  sample.representation = "JointThermalState";
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::string joint(jointNames[j]);
    const bool legPitch = joint.find("HipPitch") != std::string::npos ||
                          joint.find("KneePitch") != std::string::npos ||
                          joint.find("AnklePitch") != std::string::npos;
    for (const auto& [leaf, legs, others] : leaves)
      sample.values.emplace_back(leaf + "." + joint, legPitch ? legs : others);
  }
  return sample;
}
} // namespace

TEST(DebugGui3D, TheTemperatureOverlayColoursEachJointsLinkByItsEstimate)
{
  ViewFixture fixture;
  // JointThermalState's leaves as the debug channel sends them: the legs' pitch joints at 60 °C, past their status-1
  // threshold of 50 °C (red), every other joint at 28 °C (blue).
  fixture.store.add(thermalSample(
      {{"valid", "true", "true"}, {"temperatures", "60", "28"}, {"hot.thresholds", "50", "50"}}));
  const QImage plain = fixture.draw(90);
  EXPECT_EQ(count(plain, red), 0);
  EXPECT_EQ(count(plain, blue), 0);
  fixture.view.setOverlay(Overlay::temperature, true);
  const QImage coloured = fixture.draw(90);
  coloured.save(QString(NAO_BUILD_DIR) + "/DebugGui3D-temperature.png");
  EXPECT_GT(count(coloured, red), 200) << "the hot legs";
  EXPECT_GT(count(coloured, blue), 200) << "the cool arms and head";
  // Without JointThermalState in the source the overlay is disabled, switched off, and says why.
  fixture.view.setAvailable({"JointSensorData"}, "no LimbStiffness");
  QCheckBox* box = fixture.view.overlayBox(Overlay::temperature);
  EXPECT_FALSE(box->isEnabled());
  EXPECT_FALSE(fixture.view.overlay(Overlay::temperature));
  EXPECT_TRUE(box->toolTip().contains("JointThermalState")) << box->toolTip().toStdString();
  EXPECT_EQ(count(fixture.draw(90), red), 0);
  fixture.view.setAvailable({"JointSensorData", "JointThermalState"}, "no LimbStiffness");
  EXPECT_TRUE(box->isEnabled());
}

TEST(DebugGui3D, TheTimeLeftOverlayColoursEachJointsLinkAsTheJointTable)
{
  ViewFixture fixture;
  // The legs' pitch joints 1 minute from status 1 (red in the joint table), every other joint never there (green).
  fixture.store.setFields("JointThermalState", {}); // subscribed: the debug channel described it
  fixture.store.add(thermalSample({{"valid", "true", "true"},
                                   {"temperatures", "45", "45"},
                                   {"hot.thresholds", "50", "50"},
                                   {"hot.times", "60", "inf"},
                                   {"learning", "false", "false"}}));
  // The table's pastel colours as they come out lit: clearly redder (greener) than the grey robot and the floor.
  const auto reddish = [](int r, int g, int b) { return r > g + 50 && r > b + 50; };
  const auto greenish = [](int r, int g, int b) { return g > r + 40 && g > b + 40; };
  EXPECT_EQ(count(fixture.draw(90), reddish), 0);
  EXPECT_EQ(count(fixture.draw(90), greenish), 0);
  fixture.view.setOverlay(Overlay::timeLeft, true);
  const QImage coloured = fixture.draw(90);
  coloured.save(QString(NAO_BUILD_DIR) + "/DebugGui3D-timeleft.png");
  EXPECT_GT(count(coloured, reddish), 200) << "the legs, a minute from status 1";
  EXPECT_GT(count(coloured, greenish), 200) << "the arms and head, never there";
  fixture.view.setAvailable({"JointSensorData"}, "no LimbStiffness");
  QCheckBox* box = fixture.view.overlayBox(Overlay::timeLeft);
  EXPECT_FALSE(box->isEnabled());
  EXPECT_FALSE(fixture.view.overlay(Overlay::timeLeft));
  EXPECT_TRUE(box->toolTip().contains("JointThermalState")) << box->toolTip().toStdString();
}

TEST(DebugGui3D, TheWindowShowsALoggedRobotWithItsStiffnessEllipsoids)
{
  application();
  std::filesystem::create_directories(scratch());
  const std::filesystem::path log = scratch() / "standadvised.log";
  QProcess robot; // the advised stand logs LimbStiffness, the IMU and the joints; the stand-in body obeys
  robot.start(NAO_ROBOT_BINARY, {"--body", "standin", "--scenario", "standadvised", "--frames", "400",
                                 "--no-debug", "--log", QString::fromStdString(log.string())});
  ASSERT_TRUE(robot.waitForFinished(60000));
  ASSERT_EQ(robot.exitCode(), 0) << robot.readAll().toStdString();

  GuiOptions options;
  options.config = NAO_CONFIG_DIR;
  options.robot = "Default";
  MainWindow window(options);
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(window.openLog(log.string())) << window.lastError();
  RobotView3D& view = window.robotView();
  ASSERT_TRUE(view.isVisible());
  view.setOverlay(Overlay::stiffness, true);
  // The frame of the deepest crouch and the last (standing), as the timeline shows them.
  const Series& knee = window.store().series("JointSensorData.angles.LKneePitch");
  ASSERT_GT(knee.value.size(), 200u);
  const auto deepest = std::max_element(knee.value.begin(), knee.value.end()) - knee.value.begin();
  EXPECT_GT(knee.value[static_cast<std::size_t>(deepest)], knee.value.back() + 0.5)
      << "rad: it crouched, then rose";
  window.timeline().setFrameIndex(static_cast<int>(deepest));
  ASSERT_TRUE(view.refresh()) << view.error().toStdString();
  const QImage crouch = view.image();
  // Every frame holds JointSensorData: sample i is frame i.
  ASSERT_EQ(knee.value.size(), loadLog(log).frames.size());
  window.timeline().setFrameIndex(static_cast<int>(knee.value.size()) - 1);
  ASSERT_TRUE(view.refresh());
  const QImage stand = view.image();
  const RobotPose pose = poseFromStore(window.store());
  ASSERT_TRUE(pose.torsoAngles) << "the IMU's angles are read from the log";
  ASSERT_TRUE(pose.stiffness && pose.stiffness->valid) << "LimbStiffness is read from the log";
  EXPECT_GT(pose.angles[Joint::LKneePitch], 0.1) << "rad, measured knee of the stand";
  // The drawn pose is the frame's: the legs differ (the torso's height does not tell here: the stand-in body's
  // IMU reads an upright torso whatever the legs do, so both frames stand on a sole with the torso upright).
  ASSERT_EQ(crouch.size(), stand.size());
  int changed = 0;
  for (int y = 0; y < stand.height(); ++y)
    for (int x = 0; x < stand.width(); ++x)
      changed += stand.pixel(x, y) != crouch.pixel(x, y);
  EXPECT_GT(changed, 1000) << "pixels that differ";
  EXPECT_GT(count(stand, blue), 100) << "stiffness ellipsoids";
  view.setOverlay(Overlay::stiffness, false);
  ASSERT_TRUE(view.refresh());
  EXPECT_EQ(count(view.image(), blue), 0);
  view.setOverlay(Overlay::stiffness, true);
  view.refresh();
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-3d.png"));
  // The README's screenshot of a replay mid-scrub, at the size a new user tried: the slider has room, the plot
  // shows the logged current and angle with the timeline's cursor, the 3D view the frame's pose.
  window.resize(1600, 1000);
  window.findChild<QDockWidget*>("joints")->raise();
  window.plot().removeAll();
  for (const char* field : {"JointSensorData.angles.LKneePitch", "JointRequest.angles.LKneePitch",
                            "JointSensorData.temperatures.LKneePitch"})
    window.plotField(field);
  window.plot().showAll();
  window.timeline().setFrameIndex(static_cast<int>(deepest));
  QApplication::processEvents();
  EXPECT_GE(window.timeline().slider()->width(), 300);
  ASSERT_TRUE(view.refresh());
  window.plot().plot()->replot();
  EXPECT_TRUE(window.grab().save(readmeScreenshot("debuggui-log.png")));
  window.close();
}

TEST(DebugGui3D, TheSimulatedRobotIsDrawnFromTheDebugChannel)
{
  application();
  MainWindow window(simulationOptions());
  window.resize(1600, 1000);
  window.show();
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  window.plotField("JointSensorData.currents.LKneePitch");
  // The view subscribed the joints, the filtered IMU and the fall state itself; 400 frames (5 s) take the robot from
  // its crouch into the stand. The view's own timer draws what arrives.
  RobotView3D& view = window.robotView();
  const std::uint64_t before = view.framesDrawn();
  ASSERT_TRUE(
      waitFor([&] { return window.store().series("JointSensorData.angles.LKneePitch").time.size() >= 400; }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(waitFor([&] { return window.store().series("InertialData.angles[1]").time.size() >= 100; }))
      << "the view subscribes the filtered IMU (InertialData, in the default graph)";
  EXPECT_GT(view.framesDrawn(), before + 10) << "the view's timer draws the streamed pose";
  ASSERT_TRUE(waitFor([&] { return !window.store().latest("FallDownState.state").empty(); }))
      << "the view subscribes FallDownState: " << window.lastError() << " "
      << window.statusLine().toStdString();
  ASSERT_TRUE(view.refresh()) << view.error().toStdString();
  EXPECT_EQ(view.fallLabel().toStdString(), "upright")
      << "the standing robot's FallDownState, drawn as a label";
  const RobotPose pose = poseFromStore(window.store());
  EXPECT_NEAR(pose.angles[Joint::LKneePitch] * 180 / std::numbers::pi, 48, 5) << "°, the stand's knee";
  ASSERT_TRUE(pose.torsoAngles);
  // The simulated robot stands: the IMU's torso pitch is small and both soles carry it.
  EXPECT_LT(std::abs((*pose.torsoAngles)[1]), 0.15) << "rad";
  EXPECT_GE(view.scene()->supportPolygon().size(), 4u);
  EXPECT_GT(count(view.image(), robotGrey), view.image().width() * view.image().height() / 40);
  EXPECT_GT(count(view.image(), green), 100) << "support polygon";
  // No black band above the scene: the top rows are the floor's colour, not the empty sky's black.
  const QImage& image = view.image();
  int black = 0;
  for (int x = 0; x < image.width(); ++x)
    black += image.pixelColor(x, 2) == Qt::black;
  EXPECT_LT(black, image.width() / 10) << "black pixels in the image's third row";
  // The README's screenshots: the knee current's rise and the 3D view of the simulated stand; the module graph.
  window.plotField("JointSensorData.angles.LKneePitch");
  window.pump();
  QApplication::processEvents();
  const QCPRange current =
      window.plot().axisRectOf("JointSensorData.currents.LKneePitch")->axis(QCPAxis::atLeft)->range();
  EXPECT_GT(current.upper, 1000) << "mA: the rise is in view";
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-stand-3d.png"));
  window.findChild<QDockWidget*>("joints")->raise();
  QApplication::processEvents();
  EXPECT_TRUE(window.grab().save(readmeScreenshot("debuggui-stand.png")));
  // The graph's tab, its dock dragged to 450 px high: a 25-node graph at reading size needs about that.
  auto* graph = window.findChild<QDockWidget*>("graph");
  graph->raise();
  window.resizeDocks({graph}, {450}, Qt::Vertical);
  QApplication::processEvents();
  window.graph().zoomToFit();
  EXPECT_GE(window.graph().shownTextPointSize(), ModuleGraphView::minimumTextPointSize);
  EXPECT_TRUE(window.grab().save(readmeScreenshot("debuggui-graph.png")));
  window.findChild<QDockWidget*>("joints")->raise();
  window.close();
}

TEST(DebugGui3D, WithoutAnImuTheLowerSoleLiesFlat)
{
  RobotScene scene(NAO_CONFIG_DIR, "Default");
  const auto area = [](const std::vector<Eigen::Vector2d>& polygon) // m², shoelace formula
  {
    double twice = 0;
    for (std::size_t i = 0; i < polygon.size(); ++i)
    {
      const Eigen::Vector2d &a = polygon[i], &b = polygon[(i + 1) % polygon.size()];
      twice += a.x() * b.y() - a.y() * b.x();
    }
    return twice / 2;
  };
  RobotPose
      pose; // legs straight, both ankles pitched by 20°: an upright torso would stand the soles on an edge
  pose.angles[Joint::LAnklePitch] = pose.angles[Joint::RAnklePitch] = -0.35f;
  scene.setPose(pose);
  // Two soles of 150 mm x 89 mm side by side: their hull is about 0.028 m².
  EXPECT_GT(area(scene.supportPolygon()), 0.022) << "m², both soles flat on the ground";
  pose.torsoAngles = std::array<float, 2>{0.f, 0.f}; // an IMU that reads an upright torso
  scene.setPose(pose);
  EXPECT_LT(area(scene.supportPolygon()), 0.004) << "m², only the soles' edges touch";
}

TEST(DebugGui3D, TheTorsoTakesTheFilteredOrientationWhileValidAndTheFallStateIsALabel)
{
  SeriesStore store;
  Sample lola;
  lola.representation = "InertialSensorData";
  lola.values = {{"angles[0]", "0.1"}, {"angles[1]", "0.2"}};
  store.add(lola);
  ASSERT_TRUE(poseFromStore(store).torsoAngles);
  EXPECT_FLOAT_EQ((*poseFromStore(store).torsoAngles)[1], 0.2f) << "LoLA's angles without InertialData";
  Sample filtered;
  filtered.representation = "InertialData";
  filtered.values = {{"angles[0]", "0.3"}, {"angles[1]", "0.4"}, {"valid", "true"}};
  store.add(filtered);
  EXPECT_FLOAT_EQ((*poseFromStore(store).torsoAngles)[0], 0.3f) << "the filter's while valid";
  EXPECT_FLOAT_EQ((*poseFromStore(store).torsoAngles)[1], 0.4f);
  filtered.values = {{"angles[0]", "0.3"}, {"angles[1]", "0.4"}, {"valid", "false"}};
  store.add(filtered);
  EXPECT_FLOAT_EQ((*poseFromStore(store).torsoAngles)[0], 0.1f)
      << "LoLA's again while the filter is not valid";

  EXPECT_EQ(fallStateLabel(store), "");
  Sample fall;
  fall.representation = "FallDownState";
  fall.values = {{"state", "falling"}, {"direction", "front"}, {"side", "none"}};
  store.add(fall);
  EXPECT_EQ(fallStateLabel(store), "falling front");
  fall.values = {{"state", "fallen"}, {"direction", "front"}, {"side", "back"}};
  store.add(fall);
  EXPECT_EQ(fallStateLabel(store), "fallen on back");
  fall.values = {{"state", "upright"}, {"direction", "none"}, {"side", "none"}};
  store.add(fall);
  EXPECT_EQ(fallStateLabel(store), "upright");
}
