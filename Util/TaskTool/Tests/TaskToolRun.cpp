// Running `TaskTool hqp` in a test and checking its answers (TaskToolRun.h).
#include "TaskToolRun.h"
#include "Tools/Testing/Files.h"
#include "Tools/Testing/RunCommand.h"
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using json = nlohmann::json;

namespace nao::tasktool::test
{
/// TaskTool hqp on `input` written to a file of `folder` (or on `arguments` instead of that file when given).
ToolRun taskTool(const std::filesystem::path& folder, const std::string& input, const std::string& arguments)
{
  std::ofstream(folder / "cases.json") << input;
  const nao::test::CommandResult result =
      nao::test::runCommand(std::string(NAO_TASK_TOOL_BINARY) + " hqp " +
                                (arguments.empty() ? "cases.json" : arguments) + " 2> errors.txt",
                            folder.string());
  ToolRun run{result.status, {}, nao::test::readFile(folder / "errors.txt")};
  std::istringstream out(result.output);
  for (std::string line; std::getline(out, line);)
    if (!line.empty())
    {
      run.lines.push_back(json::parse(line, nullptr, false));
      EXPECT_FALSE(run.lines.back().is_discarded()) << "not a JSON line: " << line;
    }
  return run;
}

/// x and slackNorms of `line` as the reference has them: x within 1e-7 relative, slack norms as well.
void expectAnswer(const json& line, const BruteForceAnswer& expected, const std::string& what)
{
  ASSERT_TRUE(expected.found) << "the reference found no feasible point: " << what;
  ASSERT_EQ(line.value("status", ""), "optimal") << what << "\n" << line;
  ASSERT_EQ(line["x"].size(), static_cast<std::size_t>(expected.x.size())) << what;
  const double scale = std::max(1.0, expected.x.lpNorm<Eigen::Infinity>());
  for (Eigen::Index j = 0; j < expected.x.size(); ++j)
    EXPECT_NEAR(line["x"][static_cast<std::size_t>(j)].get<double>(), expected.x[j], 1e-7 * scale)
        << "x[" << j << "] of " << what << "\n"
        << line;
  ASSERT_EQ(line["slackNorms"].size(), expected.slackNorms.size()) << what;
  for (std::size_t k = 0; k < expected.slackNorms.size(); ++k)
    EXPECT_NEAR(line["slackNorms"][k].get<double>(), expected.slackNorms[k],
                1e-7 * std::max(1.0, expected.slackNorms[k]))
        << "slackNorms[" << k << "] of " << what << "\n"
        << line;
}

Eigen::VectorXd vec(std::initializer_list<double> values)
{
  Eigen::VectorXd v(static_cast<Eigen::Index>(values.size()));
  Eigen::Index i = 0;
  for (double value : values)
    v[i++] = value;
  return v;
}

} // namespace nao::tasktool::test
