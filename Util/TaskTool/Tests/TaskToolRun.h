#pragma once
// Running `TaskTool hqp` in a test and checking its answers (TaskToolTests, TaskToolInputTests).
#include "BruteForceHqp.h"
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nao::tasktool::test
{
struct ToolRun
{
  int status = -1;
  std::vector<nlohmann::json> lines; ///< standard output, one JSON value per line
  std::string errors;                ///< standard error
};

/// TaskTool hqp on `input` written to `folder`/cases.json (or on `arguments` instead of that file when given).
ToolRun taskTool(const std::filesystem::path& folder, const std::string& input,
                 const std::string& arguments = "");

/// `line` is optimal, with x within 1e-7 (relative to max(1, |x|)) of `expected` and its slack norms as well.
void expectAnswer(const nlohmann::json& line, const BruteForceAnswer& expected, const std::string& what);

Eigen::VectorXd vec(std::initializer_list<double> values);
} // namespace nao::tasktool::test
