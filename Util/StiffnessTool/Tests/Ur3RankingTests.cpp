// The UR3 at one flange pose: the shipped URDF against the published DH parameters, all eight analytic
// inverse kinematics solutions, and their ranking by the metric for x, y and z (the paper's Fig 11) against p
// computed independently from finite differences of the DH forward kinematics.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Util/StiffnessTool/Ranking.h"
#include "Util/StiffnessTool/Tests/Ur3Kinematics.h"

#include <algorithm>
#include <fstream>
#include <gtest/gtest.h>
#include <iomanip>
#include <iostream>
#include <numbers>
#include <sstream>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Model;
using kinematics::Vector6;

/// The configuration whose flange pose the tests use.
Eigen::VectorXd referenceConfiguration()
{
  Eigen::VectorXd q(6);
  q << 0.5, -1.2, 1.6, -0.9, 1.1, 0.4;
  return q;
}

const std::vector<std::string> ur3Joints{"joint1", "joint2", "joint3", "joint4", "joint5", "joint6"};

double angleDistance(const Eigen::VectorXd& a, const Eigen::VectorXd& b)
{
  double largest = 0.0;
  for (int i = 0; i < a.size(); ++i)
    largest = std::max(largest, std::abs(std::remainder(a[i] - b[i], 2.0 * std::numbers::pi)));
  return largest;
}

std::vector<Eigen::VectorXd> readSolutionsCsv(const std::string& path)
{
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);
  EXPECT_EQ(line, "joint1,joint2,joint3,joint4,joint5,joint6");
  std::vector<Eigen::VectorXd> rows;
  while (std::getline(file, line))
  {
    std::istringstream fields(line);
    Eigen::VectorXd q(6);
    std::string field;
    for (int i = 0; i < 6 && std::getline(fields, field, ','); ++i)
      q[i] = std::stod(field);
    rows.push_back(q);
  }
  return rows;
}

TEST(Ur3, ShippedUrdfIsTheDhChain)
{
  const Model model = kinematics::loadModel(toolDataPath("ur3.urdf"));
  std::mt19937 random(101);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::VectorXd q = randomJointValues(6, std::numbers::pi, random);
    const math::Pose urdf = relativeLinkPose(model, ur3Joints, q, "base_link", "tool0");
    EXPECT_TRUE(urdf.isApprox(ur3DhFrame(q, 6), 1e-14)) << q.transpose();
  }
}

TEST(Ur3, EightInverseKinematicsSolutionsReachTheSamePose)
{
  const Model model = kinematics::loadModel(toolDataPath("ur3.urdf"));
  const math::Pose target = ur3DhFrame(referenceConfiguration(), 6);
  const std::vector<Eigen::VectorXd> solutions = ur3InverseKinematics(target);
  ASSERT_EQ(solutions.size(), 8u);
  int matchesReference = 0;
  for (std::size_t i = 0; i < solutions.size(); ++i)
  {
    // Through the URDF and nao::kinematics, not through the DH product the solver inverted.
    const math::Pose reached = relativeLinkPose(model, ur3Joints, solutions[i], "base_link", "tool0");
    EXPECT_LT((reached.translation - target.translation).norm(), 1e-9) << "solution " << i;
    EXPECT_LT((reached.rotation - target.rotation).norm(), 1e-9) << "solution " << i;
    for (std::size_t j = 0; j < i; ++j)
      EXPECT_GT(angleDistance(solutions[i], solutions[j]), 1e-3) << i << " and " << j << " coincide";
    matchesReference += angleDistance(solutions[i], referenceConfiguration()) < 1e-9 ? 1 : 0;
  }
  EXPECT_EQ(matchesReference, 1);
}

TEST(Ur3, ShippedSolutionsFileHoldsTheEightSolutions)
{
  // The CSV the StiffnessTool README ranks: every row is one of the solver's solutions, each exactly once.
  const std::vector<Eigen::VectorXd> rows = readSolutionsCsv(toolDataPath("ur3_ik_solutions.csv"));
  const std::vector<Eigen::VectorXd> solutions =
      ur3InverseKinematics(ur3DhFrame(referenceConfiguration(), 6));
  ASSERT_EQ(rows.size(), solutions.size());
  for (std::size_t i = 0; i < rows.size(); ++i)
    EXPECT_LT(angleDistance(rows[i], solutions[i]), 1e-12) << "row " << i + 1;
}

TEST(Ur3, RankingForXYZAgreesWithAnIndependentMetric)
{
  const Model model = kinematics::loadModel(toolDataPath("ur3.urdf"));
  const Chain chain(model, "base_link", "tool0");
  Workspace workspace(chain);
  const std::vector<Eigen::VectorXd> solutions =
      ur3InverseKinematics(ur3DhFrame(referenceConfiguration(), 6));
  Eigen::MatrixXd configurations(6, static_cast<Eigen::Index>(solutions.size()));
  for (std::size_t c = 0; c < solutions.size(); ++c)
    configurations.col(static_cast<Eigen::Index>(c)) = solutions[c];

  for (int axis = 0; axis < 3; ++axis)
  {
    StiffnessQuery query;
    query.direction = Vector6::Unit(axis);
    const std::vector<RankedConfiguration> ranking =
        rankConfigurations(chain, workspace, query, configurations);
    ASSERT_EQ(ranking.size(), solutions.size());

    // Independent: p = 1/2 |J^T dx|^2 with J from central differences of the DH product.
    std::vector<std::pair<double, int>> independent;
    for (std::size_t c = 0; c < solutions.size(); ++c)
    {
      const Eigen::Matrix<double, 6, 6> jacobian = ur3DifferenceJacobian(solutions[c], 1e-6);
      independent.emplace_back(0.5 * (jacobian.transpose() * query.direction).squaredNorm(),
                               static_cast<int>(c));
    }
    std::stable_sort(independent.begin(), independent.end());

    std::cout << "UR3 ranking along "
              << "xyz"[axis] << " (stiffest first):";
    for (std::size_t r = 0; r < ranking.size(); ++r)
    {
      EXPECT_NEAR(ranking[r].metric, independent[r].first, 1e-9) << "rank " << r;
      // Same order wherever the independent values are told apart by more than their accuracy.
      const bool tiedBelow = r > 0 && independent[r].first - independent[r - 1].first < 1e-8;
      const bool tiedAbove = r + 1 < ranking.size() && independent[r + 1].first - independent[r].first < 1e-8;
      if (!tiedBelow && !tiedAbove)
      {
        EXPECT_EQ(ranking[r].index, independent[r].second) << "rank " << r;
      }
      if (r > 0)
      {
        EXPECT_LE(ranking[r - 1].metric, ranking[r].metric);
      }
      std::cout << " " << ranking[r].index + 1 << " (" << std::setprecision(4) << ranking[r].metric << ")";
    }
    std::cout << "\n";
  }
}
} // namespace
} // namespace nao::stiffness::test
