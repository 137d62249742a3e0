// Docs/Results/ holds tables of measured figures, each written by the command that measured it and headed by that
// command (Docs/Results/README.md): the simulator (Build/Release/...) or a script of Make/. The long runs are commands
// of their own; what this test checks on every Make/test is that each file could be written again: its header command
// still parses (`--parse-only` runs nothing) and writes the file itself, the file's tables have exactly the columns
// the command writes now, and the folder's README lists it with the same command.
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <set>
#include <sstream>

using namespace nao::test;

namespace
{
const std::string simulatorBinary = NAO_SIMULATOR_BINARY;
const std::string documentedBinary = "Build/Release/Util/Simulator/App/Simulator";

std::vector<std::string> linesOf(const std::string& text)
{
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// The words of `lines`, sorted: a text table wraps its column labels to the width of its values, so which line a
/// label's word lands on depends on the results; which words there are does not.
std::string wordsOf(const std::vector<std::string>& lines)
{
  std::vector<std::string> words;
  for (const std::string& line : lines)
  {
    std::istringstream in(line);
    for (std::string word; in >> word;)
      words.push_back(word);
  }
  std::sort(words.begin(), words.end());
  std::string text;
  for (const std::string& word : words)
    text += word + " ";
  return text;
}

/// What identifies a file's tables: each Markdown table's header row (the row above its `| ---` line), and the
/// words of the header lines of each fenced text table (as many lines as `headerLines` says).
std::multiset<std::string> tableHeaders(const std::string& markdown, std::size_t headerLines)
{
  std::multiset<std::string> headers;
  const std::vector<std::string> lines = linesOf(markdown);
  for (std::size_t k = 0; k + 1 < lines.size(); ++k)
    if (lines[k].starts_with("|") && lines[k + 1].starts_with("| -")) headers.insert(lines[k]);
  for (const std::string& block : fencedBlocks(markdown, "text"))
  {
    std::vector<std::string> fenced = linesOf(block);
    fenced.resize(std::min(headerLines, fenced.size()));
    headers.insert(wordsOf(fenced));
  }
  return headers;
}

/// Lines in a fenced text table of `markdown` (the longest such block): all of it a header when it has no results.
std::size_t textHeaderLines(const std::string& markdown)
{
  std::size_t lines = 0;
  for (const std::string& block : fencedBlocks(markdown, "text"))
    lines = std::max(lines, linesOf(block).size());
  return lines;
}

/// The command line that parses `command` (a header's, as written, from the repository's root) with `--parse-only`:
/// this build's simulator for the documented binary, the source tree's script for `Make/<script>`; empty for any
/// other command.
std::string parseOnlyCommand(const std::string& command)
{
  if (command.starts_with(documentedBinary + " "))
    return simulatorBinary + command.substr(documentedBinary.size()) + " --parse-only";
  const std::string script = command.substr(0, command.find(' '));
  if (!script.starts_with("Make/") || script.size() == 5 ||
      script.find_first_not_of("abcdefghijklmnopqrstuvwxyz-", 5) != std::string::npos ||
      !std::filesystem::is_regular_file(sourceDirectory() / script))
    return "";
  return (sourceDirectory() / script).string() + command.substr(script.size()) + " --parse-only";
}

struct ResultsFile
{
  std::filesystem::path path;
  std::string text;
  std::string command; ///< the header's command, as written (Build/Release/... from the repository's root)
};

std::vector<ResultsFile> resultsFiles()
{
  std::vector<ResultsFile> files;
  for (const auto& entry : std::filesystem::directory_iterator(sourceDirectory() / "Docs/Results"))
  {
    if (entry.path().extension() != ".md" || entry.path().filename() == "README.md") continue;
    ResultsFile file{entry.path(), readFile(entry.path()), ""};
    const std::string first = linesOf(file.text).empty() ? "" : linesOf(file.text).front();
    const std::string prefix = "Written by `", suffix = "`.";
    if (first.starts_with(prefix) && first.ends_with(suffix))
      file.command = first.substr(prefix.size(), first.size() - prefix.size() - suffix.size());
    files.push_back(file);
  }
  std::sort(files.begin(), files.end(),
            [](const ResultsFile& a, const ResultsFile& b) { return a.path < b.path; });
  return files;
}
} // namespace

TEST(ResultsFiles, EachIsHeadedByTheCommandThatWritesItAndHasItsColumns)
{
  const std::vector<ResultsFile> files = resultsFiles();
  ASSERT_GE(files.size(), 5u) << "the fault matrix, the Stack of Tasks' scenarios, the harm matrix, the heat "
                                 "adjustment's ensembles, the fall tables, the benchmarks";
  for (const ResultsFile& file : files)
  {
    SCOPED_TRACE(file.path.string());
    const std::string parseOnly = parseOnlyCommand(file.command);
    ASSERT_FALSE(parseOnly.empty()) << "the first line names the command: Written by `" << documentedBinary
                                    << " ...`. or Written by `Make/<script> ...`.";
    const std::string name = "Docs/Results/" + file.path.filename().string();
    EXPECT_NE((file.command + " ").find(" --markdown " + name + " "), std::string::npos)
        << "the command writes this file";
    const CommandResult parsed = runCommand(parseOnly, sourceDirectory().string());
    ASSERT_EQ(parsed.status, 0) << parsed.output;
    const std::size_t headerLines = textHeaderLines(parsed.output);
    const std::multiset<std::string> written = tableHeaders(parsed.output, headerLines);
    ASSERT_FALSE(written.empty()) << "the command writes tables:\n" << parsed.output;
    EXPECT_EQ(tableHeaders(file.text, headerLines), written)
        << "the file's tables against what the command writes now; run its command again:\n"
        << parsed.output;
  }
}

TEST(ResultsFiles, TheFoldersReadmeListsEachWithItsCommand)
{
  const std::string readme = readFile(sourceDirectory() / "Docs/Results/README.md");
  for (const ResultsFile& file : resultsFiles())
  {
    const std::string row = "| `" + file.path.filename().string() + "` |";
    const std::size_t at = readme.find(row);
    ASSERT_NE(at, std::string::npos) << file.path.filename() << " is listed";
    const std::string line = readme.substr(at, readme.find('\n', at) - at);
    EXPECT_TRUE(line.ends_with("| `" + file.command + "` |")) << line;
  }
}

TEST(ResultsFiles, AHeaderTheCommandDoesNotWriteIsFound)
{
  // The check itself: a table whose columns the command no longer writes, and one it writes but the file lacks.
  const std::string written = "| a | b |\n| --- | --- |\n\n```text\nrobot  x\n  [mA]\n```\n";
  EXPECT_EQ(tableHeaders(written, 2),
            tableHeaders("| a | b |\n| --- | ---: |\n| 1 | 2 |\n\n```text\nrobot   x\n"
                         "     [mA]\nseed 1  3\n```\n",
                         2));
  EXPECT_NE(tableHeaders(written, 2),
            tableHeaders("| a | c |\n| --- | --- |\n```text\nrobot x\n[mA]\n```\n", 2));
  EXPECT_NE(tableHeaders(written, 2), tableHeaders("| a | b |\n| --- | --- |\n", 2));
  EXPECT_EQ(tableHeaders("```text\n  worst\nrobot  leg  [mA]\n```\n", 2),
            tableHeaders("```text\n      worst leg\nrobot     [mA]\nseed 1  3\n```\n", 2))
      << "a text table's labels wrapped to the width of other values";
  const CommandResult unknown = runCommand(simulatorBinary + " matrix stand --no-such-option --parse-only");
  EXPECT_NE(unknown.status, 0) << "an option the command no longer has fails the parse";
  // A script of Make/ is parsed the same way; a script that is not there, or any other command, is no header.
  const std::string script = parseOnlyCommand("Make/benchmarks --no-such-option");
  ASSERT_EQ(script, (sourceDirectory() / "Make/benchmarks").string() + " --no-such-option --parse-only");
  const CommandResult unknownOfScript = runCommand(script, sourceDirectory().string());
  EXPECT_NE(unknownOfScript.status, 0) << unknownOfScript.output;
  EXPECT_NE(unknownOfScript.output.find("unrecognized arguments: --no-such-option"), std::string::npos)
      << unknownOfScript.output;
  EXPECT_EQ(parseOnlyCommand("Make/no-such-script --markdown Docs/Results/X.md"), "");
  EXPECT_EQ(parseOnlyCommand("Make/../Make/benchmarks --markdown Docs/Results/X.md"), "");
  EXPECT_EQ(parseOnlyCommand("Build/Release/Util/LogTool/LogTool --markdown Docs/Results/X.md"), "");
}
