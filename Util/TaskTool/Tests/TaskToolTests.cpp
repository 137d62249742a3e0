// `TaskTool hqp` against the brute-force reference (BruteForceHqp.h) on random small hierarchies, and on hand-made
// cases with known answers (which the reference is checked on first).
#include "BruteForceHqp.h"
#include "TaskToolRun.h"
#include "Tools/Testing/TemporaryFolder.h"
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <random>

using namespace nao::test;
using namespace nao::tasktool::test;
using json = nlohmann::json;

namespace
{
constexpr double unbounded = 1e300;

json matrixJson(const Eigen::MatrixXd& m)
{
  json rows = json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i)
  {
    json row = json::array();
    for (Eigen::Index j = 0; j < m.cols(); ++j)
      row.push_back(m(i, j));
    rows.push_back(row);
  }
  return rows;
}

json vectorJson(const Eigen::VectorXd& v)
{
  return std::vector<double>(v.data(), v.data() + v.size());
}

/// The case as TaskTool reads it; a level's empty lists are left out or written as [] by turns.
json caseJson(const BruteForceProblem& problem, const json& id)
{
  json levels = json::array();
  for (std::size_t k = 0; k < problem.levels.size(); ++k)
  {
    const BruteForceLevel& level = problem.levels[k];
    json item = json::object();
    if (level.a.rows() > 0 || k % 2 == 0)
    {
      item["A"] = matrixJson(level.a);
      item["b"] = vectorJson(level.b);
    }
    if (level.c.rows() > 0 || k % 2 == 1)
    {
      item["C"] = matrixJson(level.c);
      item["lo"] = vectorJson(level.lo);
      item["hi"] = vectorJson(level.hi);
    }
    levels.push_back(item);
  }
  return {{"id", id}, {"n", problem.n}, {"levels", levels}};
}

BruteForceLevel level(Eigen::MatrixXd a, Eigen::VectorXd b, Eigen::MatrixXd c = {}, Eigen::VectorXd lo = {},
                      Eigen::VectorXd hi = {})
{
  if (c.size() == 0) c.resize(0, std::max<Eigen::Index>(a.cols(), 1));
  return {std::move(a), std::move(b), std::move(c), std::move(lo), std::move(hi)};
}

Eigen::MatrixXd rows(int n, std::initializer_list<std::initializer_list<double>> values)
{
  Eigen::MatrixXd m(static_cast<Eigen::Index>(values.size()), n);
  Eigen::Index i = 0;
  for (const auto& row : values)
  {
    Eigen::Index j = 0;
    for (double v : row)
      m(i, j++) = v;
    ++i;
  }
  return m;
}

struct Coverage
{
  int infeasibleLevels = 0, redundantRows = 0, absentSides = 0, emptyLevels = 0;
};

/// A small random hierarchy: n <= 6, <= 3 levels, <= 7 inequality rows in all; rows copied, scaled and summed
/// (also across levels), bounds one-sided, absent, of width 0 or narrow and away from 0, empty levels.
BruteForceProblem randomProblem(std::mt19937& random, Coverage& coverage)
{
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(random); };
  BruteForceProblem problem;
  problem.n = pick(1, 6);
  const int levels = pick(1, 3);
  std::vector<int> inequalities(static_cast<std::size_t>(levels), 0);
  for (int m = pick(0, 7); m > 0; --m)
    ++inequalities[static_cast<std::size_t>(pick(0, levels - 1))];
  std::vector<Eigen::RowVectorXd> pool;
  const auto newRow = [&]()
  {
    Eigen::RowVectorXd row(problem.n);
    const int kind = pick(0, 9);
    if (kind < 2 && !pool.empty())
      row = pool[static_cast<std::size_t>(pick(0, static_cast<int>(pool.size()) - 1))] *
            std::array{1.0, -1.0, 2.0, 0.5}[static_cast<std::size_t>(pick(0, 3))];
    else if (kind == 2 && pool.size() >= 2)
      row = pool[0] + pool[pool.size() - 1];
    else
      for (Eigen::Index j = 0; j < problem.n; ++j)
        row[j] = uniform(random);
    coverage.redundantRows += kind <= 2 && !pool.empty();
    pool.push_back(row);
    return row;
  };
  for (int k = 0; k < levels; ++k)
  {
    const int me = pick(0, 6) < 1 ? 0 : pick(0, 3), mi = inequalities[static_cast<std::size_t>(k)];
    coverage.emptyLevels += me == 0 && mi == 0;
    BruteForceLevel level{Eigen::MatrixXd(me, problem.n), Eigen::VectorXd(me), Eigen::MatrixXd(mi, problem.n),
                          Eigen::VectorXd(mi), Eigen::VectorXd(mi)};
    for (int i = 0; i < me; ++i)
    {
      level.a.row(i) = newRow();
      level.b[i] = 2.0 * uniform(random);
    }
    for (int i = 0; i < mi; ++i)
    {
      level.c.row(i) = newRow();
      const double lo = 1.5 * uniform(random), width = 0.75 * (1.0 + uniform(random));
      const double away = (uniform(random) < 0 ? -1.0 : 1.0) * (1.5 + 0.5 * uniform(random));
      switch (pick(0, 9))
      {
      case 0:
      case 1:
        level.lo[i] = lo, level.hi[i] = pick(0, 1) ? unbounded : 1e305;
        break; // no upper bound
      case 2:
      case 3:
        level.lo[i] = pick(0, 1) ? -unbounded : -1e305, level.hi[i] = lo;
        break; // no lower bound
      case 4:
        level.lo[i] = -unbounded, level.hi[i] = unbounded;
        break;
      case 5:
        level.lo[i] = level.hi[i] = lo;
        break;
      case 6:
      case 7:
        level.lo[i] = away - 0.05, level.hi[i] = away + 0.05;
        break;
      default:
        level.lo[i] = lo, level.hi[i] = lo + width;
      }
      coverage.absentSides += (level.lo[i] <= -unbounded) + (level.hi[i] >= unbounded);
    }
    problem.levels.push_back(std::move(level));
  }
  return problem;
}

/// A number from the environment, or `otherwise`.
int environment(const char* name, int otherwise)
{
  const char* value = std::getenv(name);
  return value ? std::atoi(value) : otherwise;
}
} // namespace

// 300 problems by default; TASKTOOL_RANDOM_SEED and TASKTOOL_RANDOM_CASES run another or a longer sweep.
TEST(TaskTool, RandomHierarchiesMatchTheBruteForceReference)
{
  std::mt19937 random(static_cast<std::mt19937::result_type>(environment("TASKTOOL_RANDOM_SEED", 44)));
  Coverage coverage;
  std::vector<BruteForceProblem> problems;
  json cases = json::array();
  for (int i = 0, count = environment("TASKTOOL_RANDOM_CASES", 300); i < count; ++i)
  {
    problems.push_back(randomProblem(random, coverage));
    cases.push_back(caseJson(problems.back(), i));
  }
  TemporaryFolder folder("tasktool-random");
  const ToolRun run = taskTool(folder.path, json{{"cases", cases}}.dump());
  ASSERT_EQ(run.status, 0) << run.errors;
  ASSERT_EQ(run.lines.size(), problems.size()) << run.errors;
  for (std::size_t i = 0; i < problems.size(); ++i)
  {
    EXPECT_EQ(run.lines[i]["id"], i);
    const BruteForceAnswer expected = bruteForceHqp(problems[i]);
    for (double norm : expected.slackNorms)
      coverage.infeasibleLevels += norm > 1e-6;
    expectAnswer(run.lines[i], expected, "case " + json{{"cases", {cases[i]}}}.dump());
  }
  EXPECT_GE(coverage.infeasibleLevels, 20);
  EXPECT_GE(coverage.redundantRows, 20);
  EXPECT_GE(coverage.absentSides, 20);
  EXPECT_GE(coverage.emptyLevels, 5);
}

TEST(TaskTool, HandMadeCasesHaveTheirKnownAnswers)
{
  struct Known
  {
    BruteForceProblem problem;
    std::vector<double> x, slackNorms;
  };
  const std::vector<Known> known{
      // Level 0 holds x0 = 1 over level 1's x0 <= 0, which is violated by 1.
      {{1,
        {level(rows(1, {{1}}), vec({1})),
         level(rows(1, {}), vec({}), rows(1, {{1}}), vec({-1e300}), vec({0}))}},
       {1},
       {0, 1}},
      // x = 1 and x <= 0 in one level meet halfway.
      {{1, {level(rows(1, {{1}}), vec({1}), rows(1, {{1}}), vec({-1e300}), vec({0}))}},
       {0.5},
       {std::sqrt(0.5)}},
      // The shortest x with x0 + x1 = 2 that keeps x0 <= 0.5.
      {{2,
        {level(rows(2, {{1, 1}}), vec({2})),
         level(rows(2, {}), vec({}), rows(2, {{1, 0}}), vec({-1e300}), vec({0.5}))}},
       {0.5, 1.5},
       {0, 0}},
      // A level infeasible on its own (1 <= x0 <= 2 and x0 <= -1: x0 = 0, violation sqrt 2) fixes x0 for the next.
      {{2,
        {level(rows(2, {}), vec({}), rows(2, {{1, 0}, {1, 0}}), vec({1, -1e300}), vec({2, -1})),
         level(rows(2, {{0, 1}, {1, 0}}), vec({3, 5}))}},
       {0, 3},
       {std::sqrt(2.0), 5}},
      // Empty levels around one row.
      {{3, {level(rows(3, {}), vec({})), level(rows(3, {{0, 0, 1}}), vec({2})), level(rows(3, {}), vec({}))}},
       {0, 0, 2},
       {0, 0, 0}}};
  json cases = json::array();
  for (std::size_t i = 0; i < known.size(); ++i)
  {
    cases.push_back(caseJson(known[i].problem, i));
    // The reference agrees with the known answers, so that the random comparison rests on it.
    const BruteForceAnswer reference = bruteForceHqp(known[i].problem);
    ASSERT_TRUE(reference.found) << i;
    for (std::size_t j = 0; j < known[i].x.size(); ++j)
      EXPECT_NEAR(reference.x[static_cast<Eigen::Index>(j)], known[i].x[j], 1e-12) << "reference, case " << i;
    for (std::size_t k = 0; k < known[i].slackNorms.size(); ++k)
      EXPECT_NEAR(reference.slackNorms[k], known[i].slackNorms[k], 1e-12) << "reference, case " << i;
  }
  // Bounds beyond 1e300 (and beyond a double: written by hand, json cannot) are absent; any id is echoed.
  std::string input = json{{"cases", cases}}.dump();
  input.insert(input.size() - 2, R"(, {"id": {"name": "huge", "tags": [1, 2]}, "n": 1,
    "levels": [{"C": [[1]], "lo": [-1e400], "hi": [1e308]}, {"A": [[1]], "b": [4]}]},
    {"n": 1, "levels": [{"C": [[1]], "lo": [2], "hi": [1e999]}, {"A": [[1]], "b": [0]}]})");
  TemporaryFolder folder("tasktool-known");
  const ToolRun run = taskTool(folder.path, input);
  ASSERT_EQ(run.status, 0) << run.errors << input;
  ASSERT_EQ(run.lines.size(), known.size() + 2);
  for (std::size_t i = 0; i < known.size(); ++i)
  {
    EXPECT_EQ(run.lines[i]["id"], i);
    BruteForceAnswer expected{true, Eigen::Map<const Eigen::VectorXd>(known[i].x.data(), known[i].problem.n),
                              known[i].slackNorms};
    expectAnswer(run.lines[i], expected, "hand-made case " + std::to_string(i));
  }
  EXPECT_EQ(run.lines[known.size()]["id"], json::parse(R"({"name": "huge", "tags": [1, 2]})"));
  expectAnswer(run.lines[known.size()], {true, vec({4}), {0, 0}}, "bounds beyond 1e300");
  EXPECT_TRUE(run.lines[known.size() + 1]["id"].is_null());
  expectAnswer(run.lines[known.size() + 1], {true, vec({2}), {0, 2}}, "a bound of 1e999");
}
