// DebugClient against a running robot binary (the stand-in body, debug channel on a free port): `subscribe` with
// chosen fields prints a header and one row per sample, a mistyped or module name gets a suggestion, `set` takes
// a unit after the number and warns of a time below one motion frame, `health` says every sensor of the stand-in is
// valid (DebugClientHealthTests: one that is not), and --help shows the defaults.
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <filesystem>
#include <gtest/gtest.h>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace nao::test
{
namespace
{
/// One robot binary for every test here, started once (SetUpTestSuite) and stopped at the end.
class DebugClientCommands : public ::testing::Test
{
protected:
  static void SetUpTestSuite()
  {
    folder_ = freshTemporaryFolder("debug-client-commands");
    const CommandResult started = runCommand(
        std::string(NAO_ROBOT_BINARY) + " --body standin --realtime --frames 100000 --debug-port 0 "
                                        "> robot.txt 2>&1 & echo pid=$!; "
                                        "for i in $(seq 100); do grep -q 'debug channel on port' robot.txt "
                                        "&& break; sleep 0.1; done; cat robot.txt",
        folder_.string());
    std::smatch match;
    if (std::regex_search(started.output, match, std::regex("pid=([0-9]+)"))) pid_ = match[1];
    if (std::regex_search(started.output, match, std::regex("debug channel on port ([0-9]+)")))
      port_ = match[1];
  }
  static void TearDownTestSuite()
  {
    if (!pid_.empty())
      runCommand("kill -TERM " + pid_ + "; while kill -0 " + pid_ + " 2>/dev/null; do sleep 0.05; done");
    std::filesystem::remove_all(folder_);
  }
  void SetUp() override { ASSERT_FALSE(port_.empty()) << "the robot binary did not start"; }

  /// `DebugClient <arguments>` against the robot.
  static CommandResult client(const std::string& arguments)
  {
    return runCommand(std::string(NAO_DEBUG_CLIENT_BINARY) + " --port " + port_ + " " + arguments);
  }

  static std::vector<std::string> lines(const std::string& text)
  {
    std::vector<std::string> result;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);)
      result.push_back(line);
    return result;
  }

  static std::vector<std::string> words(const std::string& line)
  {
    std::vector<std::string> result;
    std::istringstream stream(line);
    for (std::string word; stream >> word;)
      result.push_back(word);
    return result;
  }

  static inline std::filesystem::path folder_;
  static inline std::string pid_, port_;
};

TEST_F(DebugClientCommands, SubscribeWithFieldsPrintsAHeaderAndOneRowPerSample)
{
  const CommandResult result =
      client("subscribe JointSensorData currents.LKneePitch 'temperatures.*' --count 3");
  ASSERT_EQ(result.status, 0) << result.output;
  const auto printed = lines(result.output);
  ASSERT_EQ(printed.size(), 4u) << "a header and three rows:\n" << result.output;
  // The header: frame, time and each chosen field with its unit, in the representation's order.
  const std::string& header = printed[0];
  EXPECT_EQ(header.find("frame"), header.find_first_not_of(' ')) << header;
  for (const char* label :
       {"time [s]", "currents.LKneePitch [A]", "temperatures.HeadYaw [°C]", "temperatures.RAnkleRoll [°C]"})
    EXPECT_NE(header.find(label), std::string::npos) << label << " in " << header;
  EXPECT_EQ(header.find("currents.HeadYaw"), std::string::npos) << "only the chosen fields: " << header;
  EXPECT_LT(header.find("currents.LKneePitch"), header.find("temperatures.HeadYaw"));
  std::size_t temperatures = 0;
  for (std::size_t at = header.find("temperatures."); at != std::string::npos;
       at = header.find("temperatures.", at + 1))
    ++temperatures;
  EXPECT_EQ(temperatures, 25u) << "one column per joint";
  // Each row: the frame number, the time and one number per chosen field, growing frame by frame.
  long lastFrame = -1;
  for (std::size_t row = 1; row < printed.size(); ++row)
  {
    const auto values = words(printed[row]);
    ASSERT_EQ(values.size(), 2u + 1u + temperatures) << printed[row];
    for (const std::string& value : values)
      EXPECT_NO_THROW((void)std::stod(value)) << value << " in " << printed[row];
    EXPECT_GT(std::stol(values[0]), lastFrame);
    lastFrame = std::stol(values[0]);
    EXPECT_GT(std::stod(values[3]), 20.0) << "°C, as the header says";
  }

  // A prefix picks every leaf below it; a field that does not exist gets the closest one.
  const CommandResult prefix = client("subscribe JointSensorData currents --count 1");
  ASSERT_EQ(prefix.status, 0) << prefix.output;
  EXPECT_EQ(words(lines(prefix.output).at(1)).size(), 2u + 25u) << prefix.output;
  const CommandResult typo = client("subscribe JointSensorData curents.LKneePitch --count 1");
  EXPECT_EQ(typo.status, 1);
  EXPECT_NE(
      typo.output.find("DebugClient: no field of JointSensorData matches 'curents.LKneePitch' (did you mean "
                       "'currents.LKneePitch'?)"),
      std::string::npos)
      << typo.output;
  // Without fields: every field on a line of its own, as before.
  const CommandResult full = client("subscribe JointSensorData --count 1");
  ASSERT_EQ(full.status, 0) << full.output;
  EXPECT_NE(full.output.find("  currents.LKneePitch [A] = "), std::string::npos) << full.output;
}

TEST_F(DebugClientCommands, AMistypedOrModuleNameGetsASuggestion)
{
  const CommandResult module = client("get StandPoseProvidr");
  EXPECT_EQ(module.status, 1);
  EXPECT_NE(
      module.output.find("DebugClient: 'StandPoseProvidr' is neither a representation nor a module of this "
                         "robot (did you mean 'StandPoseProvider', a module?)"),
      std::string::npos)
      << module.output;
  const CommandResult representation = client("get JointSensorDta");
  EXPECT_EQ(representation.status, 1);
  EXPECT_NE(representation.output.find("(did you mean 'JointSensorData', a representation?)"),
            std::string::npos)
      << representation.output;
  const CommandResult subscribed = client("subscribe StandPoseProvider --count 1");
  EXPECT_EQ(subscribed.status, 1);
  EXPECT_NE(subscribed.output.find("'StandPoseProvider' is a module, not a representation; it provides "
                                   "MotionJointRequest; `get StandPoseProvider` shows its parameters"),
            std::string::npos)
      << subscribed.output;
  const CommandResult nothing = client("get Xyzzy");
  EXPECT_EQ(nothing.status, 1);
  EXPECT_NE(
      nothing.output.find("'Xyzzy' is neither a representation nor a module of this robot; `DebugClient "
                          "list` lists them"),
      std::string::npos)
      << nothing.output;
}

TEST_F(DebugClientCommands, SetTakesAUnitAfterTheNumberAndWarnsOfATimeBelowOneFrame)
{
  const CommandResult seconds = client("set StandPoseProvider transitionTime 0.5s");
  EXPECT_EQ(seconds.status, 0) << seconds.output;
  EXPECT_NE(seconds.output.find("StandPoseProvider.transitionTime: 0.5 s = 500 ms\n"
                                "StandPoseProvider.transitionTime [ms] = 500\n"),
            std::string::npos)
      << seconds.output;
  EXPECT_EQ(seconds.output.find("warning"), std::string::npos) << seconds.output;
  EXPECT_NE(client("get StandPoseProvider").output.find("transitionTime = 500"), std::string::npos);

  const CommandResult angle = client("set StandPoseProvider angles.HeadYaw 0.1rad");
  EXPECT_EQ(angle.status, 0) << angle.output;
  EXPECT_NE(angle.output.find("StandPoseProvider.angles.HeadYaw [deg] = 5.72957795131"), std::string::npos)
      << angle.output;
  ASSERT_EQ(client("set StandPoseProvider angles.HeadYaw 0").status, 0);

  // Another quantity, or a unit where the value has none: refused, nothing changed.
  const CommandResult wrong = client("set StandPoseProvider transitionTime 30deg");
  EXPECT_EQ(wrong.status, 1);
  EXPECT_NE(
      wrong.output.find("DebugClient: set StandPoseProvider.transitionTime: '30deg' is an angle, but this "
                        "value is a time in ms: not converted"),
      std::string::npos)
      << wrong.output;
  const CommandResult unitless = client("set StandPoseProvider stiffnesses.LKneePitch 0.5s");
  EXPECT_EQ(unitless.status, 1);
  EXPECT_NE(unitless.output.find("this value has no unit"), std::string::npos) << unitless.output;
  EXPECT_NE(client("get StandPoseProvider").output.find("transitionTime = 500"), std::string::npos);

  // 0.5 meant as seconds is 0.5 ms: taken, as the file's unit says, with a warning.
  const CommandResult bare = client("set StandPoseProvider transitionTime 0.5");
  EXPECT_EQ(bare.status, 0) << bare.output;
  EXPECT_NE(bare.output.find("StandPoseProvider.transitionTime [ms] = 0.5"), std::string::npos)
      << bare.output;
  EXPECT_NE(
      bare.output.find("DebugClient: warning: StandPoseProvider.transitionTime = 0.5 ms is shorter than one "
                       "motion frame (12 ms)"),
      std::string::npos)
      << bare.output;
  EXPECT_EQ(client("set StandPoseProvider transitionTime 1000").status, 0);
}

TEST_F(DebugClientCommands, HealthSaysEverySensorIsValidOnTheStandIn)
{
  // The stand-in's sensors read noise and agree with each other: nothing to name, and the charge it believes.
  const CommandResult once = client("health");
  ASSERT_EQ(once.status, 0) << once.output;
  EXPECT_TRUE(
      std::regex_search(once.output, std::regex("^SensorHealth frame [0-9]+ t=[0-9.]+ s, 0 changes since "
                                                "the start\nevery sensor valid\nbattery charge [0-9.]+ % "
                                                "\\(what the robot believes\\)\n$")))
      << once.output;
  const CommandResult twice = client("health --count 2 --rate 10");
  ASSERT_EQ(twice.status, 0) << twice.output;
  EXPECT_EQ(lines(twice.output).size(), 6u) << twice.output;
}

TEST(DebugClientHelp, EveryOptionShowsItsDefault)
{
  const std::string binary = NAO_DEBUG_CLIENT_BINARY;
  const CommandResult help = runCommand(binary + " --help");
  EXPECT_EQ(help.status, 0) << help.output;
  // CLI11 writes a default after the option's type: `--port UINT=7070`.
  for (const char* shown : {"--host TEXT=127.0.0.1", "--port UINT=7070", "=0\n"})
    EXPECT_NE(help.output.find(shown), std::string::npos) << shown << " in\n" << help.output;
  const CommandResult subscribe = runCommand(binary + " subscribe --help");
  for (const char* shown : {"--count UINT=1", "fields TEXT=every field, one line each"})
    EXPECT_NE(subscribe.output.find(shown), std::string::npos) << shown << " in\n" << subscribe.output;
  const CommandResult health = runCommand(binary + " health --help");
  for (const char* shown : {"--count UINT=1", "--rate FLOAT=1"})
    EXPECT_NE(health.output.find(shown), std::string::npos) << shown << " in\n" << health.output;

  const CommandResult nao = runCommand(std::string(NAO_ROBOT_BINARY) + " --help");
  EXPECT_EQ(nao.status, 0) << nao.output;
  for (const char* shown : {"=lola\n", "--lola-socket TEXT=/tmp/robocup", "--frames UINT=1000",
                            "--scenario TEXT=scenario of settings.toml", "=debugPort of settings.toml",
                            "=normal priority", "--log TEXT=no log"})
    EXPECT_NE(nao.output.find(shown), std::string::npos) << shown << " in\n" << nao.output;
}
} // namespace
} // namespace nao::test
