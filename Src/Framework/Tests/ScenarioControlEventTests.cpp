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
std::string readFileText(const std::filesystem::path& path)
{
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

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
  EXPECT_THAT(loadError(head + "time = \"soon\"\nline = \"pickup\"\n"), HasSubstr("Script.events[1].time"));
  EXPECT_THAT(loadError(head + "time = 1.0\nline = 5\n"), HasSubstr("Script.events[1].line"));
}

TEST(ScenarioControlEvents, HostileEventListsAreRefusedWithAReason)
{
  // Not tables, a kind that is no string, an inline control event: refused by the archive or taken, never a crash.
  const auto withEvents = [](const std::string& events)
  {
    std::string text = readFileText(std::filesystem::path(NAO_CONFIG_DIR) / "Scenarios" / "fallfront.toml");
    const auto at = text.find("[[Script.events]]");
    text.erase(at, text.find("[[Script.poses]]") - at);
    text.replace(text.find("loopFrom = -1"), 13, "loopFrom = -1\nevents = " + events);
    return text;
  };
  for (const std::string& events : {"3", "[1, \"x\"]", "[{ kind = 5 }]", "[{ kind = \"control\" }]"})
  {
    const auto file = std::filesystem::temp_directory_path() /
                      ("nao-control-hostile-" + std::to_string(::getpid()) + ".toml");
    std::ofstream(file) << withEvents(events);
    try
    {
      ScenarioScript::load(file);
      ADD_FAILURE() << "events = " << events << " loaded";
    }
    catch (const std::exception& error)
    {
      EXPECT_THAT(error.what(), HasSubstr("nao-control-hostile-")) << events;
    }
    std::filesystem::remove(file);
  }
  const auto file =
      std::filesystem::temp_directory_path() / ("nao-control-inline-" + std::to_string(::getpid()) + ".toml");
  std::ofstream(file) << withEvents("[{ time = 1.5, kind = \"control\", line = \"pickup\" }]");
  const ScenarioScript script = ScenarioScript::load(file);
  std::filesystem::remove(file);
  EXPECT_TRUE(script.events.empty());
  ASSERT_EQ(script.controls.size(), 1u);
  EXPECT_EQ(script.controls[0], (ScriptControlEvent{1.5, "pickup"}));
}
