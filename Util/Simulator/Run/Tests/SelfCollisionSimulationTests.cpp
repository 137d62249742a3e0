// SelfCollisionProvider on a simulated robot, the three cases (Config/Scenarios/collision*.toml): NAOqi's
// LArm Init -> Final at half speed, an arm swinging into the head, legs crossing (lifted). Each runs twice with
// the same seed: the stage off (--provider CollisionFreeJointRequest=off), where the measured posture enters the
// body, and on, where it never does. The judge is the measured joint angles of the robot's log (JointSensorData),
// put through the shapes of selfCollision.toml with nothing protected: where the chains really were, not what the
// module asked for.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/SelfCollisionProvider/SelfCollisionProvider.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/LogReading/LogDecoder.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <cstdio>
#include <fstream>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
struct Outcome
{
  float minDistance = 1.f; ///< m, smallest signed distance of any pair over the run, measured posture
  int frames = 0;
};

Outcome run(const std::string& scenario, bool on, std::uint64_t seed)
{
  SimulationOptions options;
  options.configDirectory = NAO_CONFIG_DIR;
  options.scenario = scenario;
  options.minutes = 0.12; // 7.2 s: the scripts end after 6-7 s
  options.seed = seed;
  options.writePlots = false;
  options.outputDirectory =
      std::filesystem::temp_directory_path() /
      ("nao-selfcollision-" + scenario + (on ? "-on-" : "-off-") + std::to_string(seed));
  std::filesystem::remove_all(options.outputDirectory);
  if (!on) options.providerOverrides = {{"CollisionFreeJointRequest", "off", {}}};
  const SimulationResult result = runSimulation(options);
  EXPECT_EQ(result.positionsOutOfRange, 0u)
      << scenario << (on ? " on" : " off") << ": every Position sent over LoLA lies within the URDF's limits";

  // The judge: every pair's distance at the measured posture (limp input: the module's reference is then the
  // measurement itself, and with nothing protected it changes nothing).
  SelfCollisionParameters judgeParameters;
  judgeParameters.protection = {false, false, false, false, false, false};
  ModuleHarness<SelfCollisionProvider> judge(judgeParameters);
  judge.input<MotionJointRequest>().stiffnesses.fill(0.f);
  Outcome outcome;
  // s, mm: for the README's plot (Util/Simulator/Docs/self-collision-comparison.png).
  std::ofstream csv(options.outputDirectory / "distance.csv");
  csv << "time [s],smallest pair distance [mm]\n";
  LogDecoder log(result.log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (log.next(frameNumber, records))
    if (const auto* joints = recordOf<JointSensorData>(records))
    {
      judge.input<JointSensorData>().angles = joints->angles;
      judge.input<MotionJointRequest>().angles = joints->angles;
      judge.run();
      outcome.minDistance = std::min(outcome.minDistance, judge.output<SelfCollision>().minDistance);
      csv << outcome.frames * 0.012 << ',' << judge.output<SelfCollision>().minDistance * 1000.f << '\n';
      ++outcome.frames;
    }
  return outcome;
}

void expectOffPenetratesOnStaysOut(const std::string& scenario)
{
  for (std::uint64_t seed : {1u, 2u})
  {
    const Outcome off = run(scenario, false, seed);
    const Outcome on = run(scenario, true, seed);
    std::printf("%s seed %llu: min distance off %.1f mm, on %.1f mm (%d frames)\n", scenario.c_str(),
                static_cast<unsigned long long>(seed), off.minDistance * 1000.f, on.minDistance * 1000.f,
                on.frames);
    ::testing::Test::RecordProperty(scenario + "_seed" + std::to_string(seed) + "_off_mm",
                                    std::to_string(off.minDistance * 1000.f));
    ::testing::Test::RecordProperty(scenario + "_seed" + std::to_string(seed) + "_on_mm",
                                    std::to_string(on.minDistance * 1000.f));
    EXPECT_GT(on.frames, 500);
    EXPECT_LT(off.minDistance, 0.f) << scenario << ": without the stage the measured posture enters the body";
    EXPECT_GE(on.minDistance, 0.f) << scenario << ": with the stage it never does";
  }
}
} // namespace

TEST(SelfCollisionSimulation, NaoqisLArmExampleEntersTheTorsoOffAndStaysOutOn)
{
  expectOffPenetratesOnStaysOut("collisionarm");
}

TEST(SelfCollisionSimulation, AnArmSwingingIntoTheHeadEntersItOffAndStaysOutOn)
{
  expectOffPenetratesOnStaysOut("collisionhead");
}

TEST(SelfCollisionSimulation, CrossingLegsPenetrateOffAndStayApartOn)
{
  expectOffPenetratesOnStaysOut("collisionlegs");
}

TEST(SelfCollisionSimulation, TheExistingScenariosPassBitForBit)
{
  // The stage's output depends only on its inputs and its own state, so replaying a stage-off run's logged
  // inputs (MotionJointRequest, JointSensorData) through it with the default parameters shows what it would send
  // in that run: if that is the request itself in every frame, switching the stage on changes nothing there.
  for (const char* scenario : {"stand", "sit", "highstand", "standjitter", "stepping", "lifted"})
  {
    SCOPED_TRACE(scenario);
    SimulationOptions options;
    options.configDirectory = NAO_CONFIG_DIR;
    options.scenario = scenario;
    options.minutes = 2.0; // as long as the heat-adjustment tests run them
    options.writePlots = false;
    options.outputDirectory =
        std::filesystem::temp_directory_path() / ("nao-selfcollision-replay-" + std::string(scenario));
    std::filesystem::remove_all(options.outputDirectory);
    options.providerOverrides = {{"CollisionFreeJointRequest", "off", {}}, {"SelfCollision", "off", {}}};
    const SimulationResult result = runSimulation(options);
    ModuleHarness<SelfCollisionProvider> stage; // Config/Modules/SelfCollisionProvider.toml
    LogDecoder log(result.log);
    std::uint32_t frameNumber = 0;
    std::vector<DecodedRecord> records;
    int frames = 0, changed = 0;
    float closest = 1.f;
    while (log.next(frameNumber, records))
    {
      const MotionJointRequest* request = nullptr;
      const JointSensorData* joints = nullptr;
      for (const auto& record : records)
        if (record.object && record.name == "MotionJointRequest")
          request = static_cast<const MotionJointRequest*>(record.object.get());
        else if (record.object && record.name == "JointSensorData")
          joints = static_cast<const JointSensorData*>(record.object.get());
      if (!request || !joints) continue;
      stage.input<MotionJointRequest>() = *request;
      stage.input<JointSensorData>() = *joints;
      stage.run();
      ++frames;
      changed += !(stage.output<CollisionFreeJointRequest>().angles == request->angles &&
                   stage.output<CollisionFreeJointRequest>().stiffnesses == request->stiffnesses);
      closest = std::min(closest, stage.output<SelfCollision>().minDistance);
    }
    // Lock-step runs far faster than real time: on a loaded machine the logger falls behind and drops frames (it
    // never blocks the motion thread), and says how many in the log itself. Every frame is accounted for.
    std::uint64_t dropped = 0;
    for (const auto& annotation : log.reader().annotations())
      if (auto at = annotation.text.find("dropped (logger fell behind): "); at != std::string::npos)
        dropped = std::stoull(annotation.text.substr(at + 30));
    std::printf("%s: %d frames, %llu dropped by the logger, %d changed, closest pair %.1f mm\n", scenario,
                frames, static_cast<unsigned long long>(dropped), changed, closest * 1000.f);
    EXPECT_EQ(frames + dropped, 10000u) << "2 minutes of frames";
    EXPECT_GE(frames, 1000) << "the replay covers a tenth of the run at least, however busy the machine";
    EXPECT_EQ(changed, 0);
  }
}
