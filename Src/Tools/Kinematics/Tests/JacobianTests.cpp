// Jacobians against finite differences of forward kinematics, dJ/dq against finite differences of J, the
// derivatives of a path's Jacobian from its columns against the model's, and (dJ/dt) qdot against its definition.
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

/// The coordinates of the joints on the path from the root to `link`, base first.
std::vector<int> pathCoordinates(const Model& model, int link)
{
  std::vector<int> coordinates;
  for (int body = model.link(link).body; body > 0; body = model.body(body).parent)
    coordinates.insert(coordinates.begin(), model.body(body).coordinate);
  return coordinates;
}

/// Those columns of a matrix with one column per coordinate.
Jacobian columnsOf(const Eigen::Ref<const Jacobian>& matrix, const std::vector<int>& coordinates)
{
  Jacobian columns(6, static_cast<Eigen::Index>(coordinates.size()));
  for (std::size_t i = 0; i < coordinates.size(); ++i)
    columns.col(static_cast<Eigen::Index>(i)) = matrix.col(coordinates[i]);
  return columns;
}

TEST(JacobianDerivative, OfAPathFromItsColumnsEqualsTheModels)
{
  // The UR3's tool and the NAO's limb ends: every joint on these paths has its own coordinate and multiplier 1
  // (the right leg's hip yaw-pitch mimics the left one's with 1), so the path's blocks are the model's.
  const Model ur3 = buildModel(ur3Urdf()), nao = loadNao();
  std::mt19937 random(41);
  std::uniform_real_distribution<double> offset(-0.05, 0.05);
  for (const auto& [model, tip] :
       {std::pair{&ur3, "tool0"}, std::pair{&nao, "l_wrist"}, std::pair{&nao, "r_wrist"},
        std::pair{&nao, "l_sole"}, std::pair{&nao, "r_sole"}})
  {
    Data data(*model);
    const int link = model->linkIndex(tip), nq = model->coordinateCount();
    const std::vector<int> coordinates = pathCoordinates(*model, link);
    const auto n = static_cast<Eigen::Index>(coordinates.size());
    for (int trial = 0; trial < 5; ++trial)
    {
      const Eigen::Vector3d point(offset(random), offset(random), offset(random));
      const Jacobian jacobian = jacobianAt(*model, data, randomConfiguration(*model, random), {link, point});
      Jacobian all(6, nq * nq), derivatives(6, n * n);
      computeJacobianDerivatives(*model, data, link, point, all);
      computeJacobianDerivatives(columnsOf(jacobian, coordinates), derivatives);
      for (Eigen::Index k = 0; k < n; ++k)
      {
        const Jacobian expected =
            columnsOf(all.middleCols(coordinates[static_cast<std::size_t>(k)] * nq, nq), coordinates);
        EXPECT_LT((derivatives.middleCols(k * n, n) - expected).norm(), 1e-14) << tip << " d/dq" << k;
      }
    }
  }
}

TEST(JacobianDerivative, RateTimesVelocityIsTheSumOverThePathsDerivatives)
{
  const Model model = buildModel(mixedRobotUrdf());
  Data data(model);
  std::mt19937 random(42);
  std::uniform_real_distribution<double> rate(-1.5, 1.5);
  for (int link = 1; link < model.linkCount(); ++link)
  {
    const std::vector<int> coordinates = pathCoordinates(model, link);
    const auto n = static_cast<Eigen::Index>(coordinates.size());
    const Jacobian path = columnsOf(jacobianAt(model, data, randomConfiguration(model, random),
                                               {link, Eigen::Vector3d(0.01, 0.02, 0.03)}),
                                    coordinates);
    Eigen::VectorXd qdot(n);
    for (Eigen::Index i = 0; i < n; ++i)
      qdot[i] = rate(random);
    Jacobian derivatives(6, n * n);
    computeJacobianDerivatives(path, derivatives);
    Vector6 expected = Vector6::Zero();
    for (Eigen::Index k = 0; k < n; ++k)
      expected += qdot[k] * derivatives.middleCols(k * n, n) * qdot;
    EXPECT_LT((computeJacobianRateTimesVelocity(path, qdot) - expected).norm(), 1e-13)
        << model.link(link).name;
  }
}
} // namespace
} // namespace nao::kinematics::test
