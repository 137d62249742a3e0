// Scenario files: positions in errors, and the shared [Motion] table of default.toml overlaid per key; a script's
// transition times and the moment everything it scripts has happened.
#include "Framework/ConfigFiles.h"
#include "Framework/Scenario.h"
#include "Framework/ScenarioScript.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao;
using ::testing::AllOf;
using ::testing::HasSubstr;

namespace
{
struct ScenarioFolder : ::testing::Test
{
  std::filesystem::path directory = std::filesystem::temp_directory_path() / "nao-scenario-tests";
  void SetUp() override
  {
    std::filesystem::remove_all(directory);
    std::filesystem::create_directories(directory);
  }
  void TearDown() override { std::filesystem::remove_all(directory); }
  std::filesystem::path write(const std::string& name, const std::string& text)
  {
    const auto file = directory / (name + ".toml");
    std::ofstream(file) << text;
    return file;
  }
  std::string errorOf(const std::filesystem::path& file)
  {
    try
    {
      Scenario::load(file);
    }
    catch (const StartupError& error)
    {
      return error.what();
    }
    return "(no error)";
  }
};

std::vector<std::pair<std::string, std::string>> pairs(const Scenario& scenario)
{
  std::vector<std::pair<std::string, std::string>> result;
  for (const ProviderChoice& choice : scenario.motion)
    result.emplace_back(choice.representation, choice.provider);
  return result;
}
} // namespace

TEST_F(ScenarioFolder, FileErrorsCarryLineAndColumn)
{
  const auto file = write("errors", "[Motion]\nRepA = \"ModA\"\nRepB = 3\n");
  EXPECT_THAT(errorOf(file), AllOf(HasSubstr(file.string() + ":3:8"), HasSubstr("'RepB' must be a string")));
  write("errors", "[Motion]\nRepA = \"ModA\"\n[Cognition]\nRepB = \"ModB\"\n");
  EXPECT_THAT(errorOf(file),
              AllOf(HasSubstr(":3:1"), HasSubstr("unknown table 'Cognition'"), HasSubstr("[Script]")));
  write("errors", "[Motion]\nRepA = \"ModA\"\nRepB = \"ModB\"\n[Log]\nrepresentations = [\"RepA\"]\n");
  const Scenario scenario = Scenario::load(file);
  ASSERT_EQ(scenario.motion.size(), 2u);
  EXPECT_EQ(scenario.motion[1].representation, "RepB");
  EXPECT_EQ(scenario.motion[1].where.line, 3);
  EXPECT_EQ(scenario.logged, std::vector<std::string>{"RepA"});
  EXPECT_EQ(scenario.file, file);
}

TEST_F(ScenarioFolder, DefaultMotionIsOverlaidPerKeyInTheDefaultsOrder)
{
  const auto defaults =
      write("default", "[Motion]\nRepA = \"ModA\"\nRepB = \"ModB\"\nRepC = \"ModCProvider\"\n");
  const auto file = write("mine", "[Motion]\nRepD = \"ModC\"\nRepB = \"off\"\nRepC = \"none\"\n");
  const Scenario scenario = Scenario::load(file);
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(pairs(scenario), (Pairs{{"RepA", "ModA"}, {"RepB", "off"}, {"RepD", "ModC"}}));
  // Each choice keeps the position of the file it came from, for error messages.
  EXPECT_EQ(scenario.motion[0].where.file, defaults.string());
  EXPECT_EQ(scenario.motion[1].where.file, file.string());
  EXPECT_EQ(scenario.motion[1].where.line, 3);

  const Scenario plain = Scenario::load(write("plain", "[Log]\nrepresentations = []\n"));
  EXPECT_EQ(pairs(plain), (Pairs{{"RepA", "ModA"}, {"RepB", "ModB"}, {"RepC", "ModCProvider"}}));
}

TEST_F(ScenarioFolder, DefaultIsNoScenarioAndNoneMustDropSomething)
{
  const auto defaults = write("default", "[Motion]\nRepA = \"ModA\"\n");
  EXPECT_THAT(errorOf(defaults), HasSubstr("not a scenario"));
  EXPECT_THAT(errorOf(write("typo", "[Motion]\nRepZ = \"none\"\n")),
              AllOf(HasSubstr("typo.toml:2:8"), HasSubstr("'RepZ'"), HasSubstr("names no provider for it")));
  write("default", "[Motion]\nRepA = \"ModA\"\n[Log]\nrepresentations = []\n");
  EXPECT_THAT(errorOf(write("any", "")), AllOf(HasSubstr("default.toml:3:1"), HasSubstr("only holds")));
}

TEST_F(ScenarioFolder, OverridesReplaceOrAdd)
{
  Scenario scenario = Scenario::load(write("mine", "[Motion]\nRepA = \"ModA\"\nRepB = \"ModB\"\n"));
  scenario.override({{"RepB", "off", {"--provider", 1, 1}}, {"RepC", "ModCProvider", {"--provider", 1, 1}}});
  using Pairs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(pairs(scenario), (Pairs{{"RepA", "ModA"}, {"RepB", "off"}, {"RepC", "ModCProvider"}}));
}

namespace
{
/// Two postures 90° apart in the head's yaw; keyframes between them.
ScenarioScript twoPostureScript(int loopFrom)
{
  ScenarioScript script;
  script.start = "a";
  script.loopFrom = loopFrom;
  script.poses = {{"a", {}}, {"b", {}}};
  script.poses[1].angles[index(Joint::HeadYaw)] = 1.5707964f;
  ScriptKeyframe there;
  there.pose = "b";
  there.duration = 2.f;
  there.hold = 3.f;
  ScriptKeyframe back = there;
  back.pose = "a";
  back.speed = 0.5f; // half of HeadYaw's 1 rad/s below: 1.5 × (π/2) / 0.5 s
  back.hold = 86400.f;
  script.keyframes = {there, back};
  return script;
}
} // namespace

TEST(ScenarioScriptTiming, TransitionTimesComeFromDurationsOrSpeeds)
{
  JointArray<double> limits{};
  limits[index(Joint::HeadYaw)] = 1.0; // rad/s; every other joint unlimited (it does not move here anyway)
  const std::vector<float> times = twoPostureScript(-1).transitionTimes(limits);
  ASSERT_EQ(times.size(), 2u);
  EXPECT_FLOAT_EQ(times[0], 2.f);
  EXPECT_NEAR(times[1], 1.5 * 1.5707964 / 0.5, 1e-5);
}

TEST(ScenarioScriptTiming, TheScriptEndsWithItsLastEventOrKeyframe)
{
  ScenarioScript script = twoPostureScript(-1);
  // Without a loop the last posture's hold is open-ended: the script has happened when it is reached.
  EXPECT_DOUBLE_EQ(script.scriptedEnd({2.f, 4.f}), 2.0 + 3.0 + 4.0);
  // With a loop, one pass through every hold.
  script.loopFrom = 0;
  EXPECT_DOUBLE_EQ(script.scriptedEnd({2.f, 4.f}), 2.0 + 3.0 + 4.0 + 86400.0);
  script.loopFrom = -1;
  ScriptEvent putDown;
  putDown.time = 40.f;
  putDown.kind = ScriptEventKind::putDown;
  putDown.duration = 0.f;
  script.events = {putDown};
  EXPECT_DOUBLE_EQ(script.scriptedEnd({2.f, 4.f}), 40.0);
  ScriptEvent push;
  push.time = 50.f;
  push.kind = ScriptEventKind::push;
  push.duration = 0.15f;
  script.events.push_back(push);
  EXPECT_NEAR(script.scriptedEnd({2.f, 4.f}), 50.15, 1e-6);
}

TEST(ConfigFileErrors, AMissingRobotFileIsNamedOnceAndAsFileLineColumn)
{
  const std::filesystem::path config = NAO_CONFIG_DIR;
  const auto errorOf = [&](const std::string& robot)
  {
    try
    {
      ConfigFiles{{config, robot}, {}}.robotFile("nosuch.toml");
    }
    catch (const StartupError& error)
    {
      return std::string(error.what());
    }
    return std::string();
  };
  const std::string own = (config / "Robots" / "Default" / "nosuch.toml").string();
  EXPECT_EQ(errorOf("Default"), own + ":1:1: cannot read: no such file") << "not 'neither X nor X'";
  EXPECT_EQ(errorOf("Nao01"), (config / "Robots" / "Nao01" / "nosuch.toml").string() +
                                  ":1:1: cannot read: no such file (nor is there " + own + ")");
}

TEST(ConfigFileErrors, AScenarioThatIsALoopOfLinksSaysSo)
{
  const auto folder =
      std::filesystem::temp_directory_path() / ("nao-scenario-loop-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  std::filesystem::create_symlink(folder / "b.toml", folder / "a.toml");
  std::filesystem::create_symlink(folder / "a.toml", folder / "b.toml");
  std::string message;
  try
  {
    Scenario::load(folder / "a.toml");
  }
  catch (const StartupError& error)
  {
    message = error.what();
  }
  std::filesystem::remove_all(folder);
  EXPECT_EQ(message, (folder / "a.toml").string() + ":1:1: cannot read: a loop of symbolic links");
}

TEST_F(ScenarioFolder, TheStartChargeOfTheBatteryIsAnOptionalKeyWithin0And1)
{
  const std::string script = "[Script]\nstart = \"a\"\nloopFrom = -1\n%\nevents = []\n"
                             "[[Script.poses]]\nname = \"a\"\nangles = {}\n"
                             "[[Script.keyframes]]\npose = \"a\"\nduration = 1.0\nspeed = 0.0\nhold = 1.0\n"
                             "stiffness = 1.0\nenergySaving = \"off\"\njitter = 0.0\n";
  const auto with = [&](const std::string& line)
  {
    std::string text = script;
    text.replace(text.find('%'), 1, line);
    return text;
  };
  // Every joint's angle is required: a posture of zeros.
  std::string zeros = "{ ";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    zeros += std::string(j ? ", " : "") + std::string(jointNames[j]) + " = 0";
  zeros += " }";
  const auto file = [&](const std::string& name, std::string text)
  {
    text.replace(text.find("{}"), 2, zeros);
    return write(name, text);
  };
  EXPECT_FLOAT_EQ(ScenarioScript::load(file("without", with(""))).batteryCharge, -1.f)
      << "the simulator's own";
  EXPECT_FLOAT_EQ(ScenarioScript::load(file("low", with("batteryCharge = 0.102"))).batteryCharge, 0.102f);
  EXPECT_FLOAT_EQ(ScenarioScript::load(file("empty", with("batteryCharge = 0"))).batteryCharge, 0.f);
  for (const char* bad :
       {"batteryCharge = 1.5", "batteryCharge = -0.1", "batteryCharge = nan", "batteryCharge = \"full\""})
  {
    std::string message;
    try
    {
      ScenarioScript::load(file("bad", with(bad)));
    }
    catch (const std::exception& error)
    {
      message = error.what();
    }
    EXPECT_THAT(message,
                AllOf(HasSubstr("bad.toml:4:"), HasSubstr("Script.batteryCharge"), HasSubstr("0..1")))
        << bad;
  }
}

TEST_F(ScenarioFolder, TheTargetsAreAnOptionalListInTimeOrderWithPointsInMillimetres)
{
  std::string zeros = "{ ";
  for (std::size_t j = 0; j < numOfJoints; ++j)
    zeros += std::string(j ? ", " : "") + std::string(jointNames[j]) + " = 0";
  zeros += " }";
  const std::string script = "[Script]\nstart = \"a\"\nloopFrom = -1\nevents = []\n"
                             "[[Script.poses]]\nname = \"a\"\nangles = " +
                             zeros +
                             "\n[[Script.keyframes]]\npose = \"a\"\nduration = 1.0\nspeed = 0.0\nhold = 1.0\n"
                             "stiffness = 1.0\nenergySaving = \"off\"\njitter = 0.0\n";
  const auto target = [](const std::string& time, const std::string& task, const std::string& point)
  {
    return "[[Script.targets]]\ntime = " + time + "\ntask = \"" + task + "\"\npoint = [" + point +
           "]\nactive = true\n";
  };

  EXPECT_TRUE(ScenarioScript::load(write("none", script)).targets.empty());
  EXPECT_TRUE(ScenarioTargets::load(ConfigFiles{}).targets.empty()) << "a module graph made in code has none";
  const ScenarioScript two =
      ScenarioScript::load(write("two", script + target("2.0", "rightHand", "150.0, -100.0, 250.0") +
                                            target("3.0", "lookAt", "0, 0, 0")));
  ASSERT_EQ(two.targets.size(), 2u);
  EXPECT_EQ(two.targets[0].task, ScriptTask::rightHand);
  EXPECT_FLOAT_EQ(two.targets[0].time, 2.f);
  EXPECT_FLOAT_EQ(two.targets[0].point[0], 0.15f);
  EXPECT_FLOAT_EQ(two.targets[0].point[1], -0.1f);
  EXPECT_FLOAT_EQ(two.targets[0].point[2], 0.25f);
  EXPECT_TRUE(two.targets[0].active);
  EXPECT_DOUBLE_EQ(two.scriptedEnd({1.f}), 3.0) << "the last target's time, after the keyframes' 2 s";

  for (const auto& [name, bad, expected] :
       {std::tuple{"order", target("3.0", "leftHand", "0, 0, 0") + target("2.0", "leftHand", "0, 0, 0"),
                   "targets must be in time order"},
        std::tuple{"task", target("1.0", "nose", "0, 0, 0"), "task"},
        std::tuple{"range", target("1.0", "leftHand", "6000.0, 0, 0"), "point"}})
  {
    std::string message;
    try
    {
      ScenarioScript::load(write(name, script + bad));
    }
    catch (const std::exception& error)
    {
      message = error.what();
    }
    EXPECT_THAT(message, AllOf(HasSubstr(std::string(name) + ".toml"), HasSubstr(expected))) << name;
  }
}
