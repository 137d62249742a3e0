// The unchanged robot binary talks LoLA to the simulator: it stands, logs, and its log carries what the
// motors did.
#include "Framework/Client/LogDecoder.h"
#include "Framework/RobotDescription.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
/// The simulator's default robot (seed), with its plots.
SimulationOptions optionsFor(const std::string& scenario, double minutes, const std::string& output)
{
  SimulationOptions options = test::testRunOptions(scenario, minutes, SimulationOptions{}.seed, output);
  options.writePlots = true;
  return options;
}

/// m, the torso origin's height above the floor in the posture `angles`, with the lower sole flat on the floor: by
/// the robot model's forward kinematics (the URDF through Src/Tools/Kinematics), not by the simulator.
double torsoHeightByKinematics(const RobotDescription& description, const JointArray<float>& angles)
{
  const kinematics::Model& model = description.model;
  kinematics::Data data(model);
  Eigen::VectorXd q(model.coordinateCount()); // LoLA joint order
  for (std::size_t j = 0; j < numOfJoints; ++j)
    q[static_cast<Eigen::Index>(j)] = angles[j];
  kinematics::forwardKinematics(model, data, q);
  double height = 0;
  for (const char* sole : {"l_sole", "r_sole"})
  {
    // The torso origin in the sole's frame; its z is the height when that sole lies flat on the floor.
    const math::Pose& pose = data.linkPoses[static_cast<std::size_t>(model.linkIndex(sole))];
    height = std::max(height, -(pose.rotation.transpose() * pose.translation).z());
  }
  return height;
}

/// Both ends' counts of a run with the robot binary agree: every sensor frame reached it, it answered every frame it
/// ran, the simulator took every answer once, and in-time plus late answers are all the answers.
void expectEveryFrameAccounted(const SimulationResult& result)
{
  ASSERT_TRUE(result.robotLola.has_value()) << "the robot binary printed its LoLA counts";
  const LolaBodyStatistics& robot = *result.robotLola;
  EXPECT_EQ(robot.packets, result.frames) << "every sensor frame reached the robot";
  EXPECT_EQ(robot.decodeErrors, 0u);
  EXPECT_EQ(robot.sendFailures, 0u);
  EXPECT_EQ(robot.answersSent, robot.packets - robot.skippedFrames)
      << "the robot answers every frame it runs";
  EXPECT_EQ(result.answers, robot.answersSent) << "every answer the robot sent was taken, none twice";
  EXPECT_EQ(result.frames - result.missingAnswers + result.lateAnswers, result.answers)
      << "frames answered in time + answers that came late = answers";
}
} // namespace

TEST(EndToEnd, RobotBinaryStandsSixtySecondsAndItsLogReadsBack)
{
  SimulationOptions options = optionsFor("stand", 1.0, "nao-e2e-stand");
  options.robotBinary = NAO_ROBOT_BINARY;
  const SimulationResult result = runSimulation(options);

  // Upright: the torso origin of B-Human's stand is 230 mm (hip above sole) + 85 mm (torso above hip) = 315
  // mm up.
  EXPECT_GT(result.minTorsoHeight, 0.29) << "the robot sagged or fell";
  EXPECT_LT(result.maxTorsoHeight, 0.34);
  EXPECT_EQ(result.frames, 5000u);
  EXPECT_EQ(result.malformedAnswers, 0u);
  // Every frame accounted for on both ends, by their own counts (the robot binary prints its LoLA counts when it
  // stops; the simulator reads them back). Lock-step waits for each answer, so a frame lacks its answer only if
  // the robot took longer than the 5 s lock-step deadline (wall clock: never seen, its start-up takes 60 ms and a
  // frame 0.1 ms); such an answer then comes late, or the robot skips that frame for the newer one queued behind
  // it. Both are counted, so a frame whose packet or answer got lost shows, however the machine was loaded.
  ASSERT_TRUE(result.robotLola.has_value()) << "the robot binary printed its LoLA counts";
  const LolaBodyStatistics& robot = *result.robotLola;
  EXPECT_EQ(robot.connections, 1u);
  expectEveryFrameAccounted(result);
  EXPECT_EQ(result.missingAnswers, result.lateAnswers + robot.skippedFrames)
      << "a frame without its answer in time got it late or was skipped by the robot, nothing else";
  std::printf("[ lock-step] %llu frames: %llu without their answer in time (%llu answers late, %llu frames "
              "skipped by the robot)\n",
              static_cast<unsigned long long>(result.frames),
              static_cast<unsigned long long>(result.missingAnswers),
              static_cast<unsigned long long>(result.lateAnswers),
              static_cast<unsigned long long>(robot.skippedFrames));
  RecordProperty("missingAnswers", std::to_string(result.missingAnswers));
  EXPECT_EQ(result.positionsOutOfRange, 0u) << "the robot binary's Positions lie within the URDF's limits";
  // Rising into the stand draws current and heat, and both show up (what the heat adjustment makes of them is
  // HeatAdjustmentTests' job).
  EXPECT_GT(result.joints[index(Joint::LKneePitch)].maxCurrent, 1.0);
  EXPECT_GT(result.joints[index(Joint::LKneePitch)].maxTemperature, 25.0);

  LogDecoder log(result.log);
  EXPECT_TRUE(log.undecodable().empty());
  std::uint32_t frameNumber = 0, frames = 0;
  std::vector<DecodedRecord> records;
  double maxLoggedCurrent = 0, maxLoggedTemperature = 0;
  while (log.next(frameNumber, records))
  {
    ++frames;
    if (const auto* joints = recordOf<JointSensorData>(records))
    {
      maxLoggedCurrent = std::max(maxLoggedCurrent, static_cast<double>(joints->currents[Joint::LKneePitch]));
      maxLoggedTemperature =
          std::max(maxLoggedTemperature, static_cast<double>(joints->temperatures[Joint::LKneePitch]));
    }
  }
  // Every frame is accounted for: in the log, or dropped by the logger (SimulationTestSupport.h).
  EXPECT_EQ(frames + test::droppedLogFrames(result.log), 5000u);
  EXPECT_GE(frames, 4000u);
  EXPECT_GT(maxLoggedCurrent, 1.0) << "currents reach the robot's log (A: the knee's while rising)";
  EXPECT_GT(maxLoggedTemperature, 25.0) << "temperatures reach the robot's log";
  EXPECT_FALSE(result.plots.empty());
  for (const auto& plot : result.plots)
    EXPECT_GT(std::filesystem::file_size(plot), 10000u) << plot;
}

TEST(EndToEnd, PickedUpRobotLeavesTheGroundAndComesBack)
{
  SimulationOptions options = optionsFor("lifted", 50.0 / 60.0, "nao-e2e-lifted");
  options.writeLog = false;
  const SimulationResult result = runSimulation(options);
  auto fsrAt = [&](double time)
  {
    for (const RunSample& sample : result.samples)
      if (sample.time >= time) return sample.fsrTotal;
    return -1.f;
  };
  EXPECT_GT(fsrAt(5.0), 4.0) << "standing: the FSRs carry the robot (kg)";
  EXPECT_LT(fsrAt(20.0), 0.3) << "picked up at 10 s: the feet are off the ground";
  EXPECT_GT(fsrAt(48.0), 4.0) << "put down at 40 s: the weight is back on the feet";
  EXPECT_GT(result.minTorsoHeight, 0.25) << "standing before and after";
  // Each foot's ground force (N): about half the weight on each while standing, none in the air.
  auto feetAt = [&](double time)
  {
    for (const RunSample& sample : result.samples)
      if (sample.time >= time) return sample.footForces;
    return std::array<float, 2>{-1.f, -1.f};
  };
  for (const double time : {5.0, 48.0})
    for (const float force : feetAt(time))
      EXPECT_GT(force, 15.f) << time << " s: each foot carries part of the 53 N robot";
  for (const float force : feetAt(20.0))
    EXPECT_LT(force, 3.f) << "20 s: in the air";
  // The events that happened are written and marked in the plots.
  ASSERT_EQ(result.events.size(), 2u);
  EXPECT_EQ(result.events[0].kind, ScriptEventKind::pickUp);
  EXPECT_EQ(result.events[1].kind, ScriptEventKind::putDown);
  std::ifstream events(result.eventsCsv);
  std::string line;
  int rows = 0;
  while (std::getline(events, line))
    ++rows;
  EXPECT_EQ(rows, 3) << "header, pick-up, put-down";
  std::ifstream script(result.csv.parent_path() / "plots.gp");
  const std::string text((std::istreambuf_iterator<char>(script)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("set label 'pick-up' at 10,"), std::string::npos);
  EXPECT_NE(text.find("set label 'put-down' at 40,"), std::string::npos);
  EXPECT_EQ(result.plots.size(), 6u);
}

TEST(Scenarios, EverySimulatedScenarioKeepsTheRobotUp)
{
  // The torso's height follows the scenario's postures: its lowest and highest over the run are those of the
  // postures the script passes through (the start posture and every keyframe's), and a held posture's at the end,
  // each expected by forward kinematics with the lower sole flat on the floor, within 10 mm (sole contact,
  // gear sag and the quasi-static transitions between postures).
  // Every scenario file with a [Script] but the collision scenarios (SelfCollisionSimulationTests runs those: the
  // stage changes their postures on purpose) and those whose events sit the robot down or push it over on purpose
  // (chestbutton and lowbattery: SitDownSimulationTests; fall*: FallProtectionSimulationTests), and those the Stack of
  // Tasks moves, not keyframes (reach, lookat, goalieblock: TaskSpaceSimulationTests); default.toml and standin.toml
  // have none.
  std::vector<std::string> scenarios;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios"))
  {
    const std::string name = entry.path().stem().string();
    const bool onPurpose = name.rfind("collision", 0) == 0 || name == "chestbutton" || name == "lowbattery" ||
                           name.rfind("fall", 0) == 0 || name == "reach" || name == "lookat" ||
                           name == "goalieblock";
    if (name != "default" && name != "standin" && !onPurpose) scenarios.push_back(name);
  }
  std::sort(scenarios.begin(), scenarios.end());
  EXPECT_EQ(scenarios.size(), 10u) << "of the 24 scenario files, all but default, standin, the 3 collision, "
                                      "the 2 sit-down, the 4 fall and the 3 task-space ones";
  const RobotDescription description = RobotDescription::load(ConfigFiles{{NAO_CONFIG_DIR, "Default"}, {}});
  constexpr double tolerance = 0.010; // m
  std::size_t checked = 0;
  for (const std::string& scenario : scenarios)
  {
    SCOPED_TRACE(scenario);
    const ScenarioScript script =
        ScenarioScript::load(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios" / (scenario + ".toml"));
    double lowest = torsoHeightByKinematics(description, script.pose(script.start).angles), highest = lowest;
    for (const ScriptKeyframe& keyframe : script.keyframes)
    {
      const double height = torsoHeightByKinematics(description, script.pose(keyframe.pose).angles);
      lowest = std::min(lowest, height);
      highest = std::max(highest, height);
    }
    SimulationOptions options = optionsFor(scenario, 20.0 / 60.0, "nao-scenario-" + scenario);
    options.writeLog = false;
    const SimulationResult result = runSimulation(options);
    std::printf("[ torso    ] %-15s lowest %.1f mm (kinematics %.1f), highest %.1f mm (kinematics %.1f)",
                scenario.c_str(), result.minTorsoHeight * 1000, lowest * 1000, result.maxTorsoHeight * 1000,
                highest * 1000);
    EXPECT_NEAR(result.minTorsoHeight, lowest, tolerance) << "m, lowest over the run";
    EXPECT_NEAR(result.maxTorsoHeight, highest, tolerance) << "m, highest over the run";
    // The last keyframe is held to the end, unless the script loops or the robot ends the run in a hand (lifted).
    const bool heldInTheAir = !result.events.empty() && result.events.back().kind == ScriptEventKind::pickUp;
    if (script.loopFrom < 0 && !heldInTheAir)
    {
      ASSERT_FALSE(result.samples.empty());
      const double held =
          torsoHeightByKinematics(description, script.pose(script.keyframes.back().pose).angles);
      std::printf(", at the end %.1f mm (kinematics %.1f)", result.samples.back().torsoHeight * 1000.0,
                  held * 1000);
      EXPECT_NEAR(result.samples.back().torsoHeight, held, tolerance) << "m, the held posture";
    }
    std::printf("\n");
    EXPECT_EQ(result.missingAnswers, 0u);
    EXPECT_EQ(result.positionsOutOfRange, 0u)
        << "every Position sent over LoLA lies within the URDF's limits";
    EXPECT_EQ(result.frames, 1667u) << "20 s of frames: the check saw every answer";
    ++checked;
  }
  EXPECT_EQ(checked, scenarios.size());
}

TEST(Scenarios, TheSitIsHeldWithoutHeatingTheKnees)
{
  // The sit's crouch loads each hip, knee and ankle pitch by about 0.7 N·m, below the 1.0 N·m its gear's static
  // friction holds (Config/Sim/motors.toml; test Standing.TheCrouchLoadsNoJointBeyondItsGear): the gears can carry
  // it without motor torque, so with the heat adjustment ("any": legs above 300 mA) every knee must end below
  // 300 mA and no joint may reach temperature status 1. B-Human's sit squat drew about 2 A per knee (2.5 N·m) and
  // reached status 1 within a minute. A nominal and a worn robot (0.7 × the knees' and ankles' static friction).
  const ScenarioScript script =
      ScenarioScript::load(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios/sit.toml");
  const double sitHeight =
      torsoHeightByKinematics(RobotDescription::load(ConfigFiles{{NAO_CONFIG_DIR, "Default"}, {}}),
                              script.pose(script.keyframes.back().pose).angles);
  for (const auto& [seed, preset] : {std::pair<std::uint64_t, const char*>{1, ""}, {119, "worn"}})
  {
    SCOPED_TRACE(seed);
    SimulationOptions options = optionsFor("sit", 2.0, "nao-scenario-sit-" + std::to_string(seed));
    options.seed = seed;
    options.preset = preset;
    options.writeLog = false;
    options.writePlots = false;
    const SimulationResult result = runSimulation(options);
    for (const Joint knee : {Joint::LKneePitch, Joint::RKneePitch})
      EXPECT_LT(result.joints[index(knee)].finalCurrent, heatingCurrent)
          << "A over the last 10 s, knee " << index(knee);
    for (std::size_t j = 0; j < numOfJoints; ++j)
      EXPECT_EQ(result.joints[j].maxStatus, 0) << jointNames[j];
    // Held, not sunk: the torso where the sit's posture puts it by forward kinematics, within 10 mm.
    ASSERT_FALSE(result.samples.empty());
    EXPECT_NEAR(result.samples.back().torsoHeight, sitHeight, 0.010) << "m, after 2 minutes";
    EXPECT_NEAR(result.minTorsoHeight, sitHeight, 0.010) << "m, never lower";
  }
}

TEST(Scenarios, SteppingInPlaceLiftsEachFootInTurn)
{
  SimulationOptions options = optionsFor("stepping", 20.0 / 60.0, "nao-scenario-stepping-log");
  const SimulationResult result = runSimulation(options);
  LogDecoder log(result.log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  bool leftLifted = false, rightLifted = false, bothDown = false;
  while (log.next(frameNumber, records))
    if (const auto* fsr = recordOf<FsrSensorData>(records))
    {
      leftLifted |= fsr->left.totalWeight < 0.1f && fsr->right.totalWeight > 4.f;
      rightLifted |= fsr->right.totalWeight < 0.1f && fsr->left.totalWeight > 4.f;
      bothDown |= fsr->left.totalWeight > 2.f && fsr->right.totalWeight > 2.f;
    }
  EXPECT_TRUE(bothDown);
  EXPECT_TRUE(leftLifted) << "the left foot left the ground while the right one carried the robot";
  EXPECT_TRUE(rightLifted) << "the right foot left the ground while the left one carried the robot";
  EXPECT_GT(result.minTorsoHeight, 0.29);
}

TEST(EndToEnd, RealTimeModeServesEveryFrame)
{
  // Real time (for a GUI): frames are paced by the wall clock and answers are taken as they come. Every frame is
  // accounted for exactly, by both ends counting on their own: the simulator counts the answers it took, late ones
  // (after their frame had ended) included; the robot counts the packets it got, those it never answered because a
  // newer one was already queued (LoLA's "newest wins"), and the answers it sent. How many answers came late or
  // were skipped depends on how the machine schedules the robot's thread within a 12 ms frame, so it is reported,
  // not asserted (the rules: no test fails on wall-clock time); that none got lost or was invented is asserted.
  SimulationOptions options = optionsFor("stand", 3.0 / 60.0, "nao-e2e-realtime");
  options.realTime = true;
  options.writeLog = false;
  const SimulationResult result = runSimulation(options);
  EXPECT_EQ(result.frames, 250u);
  EXPECT_EQ(result.malformedAnswers, 0u);
  EXPECT_GT(result.minTorsoHeight, 0.29);
  ASSERT_TRUE(result.robotLola.has_value());
  const LolaBodyStatistics& robot = *result.robotLola;
  expectEveryFrameAccounted(result);
  EXPECT_EQ(result.frames - result.answers, robot.skippedFrames)
      << "the frames without an answer are exactly those the robot skipped";
  const std::uint64_t onTime = result.frames - result.missingAnswers;
  std::printf(
      "[ realtime ] %llu frames: %llu answered within their frame, %llu answers late, %llu frames skipped "
      "by the robot (newer one queued)\n",
      static_cast<unsigned long long>(result.frames), static_cast<unsigned long long>(onTime),
      static_cast<unsigned long long>(result.lateAnswers),
      static_cast<unsigned long long>(robot.skippedFrames));
  RecordProperty("framesAnsweredInTime", std::to_string(onTime));
  RecordProperty("lateAnswers", std::to_string(result.lateAnswers));
  RecordProperty("framesSkippedByTheRobot", std::to_string(robot.skippedFrames));
}
