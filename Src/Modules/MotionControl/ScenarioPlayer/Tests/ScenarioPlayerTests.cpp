// The scenario player against the stand-in body, and every scenario file of Config/Scenarios.
#include "Framework/Robot.h"
#include "Framework/ScenarioScript.h"
#include "Platform/StandIn/StandInBody.h"
#include <cmath>
#include <fstream>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;

namespace
{
constexpr double degree = std::numbers::pi / 180.0;

/// Runs `scenario` against the stand-in body and calls `check` after every frame.
template<class Check>
void run(const std::string& scenario, std::uint32_t frames, Check check,
         std::vector<ProviderChoice> overrides = {})
{
  StandInBody::Options bodyOptions;
  bodyOptions.frames = frames;
  StandInBody body(bodyOptions);
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = scenario;
  options.providerOverrides = std::move(overrides);
  Robot robot(body, options);
  while (robot.motion().runFrame())
    check(robot.blackboard().get<FrameInfo>().time, robot.blackboard().get<MotionJointRequest>(),
          robot.blackboard().get<JointRequest>());
}
} // namespace

TEST(Scenarios, EveryScenarioFileStartsAndItsScriptLoads)
{
  std::vector<std::string> visited;
  std::size_t scripts = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios"))
  {
    const std::string name = entry.path().stem().string();
    if (name == "default") continue; // the [Motion] table the scenarios overlay, not a scenario
    visited.push_back(name);
    SCOPED_TRACE(name);
    EXPECT_NO_THROW(run(name, 5, [](double, const auto&, const auto&) {}));
    const Scenario scenario = Scenario::load(entry.path());
    const bool playsScript =
        std::any_of(scenario.motion.begin(), scenario.motion.end(),
                    [](const ProviderChoice& c) { return c.provider == "ScenarioPlayer"; });
    if (playsScript)
    {
      ++scripts;
      EXPECT_NO_THROW(ScenarioScript::load(entry.path()));
    }
  }
  // The walk must have met the scenarios the README and the simulator tests name (a loop that skips files, or a
  // wrong folder, would pass without them).
  for (const char* known : {"standin", "stand", "highstand", "sit", "armexample", "stepping", "lifted"})
    EXPECT_NE(std::find(visited.begin(), visited.end(), known), visited.end()) << known << " not visited";
  EXPECT_EQ(visited.size(), 23u) << "Config/Scenarios/ holds 23 scenarios besides default.toml";
  EXPECT_GE(scripts, 4u) << "scenarios that play a script";
}

TEST(ScenarioPlayer, ArmExampleAtHalfMaximumSpeedClippedToTheJointRange)
{
  // Independent timing: the largest move of Init -> Final relative to its joint's speed limit (URDF,
  // Docs/NaoFacts.md §15) is LElbowRoll, -60° -> -150° (unclipped, as NAOqi times it) at 7.19407 rad/s.
  // Smoothstep peaks at 1.5 x its mean speed, so at half maximum speed the move takes
  // 1.5 * (90° / 7.19407 rad/s) / 0.5.
  const double transition = 1.5 * (90 * degree / 7.19407) / 0.5;
  const double finalStarts = 0.5 + 1.0; // first keyframe: 0.5 s to armInit, held 1 s
  bool sawStart = false, sawMiddle = false, sawEnd = false;
  run("armexample", static_cast<std::uint32_t>((finalStarts + transition + 0.5) / 0.012),
      [&](double t, const auto& motion, const auto&)
      {
        if (t == 0)
        {
          // The stand-in body starts with all joints at 0: the first request is the measured posture, no
          // jump.
          EXPECT_NEAR(motion.angles[Joint::LShoulderPitch], 0.f, 1e-6);
          sawStart = true;
        }
        if (std::abs(t - (finalStarts + transition / 2)) < 0.006)
        {
          EXPECT_NEAR(motion.angles[Joint::LShoulderPitch], 65 * degree, 0.6 * degree)
              << "halfway from 80° to 50°";
          sawMiddle = true;
        }
        if (t > finalStarts + transition + 0.05)
        {
          EXPECT_NEAR(motion.angles[Joint::LShoulderPitch], 50 * degree, 1e-5);
          EXPECT_NEAR(motion.angles[Joint::LElbowRoll], -88.5 * degree, 0.05 * degree)
              << "-150° clipped to the range";
          EXPECT_NEAR(motion.angles[Joint::RShoulderPitch], 90 * degree, 1e-5);
          EXPECT_EQ(motion.stiffnesses[Joint::LElbowRoll], 1.f);
          sawEnd = true;
        }
      });
  EXPECT_TRUE(sawStart && sawMiddle && sawEnd);
}

TEST(ScenarioPlayer, StagesOffPassTheRequestThroughToTheBody)
{
  bool checked = false;
  run("stand", 200,
      [&](double t, const auto& motion, const JointRequest& final)
      {
        if (t > 1.6) // risen from the crouch in 1.5 s
        {
          EXPECT_NEAR(final.angles[Joint::LKneePitch], 48.03 * degree, 1e-5);
          EXPECT_EQ(final.angles[Joint::LKneePitch], motion.angles[Joint::LKneePitch]);
          checked = true;
        }
      },
      {{"JointRequest", "off", {}}, {"EnergySaving", "off", {}}});
  EXPECT_TRUE(checked);
}

TEST(ScenarioPlayer, WithoutAScriptStartUpNamesTheModuleAndTheFile)
{
  // standin has no [Script]: asking the player for its motion stops start-up with the module and the file.
  try
  {
    run("standin", 1, [](double, const auto&, const auto&) {},
        {{"MotionJointRequest", "ScenarioPlayer", {}}});
    FAIL() << "expected an error";
  }
  catch (const StartupError& error)
  {
    const std::string text = error.what();
    EXPECT_NE(text.find("module 'ScenarioPlayer'"), std::string::npos) << text;
    EXPECT_NE(text.find("standin.toml: the scenario has no [Script] table"), std::string::npos) << text;
  }
}

TEST(ScenarioScript, ErrorsNameTheFileAndTheProblem)
{
  const auto file = std::filesystem::temp_directory_path() / "nao-script-test.toml";
  std::ofstream(file)
      << "[Script]\nstart = \"nowhere\"\nloopFrom = -1\nposes = []\nkeyframes = []\nevents = []\n";
  try
  {
    ScenarioScript::load(file);
    FAIL();
  }
  catch (const std::exception& error)
  {
    EXPECT_NE(std::string(error.what()).find("no keyframes"), std::string::npos) << error.what();
  }
  std::filesystem::remove(file);
}
