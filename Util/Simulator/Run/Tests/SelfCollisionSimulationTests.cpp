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
#include "Util/Simulator/Run/SimulationRun.h"
#include "Util/Simulator/Run/Tests/SimulationTestSupport.h"

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
  // 0.12 min = 7.2 s: the scripts end after 6-7 s.
  SimulationOptions options = test::testRunOptions(
      scenario, 0.12, seed, "nao-selfcollision-" + scenario + (on ? "-on-" : "-off-") + std::to_string(seed));
  if (!on) options.providerOverrides = {{"CollisionFreeJointRequest", "off", {}}};
  const SimulationResult result = runSimulation(options);
  EXPECT_EQ(result.positionsOutOfRange, 0u)
      << scenario << (on ? " on" : " off") << ": every Position sent over LoLA lies within the URDF's limits";

  // The judge: every pair's distance at the measured posture (limp input: the module's reference is then the
  // measurement itself, and with nothing protected it changes nothing).
  SelfCollisionParameters judgeParameters;
  judgeParameters.protection = {false, false, false, false, false, false};
  ModuleHarness<SelfCollisionProvider> judge(judgeParameters);
  judge.input<FallSafeJointRequest>().stiffnesses.fill(0.f);
  Outcome outcome;
  // s, mm: for the README's plot (Util/Simulator/Docs/self-collision-comparison.png).
  std::ofstream csv(options.outputDirectory / "distance.csv");
  csv << "time [s],smallest pair distance [mm]\n";
  for (const JointArray<float>& angles : test::framesOf<JointSensorData>(
           result.log, [](const JointSensorData& joints) { return joints.angles; }))
  {
    judge.input<JointSensorData>().angles = angles;
    judge.input<FallSafeJointRequest>().angles = angles;
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
