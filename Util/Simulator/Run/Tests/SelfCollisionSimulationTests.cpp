// SelfCollisionProvider on a simulated robot, the three cases (Config/Scenarios/collision*.toml): NAOqi's
// LArm Init -> Final at half speed, an arm swinging into the head, legs crossing (lifted). Each runs twice with
// the same seed: the stage off (--provider CollisionFreeJointRequest=off), where the measured posture enters the
// body, and on, where it never does. The judge is the measured joint angles of the robot's log (JointSensorData),
// put through the shapes of selfCollision.toml with nothing protected: where the chains really were, not what the
// module asked for (SelfCollisionEvaluation.h; `Simulator collision` writes the table of Docs/Results/).
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/SelfCollisionProvider/SelfCollisionProvider.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Util/Simulator/Run/SelfCollisionEvaluation.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
/// The evaluation's judge (the distance code of Tools/Collision) says what SelfCollisionProvider itself says of the
/// measured posture with nothing protected and limp input: its SelfCollision.minDistance, frame by frame.
void expectTheModulesMinDistance(const SelfCollisionRun& outcome)
{
  SelfCollisionParameters judgeParameters;
  judgeParameters.protection = {false, false, false, false, false, false};
  ModuleHarness<SelfCollisionProvider> judge(judgeParameters);
  judge.input<FallSafeJointRequest>().stiffnesses.fill(0.f);
  float minDistance = 1.f;
  int frames = 0;
  for (const JointArray<float>& angles : test::framesOf<JointSensorData>(
           outcome.log, [](const JointSensorData& joints) { return joints.angles; }))
  {
    judge.input<JointSensorData>().angles = angles;
    judge.input<FallSafeJointRequest>().angles = angles;
    judge.run();
    minDistance = std::min(minDistance, judge.output<SelfCollision>().minDistance);
    ++frames;
  }
  EXPECT_EQ(frames, outcome.frames);
  EXPECT_NEAR(minDistance, outcome.minDistance, 1e-6f) << "m: the module's own judgement";
}

SelfCollisionRun run(const std::string& scenario, bool on, std::uint64_t seed)
{
  // The measurement and its judge: SelfCollisionEvaluation.h (`Simulator collision` writes its table). Its
  // distance.csv is the README's plot (Util/Simulator/Docs/self-collision-comparison.png).
  const SelfCollisionRun outcome = runSelfCollisionScenario(
      NAO_CONFIG_DIR, scenario, seed, on,
      std::filesystem::temp_directory_path() /
          ("nao-selfcollision-" + scenario + (on ? "-on-" : "-off-") + std::to_string(seed)));
  EXPECT_EQ(outcome.positionsOutOfRange, 0u)
      << scenario << (on ? " on" : " off") << ": every Position sent over LoLA lies within the URDF's limits";
  expectTheModulesMinDistance(outcome);
  return outcome;
}

void expectOffPenetratesOnStaysOut(const std::string& scenario)
{
  for (std::uint64_t seed : {1u, 2u})
  {
    const SelfCollisionRun off = run(scenario, false, seed);
    const SelfCollisionRun on = run(scenario, true, seed);
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
  // in that run: if that is the request itself in every frame, switching the stage on changes nothing there. (The
  // stage's input, FallSafeJointRequest, is the motion source's request in these runs: no chest button press and no
  // fall, so the sit-down and fall stages before it pass it through.)
  for (const char* scenario : {"stand", "sit", "highstand", "standjitter", "stepping", "lifted"})
  {
    SCOPED_TRACE(scenario);
    // 2 minutes: as long as the heat-adjustment tests run them; the simulator's default seed.
    SimulationOptions options = test::testRunOptions(scenario, 2.0, SimulationOptions{}.seed,
                                                     "nao-selfcollision-replay-" + std::string(scenario));
    options.providerOverrides = {{"CollisionFreeJointRequest", "off", {}}, {"SelfCollision", "off", {}}};
    const SimulationResult result = runSimulation(options);
    ModuleHarness<SelfCollisionProvider> stage; // Config/Modules/SelfCollisionProvider.toml
    int frames = 0, changed = 0;
    float closest = 1.f;
    const auto logged = test::framesOf<MotionJointRequest, JointSensorData>(
        result.log,
        [](const MotionJointRequest& request, const JointSensorData& joints) {
          return std::pair{request, joints};
        });
    for (const auto& [request, joints] : logged)
    {
      stage.input<FallSafeJointRequest>() = request;
      stage.input<JointSensorData>() = joints;
      stage.run();
      ++frames;
      changed += !(stage.output<CollisionFreeJointRequest>().angles == request.angles &&
                   stage.output<CollisionFreeJointRequest>().stiffnesses == request.stiffnesses);
      closest = std::min(closest, stage.output<SelfCollision>().minDistance);
    }
    // Every frame is accounted for: replayed, or dropped by the logger (SimulationTestSupport.h).
    const std::uint64_t dropped = test::droppedLogFrames(result.log);
    std::printf("%s: %d frames, %llu dropped by the logger, %d changed, closest pair %.1f mm\n", scenario,
                frames, static_cast<unsigned long long>(dropped), changed, closest * 1000.f);
    EXPECT_EQ(frames + dropped, 10000u) << "2 minutes of frames";
    EXPECT_GE(frames, 1000) << "the replay covers a tenth of the run at least, however busy the machine";
    EXPECT_EQ(changed, 0);
  }
}
