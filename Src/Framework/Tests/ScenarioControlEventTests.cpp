// [[Script.events]] of kind "control" (issue 46): a control-channel line kept apart from the other events, checked
// for its keys and its time; a bad one is a config error naming the file, the key and what is wrong.
#include "Framework/ScenarioScript.h"
#include "Tools/Streams/ConfigError.h"
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>

using namespace nao;
using ::testing::HasSubstr;

namespace
{
/// fallfront.toml with `appended` after it, written to a scratch file.
std::filesystem::path scenarioWith(const std::string& appended)
{
  std::ifstream in(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios" / "fallfront.toml");
  std::ostringstream text;
  text << in.rdbuf() << "\n" << appended;
  const auto file =
      std::filesystem::temp_directory_path() / ("nao-control-events-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << text.str();
  return file;
}

std::string loadError(const std::string& appended)
{
  const auto file = scenarioWith(appended);
  try
  {
    ScenarioScript::load(file);
  }
  catch (const std::exception& error)
  {
    std::filesystem::remove(file);
    return error.what();
  }
  std::filesystem::remove(file);
  return "loaded";
}
} // namespace

TEST(ScenarioControlEvents, AreKeptApartSortedByTimeAndCountTowardsTheEnd)
{
  const auto file =
      scenarioWith("[[Script.events]]\ntime = 20.25 # s\nkind = \"control\"\nline = \"press chest 0.2\"\n\n"
                   "[[Script.events]]\ntime = 5.5\nkind = \"control\"\n"
                   "line = \"push 45 0 0 for 0.1 at torso\"\n");
  const ScenarioScript script = ScenarioScript::load(file);
  std::filesystem::remove(file);
  ASSERT_EQ(script.events.size(), 1u); // fallfront's own push
  EXPECT_EQ(script.events[0].kind, ScriptEventKind::push);
  ASSERT_EQ(script.controls.size(), 2u);
  EXPECT_EQ(script.controls[0], (ScriptControlEvent{5.5, "push 45 0 0 for 0.1 at torso"}));
  EXPECT_EQ(script.controls[1], (ScriptControlEvent{20.25, "press chest 0.2"}));
  EXPECT_DOUBLE_EQ(script.scriptedEnd({1.5f}), 20.25);
}

TEST(ScenarioControlEvents, ABadOneNamesTheFileTheKeyAndWhat)
{
  const std::string head = "[[Script.events]]\nkind = \"control\"\n";
  const std::string noLine = loadError(head + "time = 1.0\n");
  EXPECT_THAT(noLine, HasSubstr("nao-control-events-"));
  EXPECT_THAT(noLine, HasSubstr("Script.events[1].line"));
  EXPECT_THAT(noLine, HasSubstr("expected a control line"));
  EXPECT_THAT(loadError(head + "time = 1.0\nline = \"   \"\n"), HasSubstr("expected a control line"));
  const std::string badTime = loadError(head + "time = -1.0\nline = \"pickup\"\n");
  EXPECT_THAT(badTime, HasSubstr("Script.events[1].time"));
  EXPECT_THAT(badTime, HasSubstr("expected s since the start"));
  const std::string extra = loadError(head + "time = 1.0\nline = \"pickup\"\nforce = [1.0, 0.0, 0.0]\n");
  EXPECT_THAT(extra, HasSubstr("Script.events[1].force"));
  EXPECT_THAT(extra, HasSubstr("only time, kind and line"));
}
