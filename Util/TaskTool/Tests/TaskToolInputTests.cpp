// `TaskTool hqp` on bad input: each bad case named by place while the others are still solved (exit code 1), a
// file that cannot be read or parsed (exit code 2), standard input; and the blocks of Util/TaskTool/README.md as
// written, their output compared with what the README shows.
#include "TaskToolRun.h"
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>

using namespace nao::test;
using namespace nao::tasktool::test;
using json = nlohmann::json;
using ::testing::HasSubstr;

namespace
{
/// The build folder (what the README calls Build/Release/).
std::string buildRoot()
{
  const std::string tool = NAO_TASK_TOOL_BINARY;
  return tool.substr(0, tool.size() - std::string("Util/TaskTool/TaskTool").size());
}

std::string readme()
{
  return readFile(sourceDirectory() / "Util/TaskTool/README.md");
}

} // namespace

TEST(TaskTool, BadCasesAreNamedByPlaceAndTheOthersStillSolved)
{
  const std::string good = R"({"id": "good", "n": 1, "levels": [{"A": [[1]], "b": [3]}]})";
  const std::vector<std::pair<std::string, std::string>> bad{
      {R"({"id": 1, "n": 5, "levels": [{}, {"A": [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5], [1, 2, 3, 4]], "b": [1, 2, 3]}]})",
       "cases[1].levels[1].A row 2 has 4 numbers, n is 5"},
      {R"({"id": 2, "n": 1, "levels": [{"C": [[1], [1]], "lo": [0, 3], "hi": [1, 2]}]})",
       "cases[2].levels[0].lo[1] = 3 is above hi[1] = 2"},
      {R"({"id": 3, "levels": []})", "cases[3] has no \"n\""},
      {R"({"id": 4, "n": 2.5, "levels": []})", "cases[4].n is 2.5, not a whole number"},
      {R"({"id": 5, "n": 1, "levels": [{"A": [[1]], "b": ["1"]}]})",
       "cases[5].levels[0].b[0] is \"1\", not a number"},
      {R"({"id": 6, "n": 1, "levels": [{"A": [[1]], "b": [1, 2]}]})",
       "cases[6].levels[0].b has 2 numbers, A has 1 row"},
      {R"({"id": 7, "n": 1, "levels": [{"C": [[1]], "lo": [0]}]})",
       "cases[7].levels[0].hi has 0 numbers, C has 1 row"},
      {R"({"id": 8, "n": 1, "levels": [{"A": [[1e400]], "b": [1]}]})",
       "cases[8].levels[0].A[0][0] is 1e300 or more"},
      {R"({"id": 9, "n": 1, "levels": [{"A": [[1]], "b": [1], "c": []}]})",
       "cases[9].levels[0] has the unknown key \"c\""},
      {R"({"id": 10, "n": 1, "levels": [{"C": [[1]], "lo": [1e300], "hi": [1e300]}]})",
       "cases[10].levels[0].lo[0] is +1e300 or more"},
      {R"({"id": 11, "n": 1})", "cases[11] has no \"levels\""},
      {R"(17)", "cases[12] is 17, not an object"}};
  std::string input = R"({"cases": [)" + good;
  for (const auto& [item, message] : bad)
    input += ",\n" + item;
  input += ",\n" + good + "]}";
  TemporaryFolder folder("tasktool-bad");
  const ToolRun run = taskTool(folder.path, input);
  EXPECT_EQ(run.status, 1);
  ASSERT_EQ(run.lines.size(), bad.size() + 2) << run.errors;
  for (std::size_t i : {std::size_t{0}, bad.size() + 1})
  {
    EXPECT_EQ(run.lines[i]["id"], "good");
    expectAnswer(run.lines[i], {true, vec({3}), {0}}, "a good case among bad ones");
  }
  for (std::size_t i = 0; i < bad.size(); ++i)
  {
    const json& line = run.lines[i + 1];
    EXPECT_EQ(line["id"], i + 1 < bad.size() ? json(i + 1) : json()) << line;
    EXPECT_EQ(line.value("status", ""), "invalidInput") << line;
    EXPECT_THAT(line.value("error", ""), HasSubstr(bad[i].second)) << line;
    EXPECT_FALSE(line.contains("x")) << line;
    EXPECT_THAT(run.errors, HasSubstr("cases.json: " + bad[i].second));
  }
}

TEST(TaskTool, AFileThatCannotBeReadOrParsedIsExitCode2)
{
  TemporaryFolder folder("tasktool-unreadable");
  const ToolRun missing = taskTool(folder.path, "", "no-such.json");
  EXPECT_EQ(missing.status, 2);
  EXPECT_TRUE(missing.lines.empty());
  EXPECT_THAT(missing.errors, HasSubstr("cannot read no-such.json"));
  const ToolRun folderInstead = taskTool(folder.path, "", ".");
  EXPECT_EQ(folderInstead.status, 2);
  EXPECT_THAT(folderInstead.errors, HasSubstr("cannot read ."));
  const ToolRun broken = taskTool(folder.path, "{\"cases\": [\n  {\"id\": 1,, \"n\": 1}]}");
  EXPECT_EQ(broken.status, 2);
  EXPECT_TRUE(broken.lines.empty());
  EXPECT_THAT(broken.errors, HasSubstr("cases.json is not JSON"));
  EXPECT_THAT(broken.errors, HasSubstr("line 2, column 12"));
  for (const char* shape : {"[]", R"({"case": []})", R"({"cases": {}})", R"({"cases": [], "n": 1})"})
  {
    const ToolRun wrong = taskTool(folder.path, shape);
    EXPECT_EQ(wrong.status, 2) << shape;
    EXPECT_THAT(wrong.errors, HasSubstr("must be one object {\"cases\": [...]}")) << shape;
  }
  const ToolRun empty = taskTool(folder.path, R"({"cases": []})");
  EXPECT_EQ(empty.status, 0) << empty.errors;
  EXPECT_TRUE(empty.lines.empty());
  const ToolRun standardInput = taskTool(
      folder.path, R"({"cases": [{"id": 1, "n": 1, "levels": [{"A": [[2]], "b": [1]}]}]})", "- < cases.json");
  EXPECT_EQ(standardInput.status, 0) << standardInput.errors;
  ASSERT_EQ(standardInput.lines.size(), 1u);
  expectAnswer(standardInput.lines[0], {true, vec({0.5}), {0}}, "standard input");
}

TEST(TaskTool, TheReadmeBlocksPrintWhatTheReadmeShows)
{
  for (const char* heading : {"## Example", "## Bad input"})
  {
    const std::string section = markdownSection(readme(), heading);
    const std::vector<std::string> commands = fencedBlocks(section, "sh"),
                                   shown = fencedBlocks(section, "json");
    ASSERT_EQ(commands.size(), 1u) << heading;
    ASSERT_EQ(shown.size(), 1u) << heading;
    std::string script = "set -e\n";
    std::size_t at = 0;
    for (std::size_t next; (next = commands[0].find("Build/Release/", at)) != std::string::npos;
         at = next + 14)
      script += commands[0].substr(at, next - at) + buildRoot();
    script += commands[0].substr(at);
    TemporaryFolder folder("tasktool-readme");
    const CommandResult result = runScript(folder.path, "block.sh", script);
    ASSERT_EQ(result.status, 0) << heading << "\n" << result.output;
    // The lines the README shows, in order, with the numbers to rounding; other lines are standard error.
    std::istringstream expected(shown[0]), printed(result.output);
    std::string want, got;
    while (std::getline(expected, want))
    {
      const json wanted = json::parse(want);
      json line;
      while (std::getline(printed, got) && !(line = json::parse(got, nullptr, false)).is_object())
        ;
      ASSERT_TRUE(line.is_object()) << heading << ": no line for " << want << "\n" << result.output;
      EXPECT_EQ(line["id"], wanted["id"]) << got;
      EXPECT_EQ(line["status"], wanted["status"]) << got;
      EXPECT_EQ(line.value("error", ""), wanted.value("error", "")) << got;
      for (const char* key : {"x", "slackNorms"})
      {
        ASSERT_EQ(line.value(key, json::array()).size(), wanted.value(key, json::array()).size()) << got;
        for (std::size_t j = 0; j < wanted.value(key, json::array()).size(); ++j)
          EXPECT_NEAR(line[key][j].get<double>(), wanted[key][j].get<double>(), 1e-9) << key << " of " << got;
      }
    }
    if (std::string(heading) == "## Bad input")
    {
      EXPECT_THAT(result.output, HasSubstr("exit code 1"));
      EXPECT_THAT(result.output, HasSubstr("TaskTool hqp: standard input: cases[0].levels[0].A row 0"));
    }
  }
}
