// Jacobians against finite differences of forward kinematics, and dJ/dq against finite differences of J.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <gtest/gtest.h>

namespace nao::kinematics::test
{
namespace
{
constexpr double step = 1e-6;

struct PointOnLink
{
  int link;
  Eigen::Vector3d point;
};

std::vector<PointOnLink> randomPoints(const Model& model, std::mt19937& random, int count)
{
  std::uniform_int_distribution<int> anyLink(0, model.linkCount() - 1);
  std::uniform_real_distribution<double> offset(-0.1, 0.1);
  std::vector<PointOnLink> points;
  for (int i = 0; i < count; ++i)
    points.push_back({anyLink(random), Eigen::Vector3d(offset(random), offset(random), offset(random))});
  return points;
}

Jacobian jacobianAt(const Model& model, Data& data, const Eigen::VectorXd& q, const PointOnLink& p)
{
  updateBodyPoses(model, data, q);
  Jacobian jacobian(6, model.coordinateCount());
  computePointJacobian(model, data, p.link, p.point, jacobian);
  return jacobian;
}

void expectJacobianMatchesForwardKinematics(const Model& model, unsigned seed)
{
  Data data(model);
  Data scratch(model);
  std::mt19937 random(seed);
  for (int trial = 0; trial < 20; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    for (const PointOnLink& p : randomPoints(model, random, 10))
    {
      const Jacobian jacobian = jacobianAt(model, data, q, p);
      forwardKinematics(model, scratch, q);
      const Eigen::Matrix3d center = scratch.linkPoses[static_cast<std::size_t>(p.link)].rotation;
      for (int k = 0; k < model.coordinateCount(); ++k)
      {
        const auto position = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd
        {
          forwardKinematics(model, scratch, x);
          return scratch.linkPoses[static_cast<std::size_t>(p.link)] * p.point;
        };
        const auto rotation = [&](const Eigen::VectorXd& x)
        {
          forwardKinematics(model, scratch, x);
          return scratch.linkPoses[static_cast<std::size_t>(p.link)].rotation;
        };
        Eigen::VectorXd plus = q, minus = q;
        plus[k] += step;
        minus[k] -= step;
        const Eigen::Vector3d angular = rotationDifference(rotation(plus), rotation(minus), center, step);
        EXPECT_LT((jacobian.col(k).head<3>() - centralDifference(position, q, k, step)).norm(), 1e-8)
            << "link " << model.link(p.link).name << " coordinate " << k;
        EXPECT_LT((jacobian.col(k).tail<3>() - angular).norm(), 1e-8)
            << "link " << model.link(p.link).name << " coordinate " << k;
      }
    }
  }
}

void expectDerivativesMatchFiniteDifferences(const Model& model, unsigned seed)
{
  Data data(model);
  Data scratch(model);
  std::mt19937 random(seed);
  const int n = model.coordinateCount();
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    for (const PointOnLink& p : randomPoints(model, random, 10))
    {
      updateBodyPoses(model, data, q);
      Jacobian all(6, n * n);
      computeJacobianDerivatives(model, data, p.link, p.point, all);
      for (int k = 0; k < n; ++k)
      {
        Jacobian single(6, n);
        computeJacobianDerivative(model, data, p.link, p.point, k, single);
        const auto flatJacobian = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd
        { return jacobianAt(model, scratch, x, p).reshaped(); };
        const Eigen::VectorXd expected = centralDifference(flatJacobian, q, k, step);
        EXPECT_LT((single.reshaped() - expected).norm(), 1e-7)
            << "link " << model.link(p.link).name << " d/dq" << k << "\n"
            << single << "\nexpected\n"
            << expected.reshaped(6, n);
        EXPECT_EQ(Jacobian(all.middleCols(k * n, n)), single);
      }
    }
  }
}

TEST(Jacobian, NaoMatchesFiniteDifferencesOfForwardKinematics)
{
  expectJacobianMatchesForwardKinematics(loadNao(), 11);
}

TEST(Jacobian, MixedRobotMatchesFiniteDifferencesOfForwardKinematics)
{
  expectJacobianMatchesForwardKinematics(buildModel(mixedRobotUrdf()), 12);
}

TEST(Jacobian, Ur3MatchesFiniteDifferencesOfForwardKinematics)
{
  expectJacobianMatchesForwardKinematics(buildModel(ur3Urdf()), 13);
}

TEST(JacobianDerivative, NaoMatchesFiniteDifferencesOfJacobian)
{
  expectDerivativesMatchFiniteDifferences(loadNao(), 21);
}

TEST(JacobianDerivative, MixedRobotMatchesFiniteDifferencesOfJacobian)
{
  expectDerivativesMatchFiniteDifferences(buildModel(mixedRobotUrdf()), 22);
}

TEST(JacobianDerivative, Ur3MatchesFiniteDifferencesOfJacobian)
{
  expectDerivativesMatchFiniteDifferences(buildModel(ur3Urdf()), 23);
}

TEST(Jacobian, Ur3ToolColumnsAreAxisCrossLever)
{
  // Independent of the library's FK: z axes and origins of the DH frames give the columns directly.
  const Model model = buildModel(ur3Urdf());
  Data data(model);
  std::mt19937 random(31);
  const Eigen::VectorXd q = randomConfiguration(model, random);
  const Jacobian jacobian = jacobianAt(model, data, q, {model.linkIndex("tool0"), Eigen::Vector3d::Zero()});
  const Eigen::Vector3d tool = ur3DhFrame(q, 6).translation;
  for (int i = 0; i < 6; ++i)
  {
    const math::Pose frame = ur3DhFrame(q, i);
    const Eigen::Vector3d z = frame.rotation.col(2);
    // Absolute tolerance: the last joint's axis passes through the tool point, so its linear column is zero.
    EXPECT_LT((jacobian.col(i).head<3>() - z.cross(tool - frame.translation)).norm(), 1e-14) << i;
    EXPECT_LT((jacobian.col(i).tail<3>() - z).norm(), 1e-14) << i;
  }
}
} // namespace
} // namespace nao::kinematics::test
