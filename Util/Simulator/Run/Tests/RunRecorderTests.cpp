// What a run writes for people to read, without running physics: the CSV's columns and their units, the
// events file, and the gnuplot script (one colour per joint, the stiffness range, the scenario's events).
#include "Tools/Testing/Files.h"
#include "Tools/Testing/TemporaryFolder.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <regex>
#include <set>
#include <sstream>

using namespace nao;
using namespace nao::test;
using ::testing::HasSubstr;
using ::testing::Not;

namespace
{
ScenarioScript lifted()
{
  return ScenarioScript::load(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios/lifted.toml");
}
} // namespace

TEST(RunCsv, EveryColumnNamesItsUnit)
{
  const std::vector<std::string> header = runCsvHeader();
  ASSERT_EQ(header.size(), 1u + 6u * 25u + 5u);
  EXPECT_EQ(header.front(), "time [s]");
  auto has = [&](const std::string& label)
  { return std::find(header.begin(), header.end(), label) != header.end(); };
  EXPECT_TRUE(has("current.LKneePitch [A]"));
  EXPECT_TRUE(has("temperature.LKneePitch [°C]"));
  EXPECT_TRUE(has("status.LKneePitch")) << "a state: no unit";
  EXPECT_TRUE(has("stiffness.LKneePitch")) << "a 0..1 fraction: no unit";
  EXPECT_TRUE(has("angle.LKneePitch [rad]"));
  EXPECT_TRUE(has("angleError.LKneePitch [rad]"));
  EXPECT_TRUE(has("torsoHeight [m]"));
  EXPECT_TRUE(has("fsrTotal [kg]"));
  EXPECT_TRUE(has("upperBodyOnGround")) << "the simulator's truth of a fall's impact, 0 or 1: no unit";
  EXPECT_TRUE(has("footForce.left [N]"));
  EXPECT_TRUE(has("footForce.right [N]"));
}

TEST(RunCsv, ReadsBackWhatItWrote)
{
  const auto folder = freshTemporaryFolder("run-csv");
  RunSample sample;
  sample.time = 1.5;
  sample.currents[index(Joint::LKneePitch)] = 0.75f;
  sample.status[index(Joint::RKneePitch)] = 2;
  sample.angles[index(Joint::LKneePitch)] = 0.5f;
  sample.angleErrors[index(Joint::LAnklePitch)] = -0.002f;
  sample.footForces = {20.5f, 30.25f};
  sample.upperBodyOnGround = true;
  writeCsv(folder / "run.csv", {sample, sample});
  const std::vector<RunSample> read = readSamples(folder / "run.csv");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[1].time, 1.5);
  EXPECT_EQ(read[1].currents[index(Joint::LKneePitch)], 0.75f);
  EXPECT_EQ(read[1].status[index(Joint::RKneePitch)], 2);
  EXPECT_EQ(read[1].angles[index(Joint::LKneePitch)], 0.5f);
  EXPECT_EQ(read[1].angleErrors[index(Joint::LAnklePitch)], -0.002f);
  EXPECT_EQ(read[1].footForces[1], 30.25f);
  EXPECT_TRUE(read[1].upperBodyOnGround);

  // A CSV without a column (an older simulator's) is refused by name.
  std::ofstream(folder / "old.csv") << "time,current.HeadYaw\n0,0\n";
  try
  {
    readSamples(folder / "old.csv");
    ADD_FAILURE() << "a CSV without the columns was read";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_THAT(error.what(), HasSubstr("old.csv:1: no column 'time [s]'"));
  }
  std::filesystem::remove_all(folder);
}

TEST(RunEvents, TheScenariosEventsAreWrittenWithUnits)
{
  const auto folder = freshTemporaryFolder("run-events");
  writeEvents(folder / "events.csv", lifted().events);
  EXPECT_EQ(readFile(folder / "events.csv"),
            "time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault,control\n"
            "10,pickUp,0,0,0,0,,\n"
            "40,putDown,0,0,0,0,,\n");
  // A sensor fault among them, in time order, with its duration (0: to the end) and its name.
  // A sensor fault among them, in time order, with its duration (0: to the end) and its name; and what a user sent
  // over serve --control, with the line that repeats it (to the frame's time, however long the run).
  writeEvents(folder / "events.csv", lifted().events, FaultEvent{"batteryZeroOnce", 12.0, 12.012},
              {{3600.012, "push 45 0 0 for 0.1 at torso"}, {20.004, "fault clear"}});
  EXPECT_EQ(readFile(folder / "events.csv"),
            "time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault,control\n"
            "10,pickUp,0,0,0,0,,\n"
            "12,sensorFault,0,0,0,0.012,batteryZeroOnce,\n"
            "20.004,control,0,0,0,0,,fault clear\n"
            "40,putDown,0,0,0,0,,\n"
            "3600.012,control,0,0,0,0,,push 45 0 0 for 0.1 at torso\n");
  std::optional<FaultEvent> fault;
  std::vector<ControlRecord> controls;
  EXPECT_EQ(readEvents(folder / "events.csv", &fault, &controls).size(), 2u);
  ASSERT_TRUE(fault.has_value());
  EXPECT_EQ(fault->name, "batteryZeroOnce");
  EXPECT_NEAR(fault->end, 12.012, 1e-6);
  ASSERT_EQ(controls.size(), 2u);
  EXPECT_EQ(controls[0].command, "fault clear");
  EXPECT_DOUBLE_EQ(controls[1].time, 3600.012);
  EXPECT_EQ(controls[1].command, "push 45 0 0 for 0.1 at torso");
  // The simulator's events.csv from before serve --control's events, without the control column, is still read.
  std::ofstream(folder / "faults.csv")
      << "time [s],event,force.x [N],force.y [N],force.z [N],duration [s],fault\n"
         "10,pickUp,0,0,0,0,\n12,sensorFault,0,0,0,0.012,batteryZeroOnce\n";
  fault.reset();
  EXPECT_EQ(readEvents(folder / "faults.csv", &fault).size(), 1u);
  EXPECT_TRUE(fault.has_value());
  // An older simulator's events.csv, without the fault column, is still read.
  std::ofstream(folder / "older.csv") << "time [s],event,force.x [N],force.y [N],force.z [N],duration [s]\n"
                                         "10,pickUp,0,0,0,0\n";
  EXPECT_EQ(readEvents(folder / "older.csv").size(), 1u);
  // `report` draws a run's plots again with its events, read back.
  ScriptEvent push;
  push.time = 15.5f;
  push.force = {15.f, -2.5f, 0.f};
  push.duration = 0.15f;
  writeEvents(folder / "events.csv", {lifted().events.front(), push});
  const std::vector<ScriptEvent> read = readEvents(folder / "events.csv");
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].kind, ScriptEventKind::pickUp);
  EXPECT_EQ(read[0].time, 10.f);
  EXPECT_EQ(read[1].kind, ScriptEventKind::push);
  EXPECT_EQ(read[1].time, 15.5f);
  EXPECT_EQ(read[1].force[1], -2.5f);
  EXPECT_EQ(read[1].duration, 0.15f);
  std::ofstream(folder / "bad.csv") << "time [s],event,force.x [N],force.y [N],force.z [N],duration [s]\n"
                                       "10,fall,0,0,0,0\n";
  try
  {
    readEvents(folder / "bad.csv");
    ADD_FAILURE() << "an unknown event was read";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_THAT(error.what(), HasSubstr("bad.csv:2: 'fall' is not an event"));
  }
  std::filesystem::remove_all(folder);
}

TEST(RunPlots, OneColourPerJointAndTheEventsMarked)
{
  std::vector<std::filesystem::path> pngs;
  ScriptEvent push;
  push.time = 15.f;
  push.force = {15.f, 0.f, 0.f};
  push.duration = 0.15f;
  std::vector<ScriptEvent> events = lifted().events;
  events.push_back(push);
  const std::string script = plotScript("/tmp/run/lifted.csv", "lifted", events, pngs);

  // Every panel (one `plot` line) gives each of its joints its own colour and a legend entry.
  std::istringstream lines(script);
  int panels = 0;
  const std::regex colour("lc rgb '(#[0-9a-f]{6})'"), title("title '([A-Za-z ]+)'");
  for (std::string line; std::getline(lines, line);)
  {
    if (line.rfind("plot ", 0) != 0 || line.find("with table") != std::string::npos) continue;
    ++panels;
    std::set<std::string> colours, titles;
    std::size_t curves = 0;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), colour); it != std::sregex_iterator(); ++it)
    {
      colours.insert((*it)[1]);
      ++curves;
    }
    for (auto it = std::sregex_iterator(line.begin(), line.end(), title); it != std::sregex_iterator(); ++it)
      titles.insert((*it)[1]);
    EXPECT_EQ(colours.size(), curves) << "two curves share a colour: " << line;
    EXPECT_EQ(titles.size(), curves) << line;
  }
  EXPECT_EQ(panels, 5 * 2 + 1) << "currents, temperatures, stiffness, angles, errors (legs, others); feet";
  ASSERT_EQ(pngs.size(), 6u);
  EXPECT_EQ(pngs.back().filename(), "feet.png");

  // Stiffness commands are 0..1: the axis shows that range and room for the event names, not gnuplot's guess.
  const std::size_t stiffness = script.find("stiffness.png");
  ASSERT_NE(stiffness, std::string::npos);
  EXPECT_EQ(script.find("set yrange [-0.05:1.15]", stiffness), script.find("set yrange", stiffness));

  // The events: a vertical line at each, with its name.
  EXPECT_THAT(script, HasSubstr("set arrow from 10, graph 0 to 10, graph 1 nohead"));
  EXPECT_THAT(script, HasSubstr("set label 'pick-up' at 10, graph 1"));
  EXPECT_THAT(script, HasSubstr("set arrow from 40, graph 0 to 40, graph 1 nohead"));
  EXPECT_THAT(script, HasSubstr("set label 'put-down' at 40, graph 1"));
  EXPECT_THAT(script, HasSubstr("set label 'push 15 N, 0.15 s' at 15, graph 1"));
  // A sensor fault: a line where it begins and one where it ends.
  const std::string withFault =
      plotScript("/tmp/run/lifted.csv", "lifted", events, pngs, FaultEvent{"chestButtonGlitch", 12.0, 12.06});
  EXPECT_THAT(withFault, HasSubstr("set label 'sensor fault chestButtonGlitch' at 12, graph 1"));
  EXPECT_THAT(withFault, HasSubstr("set label 'chestButtonGlitch ends' at 12.06, graph 1"));
  // A user's events (serve --control) named by their control line.
  const std::string withControls = plotScript("/tmp/run/lifted.csv", "lifted", events, pngs, std::nullopt,
                                              {{2.496, "push 45 0 0 for 0.1 at torso"}});
  EXPECT_THAT(withControls, HasSubstr("set label 'push 45 0 0 for 0.1 at torso' at 2.496, graph 1"));
  // Angles and errors are drawn in degrees from the CSV's radians.
  EXPECT_THAT(script, HasSubstr("tracking error: request − measured (deg)"));
  // The files are named relative to the CSV's folder, where gnuplot runs the script: it runs again from there.
  EXPECT_THAT(script, HasSubstr("set output 'currents.png'"));
  EXPECT_THAT(script, HasSubstr("plot 'lifted.csv' skip 1"));
  EXPECT_THAT(script, Not(HasSubstr("/tmp/run")));
  EXPECT_EQ(pngs.front(), std::filesystem::path("/tmp/run/currents.png"));
}

TEST(RunPlots, EveryPanelHasTheSameMarginsSoThatTheTimeAxesAndEventLinesLineUp)
{
  std::vector<std::filesystem::path> pngs;
  const std::string script = plotScript("/tmp/run/lifted.csv", "lifted", lifted().events, pngs);
  // gnuplot sizes a panel's automatic margins by its own tick labels and legend: the two panels of a plot (legs;
  // head and arms) would start and end at different x. Each panel must be drawn with fixed margins, the same.
  std::istringstream lines(script);
  std::string left, right;
  std::set<std::string> margins;
  int panels = 0;
  const std::regex margin(R"(set ([lr])margin (.+))");
  for (std::string line; std::getline(lines, line);)
  {
    std::smatch match;
    if (std::regex_match(line, match, margin)) (match[1] == "l" ? left : right) = match[2];
    if (line.rfind("plot ", 0) != 0 || line.find("with table") != std::string::npos) continue;
    ++panels;
    EXPECT_FALSE(left.empty() || right.empty()) << "a panel with automatic margins: " << line.substr(0, 80);
    margins.insert(left + " " + right);
  }
  EXPECT_EQ(panels, 5 * 2 + 1);
  EXPECT_EQ(margins.size(), 1u) << "panels with different margins";
}
