// Every module with parameters documents them in its folder's README.md: a "## Parameters" section with the command
// that prints the table and the table it prints. The command is run as written (with this build's path for
// `Build/Release/`), and a table that differs from what it prints now fails, naming the README and the field.
#include "Framework/Module.h"
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/RunCommand.h"
#include "Tools/Testing/SourceTree.h"
#include <filesystem>
#include <gtest/gtest.h>
#include <map>
#include <sstream>

using namespace nao;
using namespace nao::test;

namespace
{
const std::string documentedBinary = "Build/Release/Util/ParameterTable/ParameterTable";

/// The rows of the Markdown table in `text` (lines starting with '|'), by their first cell (the field's name);
/// `order` gets the names in order.
std::map<std::string, std::string> tableRows(const std::string& text, std::vector<std::string>& order)
{
  std::map<std::string, std::string> rows;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
  {
    if (!line.starts_with("|")) continue;
    const std::size_t end = line.find(" |", 1);
    const std::string name = line.substr(2, end == std::string::npos ? std::string::npos : end - 2);
    rows[name] = line;
    order.push_back(name);
  }
  return rows;
}

/// The module's README: beside the .cpp that holds MAKE_MODULE (a path relative to the checkout).
std::filesystem::path readmeOf(const ModuleInfo& module)
{
  const std::filesystem::path file(module.file);
  return (file.is_absolute() ? file : sourceDirectory() / file).parent_path() / "README.md";
}

/// One module's README: its "## Parameters" section, its command, and the table that command prints now.
void checkReadme(const ModuleInfo& module)
{
  const std::string binary = NAO_PARAMETER_TABLE_BINARY;
  const std::filesystem::path readme = readmeOf(module);
  const std::string shown = std::filesystem::relative(readme, sourceDirectory()).string();
  ASSERT_TRUE(std::filesystem::exists(readme)) << module.name << " has parameters but no " << shown;
  const std::string section = markdownSection(readFile(readme), "## Parameters");
  ASSERT_FALSE(section.empty()) << shown << " has no \"## Parameters\" section";
  const std::vector<std::string> blocks = fencedBlocks(section, "sh");
  ASSERT_EQ(blocks.size(), 1u) << shown
                               << ": \"## Parameters\" shows one sh block, the command that prints the table";
  const std::string command = documentedBinary + " " + module.name;
  ASSERT_EQ(blocks[0], command + "\n") << shown << ": the command is not " << command;

  const CommandResult result = runCommand(binary + command.substr(documentedBinary.size()));
  ASSERT_EQ(result.status, 0) << shown << ": " << command << "\n" << result.output;
  std::vector<std::string> printedOrder, readmeOrder;
  const auto printed = tableRows(result.output, printedOrder);
  const auto written = tableRows(section, readmeOrder);
  for (const std::string& name : printedOrder)
  {
    const auto found = written.find(name);
    if (found == written.end())
      ADD_FAILURE() << shown << ": field '" << name << "' is missing from the table; " << command
                    << " prints:\n"
                    << printed.at(name);
    else
      EXPECT_EQ(found->second, printed.at(name))
          << shown << ": field '" << name << "' differs (README first, "
          << "then what the command prints; regenerate with " << command << ")";
  }
  for (const std::string& name : readmeOrder)
    EXPECT_TRUE(printed.contains(name))
        << shown << ": field '" << name << "' is in the table but not a parameter";
  EXPECT_EQ(readmeOrder, printedOrder) << shown << ": the rows are not in the command's order";
}
} // namespace

TEST(ParameterTable, EveryModuleReadmeHasTheTableItsCommandPrints)
{
  std::size_t checked = 0;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
  {
    if (!module->parameters) continue;
    checkReadme(*module); // a failure names the README and goes on with the next module
    ++checked;
  }
  EXPECT_GE(checked, 8u) << "hardly any module with parameters was found";
}

TEST(ParameterTable, AnUnknownModuleIsRefusedByName)
{
  const CommandResult result = runCommand(std::string(NAO_PARAMETER_TABLE_BINARY) + " NoSuchProvider");
  EXPECT_NE(result.status, 0);
  EXPECT_NE(result.output.find("no module 'NoSuchProvider'"), std::string::npos) << result.output;
}
