// The window as a new user sees it at 1600 × 1000 (issue 29), headless: the plot takes the space, its legend stays
// off the data, its y range keeps a rise in view and shows the table's units, a log replay's timeline scrubs with
// the docks filled from the log, the module graph's names are readable, an overlay without its representation is
// disabled with the reason, the tables show every joint column (the thermal forecast's coloured) and each field's
// type and unit, and the team view shows two robots in one table.
#include "Util/DebugGui/RobotView3D.h"
#include "Util/DebugGui/TeamView.h"
#include "Util/DebugGui/Tests/DebugGuiTestSupport.h"
#include <QDockWidget>
#include <QHeaderView>
#include <QRegularExpression>
#include <QScrollBar>
#include <QSlider>
#include <iostream>
#include <numbers>
#include <qcustomplot.h>

using namespace nao::gui;
using namespace nao::gui::test;

namespace
{
/// The legend and each axis rectangle (where the data is drawn) do not overlap.
void expectLegendOffTheData(const PlotView& view)
{
  QCustomPlot* plot = view.plot();
  const QRect legend = plot->legend->outerRect();
  ASSERT_TRUE(plot->legend->visible());
  ASSERT_GT(legend.height(), 0);
  for (QCPAxisRect* rect : plot->axisRects())
    EXPECT_FALSE(legend.intersects(rect->rect())) << "legend over the data";
}

/// A column of the joint table lies inside its viewport: visible without scrolling.
void expectColumnInView(const JointTable& table, const QString& prefix)
{
  int found = -1;
  for (int column = 0; column < table.columnCount(); ++column)
    if (table.horizontalHeaderItem(column)->text().startsWith(prefix)) found = column;
  ASSERT_GE(found, 0) << prefix.toStdString();
  EXPECT_LE(table.columnViewportPosition(found) + table.columnWidth(found), table.viewport()->width())
      << prefix.toStdString() << " needs a horizontal scroll";
}

int columnOf(const QTreeWidget& tree, const QString& title)
{
  for (int column = 0; column < tree.columnCount(); ++column)
    if (tree.headerItem()->text(column) == title) return column;
  return -1;
}
} // namespace

TEST(DebugGuiLayout, ThePlotTakesHalfTheWindowKeepsTheRiseInViewInTheTablesUnits)
{
  application();
  MainWindow window(options());
  window.resize(1600, 1000);
  window.show();
  window.startSimulation("stand");
  ASSERT_TRUE(waitFor([&] { return window.ready() || !window.lastError().empty(); }))
      << window.statusLine().toStdString();
  ASSERT_TRUE(window.healthy()) << window.statusLine().toStdString();
  const std::string current = "JointSensorData.currents.LKneePitch",
                    angle = "JointSensorData.angles.LKneePitch";
  window.plotField(current);
  window.plotField(angle);
  // 500 frames: 6 s, the robot stood up (the knee's current rises to amperes) and holds the stand.
  ASSERT_TRUE(waitFor([&] { return window.store().series(current).time.size() >= 500; }))
      << window.statusLine().toStdString();
  window.pump();
  QApplication::processEvents();
  PlotView& view = window.plot();
  QCustomPlot* plot = view.plot();
  plot->replot();
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-layout.png"));

  EXPECT_GE(plot->width(), window.width() / 2) << "the plot area";
  expectLegendOffTheData(view);
  // One axis rectangle per unit, in the file units the joint table shows.
  ASSERT_EQ(view.axisRectCount(), 2);
  EXPECT_NE(view.axisRectOf(current), view.axisRectOf(angle));
  EXPECT_EQ(view.shownUnit(current), "mA");
  EXPECT_EQ(view.shownUnit(angle), "°");
  EXPECT_EQ(view.axisRectOf(current)->axis(QCPAxis::atLeft)->label(), "mA");
  ASSERT_FALSE(window.joints().cell("LKneePitch", "current [mA]").isEmpty()) << "the table's title has mA";
  ASSERT_FALSE(window.joints().cell("LKneePitch", "measured [°]").isEmpty());
  // The same sample, the same number: the table's cell and the plot's last point.
  const auto lastPoint = [&](int graph) { return (plot->graph(graph)->data()->end() - 1)->value; };
  EXPECT_NEAR(window.joints().cell("LKneePitch", "current [mA]").toDouble(), lastPoint(0), 0.051);
  EXPECT_NEAR(window.joints().cell("LKneePitch", "measured [°]").toDouble(), lastPoint(1), 0.051);
  // The time axis starts at the first sample, not before it; the rise (its peak, mA) is inside the y range.
  const Series& series = window.store().series(current);
  EXPECT_GE(plot->xAxis->range().lower, series.time.front() - 1e-9);
  const double peak = 1000 * *std::max_element(series.value.begin(), series.value.end());
  EXPECT_GT(peak, 1000) << "mA: the knee carried the robot up";
  const QCPRange y = view.axisRectOf(current)->axis(QCPAxis::atLeft)->range();
  EXPECT_TRUE(y.contains(peak)) << y.lower << " .. " << y.upper << " mA, peak " << peak;

  // The 3D view's stiffness ellipsoids need LimbStiffness, which the stand does not provide: disabled, with why.
  QCheckBox* stiffness = window.robotView().overlayBox(Overlay::stiffness);
  EXPECT_FALSE(stiffness->isEnabled());
  EXPECT_FALSE(window.robotView().overlay(Overlay::stiffness));
  EXPECT_TRUE(stiffness->toolTip().contains("LimbStiffnessProvider")) << stiffness->toolTip().toStdString();
  EXPECT_TRUE(window.robotView().overlayBox(Overlay::centerOfMass)->isEnabled());

  // The joint table shows the temperature and the stiffness without a horizontal scroll.
  window.findChild<QDockWidget*>("joints")->raise();
  QApplication::processEvents();
  expectColumnInView(window.joints(), "temperature");
  expectColumnInView(window.joints(), "stiffness measured");
  // The thermal forecast (JointThermalState, in the stand's graph): minutes to the next status per joint, coloured
  // green, yellow or red ("learning", grey, while the module does not trust it), the estimate and the thresholds
  // with their sources in the tooltip; in view at 1600 px.
  expectColumnInView(window.joints(), "status 1 in");
  ASSERT_TRUE(waitFor([&] { return window.joints().cell("LKneePitch", "status 1 in") != "—"; }))
      << "no forecast: " << window.joints().cellItem("LKneePitch", "status 1 in")->toolTip().toStdString();
  for (const char* joint : {"LKneePitch", "RHipPitch", "HeadYaw"})
  {
    const QTableWidgetItem* cell = window.joints().cellItem(joint, "status 1 in");
    ASSERT_NE(cell, nullptr);
    EXPECT_TRUE(QRegularExpression("^([0-9]+(\\.[0-9])? min( → [23])?|∞|now|learning)$")
                    .match(cell->text())
                    .hasMatch())
        << joint << ": " << cell->text().toStdString();
    const QColor colour = cell->background().color();
    EXPECT_TRUE(cell->background().style() != Qt::NoBrush &&
                (colour == QColor(150, 230, 150) || colour == QColor(255, 230, 110) ||
                 colour == QColor(255, 120, 120) || colour == QColor(215, 215, 215)))
        << joint << ": " << colour.name().toStdString();
    // Seconds after the stand-up no joint is near a status: none shows red (a forecast the module does not trust
    // yet reads "learning", grey).
    EXPECT_NE(colour, QColor(255, 120, 120)) << joint << ": " << cell->text().toStdString();
    EXPECT_EQ(cell->text() == "learning", cell->toolTip().contains("still learning")) << joint;
    EXPECT_TRUE(cell->toolTip().contains(" ± ") && cell->toolTip().contains("status 1 (hot) at") &&
                (cell->toolTip().contains("prior") || cell->toolTip().contains("learned") ||
                 cell->toolTip().contains("lowerBound")))
        << cell->toolTip().toStdString();
    // The default graph names SitDownProvider's sitting posture: the tooltip gives its forecast too.
    EXPECT_TRUE(cell->toolTip().contains("if it took the posture 'sit' now: settles at"))
        << cell->toolTip().toStdString();
  }
  // SensorHealth's "reading" column (in the default graph): the simulated stand's readings are all trusted.
  expectColumnInView(window.joints(), "reading");
  ASSERT_TRUE(waitFor([&] { return window.joints().cell("LKneePitch", "reading") != "—"; }));
  for (const char* joint : {"LKneePitch", "RHipPitch", "HeadYaw"})
    EXPECT_EQ(window.joints().cell(joint, "reading").toStdString(), "ok") << joint;
  std::cout << "LKneePitch status 1 in " << window.joints().cell("LKneePitch", "status 1 in").toStdString()
            << "\n";
  EXPECT_TRUE(window.robotView().overlayBox(Overlay::temperature)->isEnabled())
      << "JointThermalState is in the graph";
  EXPECT_TRUE(window.grab().save(QString(NAO_BUILD_DIR) + "/DebugGui-layout-joints.png"));
  // The representations: a leaf's type and its unit as plotted; the provider in a column of its own.
  RepresentationTree& tree = window.tree();
  const int type = columnOf(tree, "type"), unit = columnOf(tree, "unit"),
            provider = columnOf(tree, "provider");
  ASSERT_GE(type, 0);
  ASSERT_GE(unit, 0);
  ASSERT_GE(provider, 0);
  for (QTreeWidgetItem* item : tree.findItems("currents.LKneePitch", Qt::MatchRecursive | Qt::MatchExactly))
  {
    EXPECT_EQ(item->text(unit), "mA");
    EXPECT_FALSE(item->text(type).isEmpty());
    EXPECT_FALSE(item->text(type).contains("←"));
    EXPECT_FALSE(item->parent()->text(provider).isEmpty()) << "JointSensorData's provider";
  }

  // The parameter editor opens on a module whose parameters carry units, not on RobotModelProvider's two switches.
  EXPECT_FALSE(window.parameters().module().empty());
  EXPECT_NE(window.parameters().module(), "RobotModelProvider");
  std::cout << "parameters open on " << window.parameters().module() << "\n";

  // The module graph, at its default size: names of at least 9 pt.
  ASSERT_TRUE(waitFor([&] { return window.graph().nodeCount() > 10; }));
  window.findChild<QDockWidget*>("graph")->raise();
  QApplication::processEvents();
  window.graph().zoomToFit();
  EXPECT_GE(window.graph().shownTextPointSize(), ModuleGraphView::minimumTextPointSize);
  window.close();
}

TEST(DebugGuiLayout, AFloorKeepsNoiseFromFillingTheAxisAndTheRiseStaysInView)
{
  application();
  // 20 s at 83 Hz: 2 A from 1 s to 2 s, then 10 mA of noise.
  SeriesStore store;
  const std::string name = "JointSensorData.currents.LKneePitch";
  store.setFields("JointSensorData",
                  {{.path = "currents.LKneePitch", .type = "float", .unit = "A", .doc = {}}});
  PlotView view;
  view.resize(900, 500);
  ASSERT_TRUE(view.addSeries(name, "A"));
  const auto feed = [&](std::uint32_t from, std::uint32_t to)
  {
    for (std::uint32_t frame = from; frame < to; ++frame)
    {
      const double time = frame * 0.012;
      const double value = time > 1 && time < 2 ? 2.0 : 0.005 + 0.005 * std::sin(frame);
      store.add({"JointSensorData", frame, time, 0, {{"currents.LKneePitch", std::to_string(value)}}});
    }
    view.refresh(store);
  };
  const QCPAxis* y = view.plot()->yAxis;
  feed(0, 500); // 6 s: the rise in the window
  EXPECT_EQ(view.plot()->xAxis->range().lower, 0) << "s: the time axis starts at the first sample";
  EXPECT_TRUE(y->range().contains(2000)) << y->range().upper;
  feed(500, 1667); // 20 s: only noise in the 10 s window
  EXPECT_GE(y->range().size(), 500) << "mA: the floor, not 10 mA of noise over the whole height";
  EXPECT_LE(y->range().lower, 0);
}

TEST(DebugGuiLayout, ALogReplayScrubsWithItsDocksFilledFromTheLog)
{
  application();
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("DebugGuiTests-layout-log-" + std::to_string(::getpid()));
  const std::filesystem::path log = folder / "stand.log";
  ASSERT_NO_FATAL_FAILURE(recordStandLog(folder, log));

  MainWindow window(options());
  window.resize(1600, 1000);
  window.show();
  ASSERT_TRUE(window.openLog(log.string())) << window.lastError();
  QApplication::processEvents();
  LogTimeline& timeline = window.timeline();
  EXPECT_GE(timeline.slider()->width(), 300) << "px: room to scrub";
  // The plot holds the log's hardest-working joint's current and angle, the whole log in view.
  const std::vector<std::string> plotted = window.plot().seriesNames();
  ASSERT_EQ(plotted.size(), 2u);
  EXPECT_TRUE(plotted[0].starts_with("JointSensorData.currents.")) << plotted[0];
  EXPECT_EQ(window.plot().shownUnit(plotted[0]), "mA");
  EXPECT_GT(window.plot().pointCount(plotted[0]), 250u);
  expectLegendOffTheData(window.plot());
  // The log's module graph, drawn as live: the view says where it comes from instead of offering to switch providers.
  ASSERT_TRUE(waitFor([&] { return !window.graph().layingOut(); }, 30));
  EXPECT_TRUE(window.graph().message().contains("recorded in the log"))
      << window.graph().message().toStdString();
  EXPECT_FALSE(window.graph().message().contains("right-click"));
  EXPECT_GE(window.graph().shownTextPointSize(), ModuleGraphView::minimumTextPointSize);
  // Scrub, step, play: the joint table and the 3D view's pose follow the frame.
  timeline.setFrameIndex(150);
  timeline.step(1);
  EXPECT_EQ(timeline.frameIndex(), 151);
  timeline.step(-2);
  EXPECT_EQ(timeline.frameIndex(), 149);
  const double knee = window.store().series("JointSensorData.angles.LKneePitch").value[149];
  EXPECT_NEAR(poseFromStore(window.store()).angles[nao::Joint::LKneePitch], knee, 1e-4);
  EXPECT_NEAR(window.joints().cell("LKneePitch", "measured [°]").toDouble(), knee * 180 / std::numbers::pi,
              0.051);
  timeline.setPlaying(true);
  ASSERT_TRUE(waitFor([&] { return timeline.frameIndex() > 155; }));
  timeline.setPlaying(false);
  EXPECT_FALSE(timeline.playing());
  window.close();
  std::filesystem::remove_all(folder);
}

TEST(DebugGuiLayout, TheTeamViewShowsTwoRobotsKeyValuesInOneTable)
{
  application();
  const ScratchConfig config("team");
  StandInRobot first(config.directory), second(config.directory);
  ASSERT_NE(first.port, 0);
  ASSERT_NE(second.port, 0);
  GuiOptions team = options(config.directory);
  team.team = {"127.0.0.1:" + std::to_string(first.port), "127.0.0.1:" + std::to_string(second.port)};
  MainWindow window(team);
  window.show();
  TeamView& view = window.team();
  ASSERT_EQ(view.robotCount(), 2);
  const auto filled = [&](int robot)
  {
    return view.cell(robot, "state").startsWith("connected") &&
           view.cell(robot, "hottest joint").contains("°C") &&
           view.cell(robot, "highest current").contains("mA") &&
           !view.cell(robot, "heat adjustment").isEmpty() && view.cell(robot, "heat adjustment") != "…" &&
           !view.cell(robot, "minutes left").isEmpty() && view.cell(robot, "minutes left") != "…";
  };
  ASSERT_TRUE(waitFor([&] { return filled(0) && filled(1); }))
      << view.cell(0, "state").toStdString() << " | " << view.cell(1, "state").toStdString() << " | "
      << view.cell(0, "heat adjustment").toStdString();
  EXPECT_EQ(view.cell(0, "robot").toStdString(), team.team[0]);
  EXPECT_EQ(view.cell(1, "robot").toStdString(), team.team[1]);
  EXPECT_TRUE(view.cell(0, "state").contains("standin")) << "the robot's scenario";
  std::cout << "team: " << view.cell(0, "hottest joint").toStdString() << ", "
            << view.cell(0, "highest current").toStdString() << ", "
            << view.cell(0, "heat adjustment").toStdString() << ", "
            << view.cell(0, "minutes left").toStdString() << "\n";
  // The stand-in runs ThermalBudgetProvider (default.toml): its minutes, "∞", "learning" or, before its first
  // temperature estimate, "—"; never "not running".
  const QRegularExpression budget("^((rest: )?([0-9.]+ min [A-Z][A-Za-z]+|∞)|learning|—)$");
  for (int robot = 0; robot < 2; ++robot)
    EXPECT_TRUE(budget.match(view.cell(robot, "minutes left")).hasMatch())
        << view.cell(robot, "minutes left").toStdString();
  window.close();
}
