// serve --control's events into a running simulation (ControlEvents.h, Util/Simulator/App/README.md "Events into a
// running simulation"): each one's physical effect in a short lock-step stand of robot 1 in this process, driven
// through SimulationControl as serve's stdin drives it (paused, the lines of a frame sent, stepped to the next), and
// the errors of bad lines. Buttons, battery and temperature are judged on the plant alone (no robot).
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/MotionControl/SitDown.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Util/Simulator/Run/ControlEventRunner.h"
#include "Util/Simulator/Run/RunRecorder.h"
#include "Util/Simulator/Run/SimulationSteps.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <algorithm>
#include <cmath>
#include <gtest/gtest.h>
#include <mutex>
#include <numeric>

using namespace nao;

namespace
{
constexpr double frameTime = 0.012; // s, one LoLA frame

/// A run and the control lines it answered.
struct ControlledResult
{
  SimulationResult result;
  std::vector<std::string> replies;
  bool replied(const std::string& start) const
  {
    return std::any_of(replies.begin(), replies.end(),
                       [&](const std::string& r) { return r.starts_with(start); });
  }
};

/// The stand of robot 1 for `seconds` with each line sent in the frame of its time (s): the run starts paused, and
/// at each pause the lines due are sent and the run stepped to the next line's frame (then resumed).
ControlledResult runControlled(const std::string& folder, double seconds,
                               const std::vector<std::pair<double, std::string>>& lines, bool log = false,
                               std::vector<ProviderChoice> providers = {}, const std::string& preset = "")
{
  SimulationOptions options = test::testRunOptions("stand", seconds / 60.0, 1, folder);
  options.writeLog = log;
  options.providerOverrides = std::move(providers);
  options.preset = preset;
  options.recordPeriod = 0.048;
  ControlledResult outcome;
  std::mutex mutex;
  SimulationControl* control = nullptr;
  std::size_t next = 0;
  const auto frameOf = [](double time) { return static_cast<std::uint64_t>(std::llround(time / frameTime)); };
  const auto keep = [&](const std::string& line)
  {
    std::lock_guard lock(mutex);
    outcome.replies.push_back(line);
  };
  SimulationControl channel(
      [&](const std::string& line)
      {
        keep(line);
        if (!line.starts_with("paused at frame ")) return;
        const std::uint64_t frame = std::stoull(line.substr(16));
        for (; next < lines.size() && frameOf(lines[next].first) <= frame; ++next)
          if (const auto reply = control->execute(lines[next].second, next + 1)) keep(*reply);
        control->execute(
            next < lines.size() ? "step " + std::to_string(frameOf(lines[next].first) - frame) : "resume", 0);
      },
      false);
  control = &channel;
  channel.execute("pause", 0);
  options.control = &channel;
  outcome.result = runSimulation(options);
  return outcome;
}

/// The mean of `value` over the samples from `from` to `to` (s).
template<class Value>
double meanOver(const SimulationResult& result, double from, double to, Value value)
{
  double sum = 0;
  int count = 0;
  for (const RunSample& sample : result.samples)
    if (sample.time >= from && sample.time <= to)
    {
      sum += value(sample);
      ++count;
    }
  EXPECT_GT(count, 0) << from << ".." << to << " s";
  return count > 0 ? sum / count : NAN;
}

double torsoHeight(const RunSample& sample)
{
  return sample.torsoHeight;
}
} // namespace

TEST(ControlEvents, APushOfFourAndAHalfNewtonSecondsFellsTheStandingRobot)
{
  // Config/Scenarios/fallfront.toml's push (45 N for 0.1 s on the torso) through the control channel; an unknown
  // body is refused with the valid ones and changes nothing.
  const ControlledResult run =
      runControlled("nao-control-push", 5.0, {{2.4, "push 45 0 at Nose"}, {2.5, "push 45 0 0 for 0.1"}});
  EXPECT_TRUE(run.replied("error: line 1: 'push 45 0 at Nose': unknown body 'Nose' (torso, "));
  EXPECT_TRUE(run.replied("applied push 45 0 0 for 0.1 at torso at frame 208 (2.496 s)"));
  EXPECT_GT(meanOver(run.result, 2.0, 2.4, torsoHeight), 0.25) << "standing before";
  EXPECT_LT(meanOver(run.result, 4.5, 5.0, torsoHeight), 0.15) << "lying after";
  std::vector<ControlRecord> controls;
  readEvents(run.result.eventsCsv, nullptr, &controls);
  ASSERT_EQ(controls.size(), 1u) << "the refused push is not in events.csv";
  EXPECT_EQ(controls[0].command, "push 45 0 0 for 0.1 at torso");
  EXPECT_NEAR(controls[0].time, 2.496, 1e-9);

  // Replayed from events.csv (--replay), without the control channel: the same push in the same frame, the same fall.
  SimulationOptions options = test::testRunOptions("stand", 5.0 / 60.0, 1, "nao-control-push-replayed");
  options.writeLog = false;
  options.recordPeriod = 0.048;
  options.replay = controls;
  const SimulationResult replayed = runSimulation(options);
  ASSERT_EQ(replayed.controlEvents.size(), 1u);
  EXPECT_EQ(replayed.controlEvents[0].command, "push 45 0 0 for 0.1 at torso");
  EXPECT_NEAR(replayed.controlEvents[0].time, 2.496, 1e-9);
  EXPECT_NEAR(meanOver(replayed, 4.5, 5.0, torsoHeight), meanOver(run.result, 4.5, 5.0, torsoHeight), 0.01);
}

TEST(ControlEvents, APickUpTakesTheLoadOffTheSolesAndAPutDownGivesItBack)
{
  const ControlledResult run = runControlled("nao-control-pickup", 6.0, {{2.0, "pickup"}, {4.0, "putdown"}});
  const auto soles = [](const RunSample& s) { return s.footForces[0] + s.footForces[1]; };
  const double standing = meanOver(run.result, 1.6, 2.0, soles);
  EXPECT_GT(standing, 40.0) << "N: the robot's weight (5.3 kg)";
  EXPECT_LT(meanOver(run.result, 3.5, 4.0, soles), 0.02 * standing) << "lifted";
  EXPECT_GT(meanOver(run.result, 5.5, 6.0, soles), 0.8 * standing) << "put down";
}

TEST(ControlEvents, AChestButtonHeldAndReleasedSitsTheRobotDown)
{
  // SitDownProvider counts a press at its release.
  const ControlledResult run =
      runControlled("nao-control-chest", 5.0, {{2.0, "hold chest"}, {2.3, "release chest"}}, true);
  EXPECT_TRUE(run.replied("applied hold chest at frame 167"));
  EXPECT_TRUE(run.replied("applied release chest at frame 192"));
  const auto reasons = test::framesOf<SitDown>(run.result.log, [](const SitDown& s) { return s.reason; });
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), SitDownReason::chestButton), reasons.end());
  EXPECT_LT(meanOver(run.result, 4.5, 5.0, torsoHeight), meanOver(run.result, 1.6, 2.0, torsoHeight) - 0.06)
      << "m: it sat (SitDownSimulationTests' margin)";
}

TEST(ControlEvents, ADrainedBatterySitsTheRobotDown)
{
  // Just above SitDownProvider's 10 % from the first frame on (as Config/Scenarios/lowbattery.toml), then run flat.
  const ControlledResult run =
      runControlled("nao-control-drain", 9.0, {{0.0, "battery 0.1015"}, {1.0, "drain 20"}}, true);
  const auto charges =
      test::framesOf<BatteryData>(run.result.log, [](const BatteryData& b) { return b.charge; });
  ASSERT_FALSE(charges.empty());
  EXPECT_NEAR(charges.front(), 0.1015, 0.01);
  EXPECT_LT(charges.back(), 0.07);
  const auto reasons = test::framesOf<SitDown>(run.result.log, [](const SitDown& s) { return s.reason; });
  EXPECT_NE(std::find(reasons.begin(), reasons.end(), SitDownReason::lowBattery), reasons.end());
}

TEST(ControlEvents, AStuckGyroscopeShowsInSensorHealthAndClearsAgain)
{
  const ControlledResult run =
      runControlled("nao-control-fault", 6.0,
                    {{1.0, "fault gyroStuk5"}, {1.0, "fault gyroStuck5"}, {2.5, "fault clear"}}, true);
  EXPECT_TRUE(run.replied("error: line 1: 'fault gyroStuk5': ")) << "unknown fault";
  const auto gyro = test::framesOf<FrameInfo, SensorHealth>(
      run.result.log, [](const FrameInfo& f, const SensorHealth& h)
      { return std::pair(f.time, std::pair(h[Sensor::gyroscope].state, h[Sensor::gyroscope].fault)); });
  bool stuck = false, validAtEnd = false;
  for (const auto& [time, state] : gyro)
  {
    stuck |= time > 1.0 && time < 2.5 && state.second == SensorFault::stuck;
    if (time > 5.8) validAtEnd = state.first == SensorState::valid;
  }
  EXPECT_TRUE(stuck);
  EXPECT_TRUE(validAtEnd) << "SensorHealthProvider's recoverAfter (2 s) after the clear at 2.5 s";
}

namespace
{
/// A, the sum of the leg joints' reported currents.
double legCurrent(const RunSample& sample)
{
  double sum = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLegJoint(static_cast<Joint>(j))) sum += std::abs(sample.currents[j]);
  return sum;
}
} // namespace

TEST(ControlEvents, AWornPresetChangesTheCurrentsAsAWornStartDoes)
{
  // Robot 1's stand without the safety stages (the heat adjustment takes every plant to a few mA), worn from the first
  // frame on through the control channel and worn from the start (--preset worn: knees and ankles with less stiction
  // and more play, Config/Sim/robots.toml). Both draw less than the normal robot, whose stickier gears stop the
  // joints further from their targets (seed 1: 7.2 A over the legs, worn 4.6 A and 5.9 A; which count a gear sticks
  // at is chaotic, and the gear starts elsewhere in its wider play from the start). An unknown preset is refused.
  const std::vector<ProviderChoice> unadjusted = {
      {"JointRequest", "off", {}}, {"EnergySaving", "off", {}}, {"StiffnessJointRequest", "off", {}}};
  const ControlledResult normal = runControlled("nao-control-normal", 12.0, {}, false, unadjusted);
  const ControlledResult worn = runControlled(
      "nao-control-worn", 12.0, {{0.0, "preset tired"}, {0.0, "preset worn"}}, false, unadjusted);
  const ControlledResult wornFromStart =
      runControlled("nao-control-worn-start", 12.0, {}, false, unadjusted, "worn");
  EXPECT_TRUE(worn.replied("error: line 1: 'preset tired': "));
  EXPECT_TRUE(worn.replied("applied preset worn at frame 0 (0.000 s)"));
  const double normalCurrent = meanOver(normal.result, 6.0, 12.0, legCurrent);
  const double wornCurrent = meanOver(worn.result, 6.0, 12.0, legCurrent);
  const double wornFromStartCurrent = meanOver(wornFromStart.result, 6.0, 12.0, legCurrent);
  std::printf("leg currents 6-12 s: normal %.0f mA, worn %.0f mA, worn from the start %.0f mA\n",
              normalCurrent * 1000, wornCurrent * 1000, wornFromStartCurrent * 1000);
  EXPECT_LT(wornCurrent, 0.85 * normalCurrent);
  EXPECT_LT(wornFromStartCurrent, 0.85 * normalCurrent);
  EXPECT_NEAR(wornCurrent, wornFromStartCurrent, 0.3 * wornFromStartCurrent);
}

TEST(ControlEvents, AHeldVariantTakesTheLoadOffTheSoles)
{
  // Config/Sim/variants.toml's heldInAir from 2 s on: the torso held 20 mm up, the feet in the air.
  const ControlledResult run = runControlled("nao-control-variant", 4.0, {{2.0, "variant heldInAir"}});
  EXPECT_TRUE(run.replied("applied variant heldInAir at frame 167"));
  const auto soles = [](const RunSample& s) { return s.footForces[0] + s.footForces[1]; };
  EXPECT_GT(meanOver(run.result, 1.6, 2.0, soles), 40.0);
  EXPECT_LT(meanOver(run.result, 3.5, 4.0, soles), 1.0);
}

TEST(ControlEvents, ATemperatureSetsTheReportedWindingTemperature)
{
  const ControlledResult run =
      runControlled("nao-control-temperature", 3.0, {{1.0, "temperature LKneePitch 70"}});
  EXPECT_TRUE(run.replied("applied temperature LKneePitch 70 at frame 83"));
  const auto knee = [](const RunSample& s)
  { return s.temperatures[static_cast<std::size_t>(Joint::LKneePitch)]; };
  EXPECT_LT(meanOver(run.result, 0.5, 0.9, knee), 50.0);
  EXPECT_NEAR(meanOver(run.result, 1.1, 1.3, knee), 70.0, 1.5) << "whole degrees, cooling from 70 °C";
}

TEST(ControlEvents, ARestartPutsTheRobotBackAtTheScenariosStart)
{
  // Picked up at 1 s, restarted at 2 s: on the floor again in the start posture (crouch), the script from its start.
  const ControlledResult run = runControlled("nao-control-restart", 4.0, {{1.0, "pickup"}, {2.0, "restart"}});
  EXPECT_TRUE(run.replied("applied restart at frame 167"));
  const auto soles = [](const RunSample& s) { return s.footForces[0] + s.footForces[1]; };
  EXPECT_LT(meanOver(run.result, 1.8, 1.99, soles), 1.0);
  EXPECT_GT(meanOver(run.result, 3.5, 4.0, soles), 40.0);
  std::vector<ControlRecord> controls;
  readEvents(run.result.eventsCsv, nullptr, &controls);
  ASSERT_EQ(controls.size(), 2u);
  EXPECT_EQ(controls[1].command, "restart");
}

TEST(ControlEvents, ButtonsAndTheBatteryReadInTheFrameTheyAreAppliedIn)
{
  // The plant alone (no robot): the lines through SimulationControl to the run's side, ControlEventRunner, as the
  // frame loop hands them over; the LoLA frame's Touch 0..3 and Battery are the readings' (SimulationRun.cpp).
  const SimulationOptions options = test::testRunOptions("stand", 0.1, 1, "nao-control-plant");
  sim::SimConfig config = sim::loadSimConfig(NAO_CONFIG_DIR);
  ControlEventRunner runner(options, config, {}, config.motors.battery.initialCharge);
  sim::SimulatedRobot simulation(config);
  std::optional<SensorFaultInjector> fault;
  sim::VariantEffect variant;
  std::size_t nextEvent = 0;
  double scriptStart = 0;
  bool torsoHeld = false;
  SimulationResult result;
  ControlledRun run{simulation, fault, variant, nextEvent, scriptStart, torsoHeld, result};
  std::vector<std::string> replies;
  SimulationControl control([&](const std::string& line) { replies.push_back(line); }, false);
  std::vector<ControlEvent> events;
  std::uint64_t frame = 0;
  const auto frameWith = [&](const std::vector<std::string>& lines)
  {
    for (const std::string& line : lines)
      control.execute(line, frame + 1);
    control.takeEvents(events);
    for (ControlEvent& event : events)
      replies.push_back(runner.apply(std::move(event), run, frame));
    const sim::SimSensors sensors = simulation.sensors(); // what this frame's packet carries
    simulation.advance(simulation.frameTime());
    ++frame;
    return sensors;
  };
  sim::SimSensors sensors = frameWith({"press head-front 0.05", "hold head-rear", "battery 0.25"});
  EXPECT_EQ(sensors.touch[1], 1.f);
  EXPECT_EQ(sensors.touch[2], 0.f);
  EXPECT_EQ(sensors.touch[3], 1.f);
  EXPECT_DOUBLE_EQ(sensors.battery.charge, 0.25);
  for (int k = 0; k < 5; ++k)
    sensors = frameWith({});
  EXPECT_EQ(sensors.touch[1], 0.f) << "released after 0.05 s";
  EXPECT_EQ(sensors.touch[3], 1.f) << "held";
  sensors = frameWith({"release head-rear", "press head-middle", "push 0 0 at Nose"});
  EXPECT_EQ(sensors.touch[3], 0.f);
  EXPECT_EQ(sensors.touch[2], 1.f);
  ASSERT_EQ(replies.size(), 6u);
  EXPECT_EQ(replies[0], "applied press head-front 0.05 at frame 0 (0.000 s)");
  EXPECT_EQ(replies[3], "applied release head-rear at frame 6 (0.072 s)");
  EXPECT_TRUE(replies[5].starts_with("error: line 7: 'push 0 0 at Nose': unknown body 'Nose' (torso, "))
      << replies[5];
  EXPECT_EQ(result.controlEvents.size(), 5u);
}

TEST(ControlEvents, AReplayWithALineThatIsNoEventStopsBeforeTheRobotStarts)
{
  SimulationOptions options = test::testRunOptions("stand", 0.05, 1, "nao-control-bad-replay");
  options.replay = {{1.0, "pickup"}, {2.0, "push 45"}};
  try
  {
    runSimulation(options);
    ADD_FAILURE() << "a run with a bad replay ran";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_EQ(std::string(error.what()).rfind("--replay: event 2, 'push 45': push <fx> <fy>", 0), 0u)
        << error.what();
  }
}

TEST(ControlEvents, AScenariosControlEventsJoinTheReplayInTimeOrderAndABadLineNamesTheScenario)
{
  ScenarioScript script;
  script.controls = {{0.5, "pickup"}, {3.0, "push 45 0 0 for 0.1 at torso"}};
  const std::vector<ControlRecord> merged =
      withScriptControls({{1.0, "putdown"}, {4.0, "press chest 0.2"}}, script, "Scenarios/mine.toml");
  ASSERT_EQ(merged.size(), 4u);
  EXPECT_EQ(merged[0].command, "pickup");
  EXPECT_EQ(merged[1].command, "putdown");
  EXPECT_EQ(merged[2].command, "push 45 0 0 for 0.1 at torso");
  EXPECT_EQ(merged[2].time, 3.0);
  EXPECT_EQ(merged[3].command, "press chest 0.2");
  script.controls.push_back({5.0, "push 45"});
  try
  {
    withScriptControls({}, script, "Scenarios/mine.toml");
    ADD_FAILURE() << "a bad control line was taken";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_EQ(std::string(error.what())
                  .rfind("Scenarios/mine.toml: control event 3 (time 5.000000 s), line "
                         "'push 45': push <fx> <fy>",
                         0),
              0u)
        << error.what();
  }
}
