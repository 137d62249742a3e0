// The metric p (Eq 13), its gradient (Eq 14) and Hessian (Eq 15), the joint stiffness (Eq 6) and the
// stiffness ellipsoid (Eq 5c) against central differences on random chains, and against closed forms derived
// by hand for the planar arm (README.md).
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"

#include <Eigen/Eigenvalues>
#include <Eigen/Geometry>
#include <cmath>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Model;
using kinematics::Vector6;

constexpr double step = 1e-6;

struct RandomChain
{
  Model model;
  Chain chain;
  Workspace workspace;
  RandomChain(int joints, unsigned seed, const char* base)
      : model(kinematics::buildModel(randomChainUrdf(joints, seed))),
        chain(model, base, "tool", Eigen::Vector3d(0.03, 0.01, -0.02)), workspace(chain)
  {
  }
};

double metricAt(RandomChain& s, const Eigen::VectorXd& q, const StiffnessQuery& query)
{
  updateChain(s.chain, s.workspace, q);
  return computeMetric(s.chain, s.workspace, query);
}

Eigen::VectorXd gradientAt(RandomChain& s, const Eigen::VectorXd& q, const StiffnessQuery& query)
{
  updateChain(s.chain, s.workspace, q);
  Eigen::VectorXd gradient(s.chain.jointCount());
  computeMetricGradient(s.chain, s.workspace, query, gradient);
  return gradient;
}

/// Relative to the larger of 1 and the reference's largest entry.
double relativeError(const Eigen::MatrixXd& actual, const Eigen::MatrixXd& expected)
{
  return (actual - expected).cwiseAbs().maxCoeff() / std::max(1.0, expected.cwiseAbs().maxCoeff());
}

TEST(MetricGradient, MatchesCentralDifferencesOnRandomChains)
{
  for (const auto& [joints, seed, base] : {std::tuple{6, 21u, "mount"}, std::tuple{7, 22u, "mount"},
                                           std::tuple{6, 23u, "link1"}, std::tuple{7, 24u, "link1"}})
  {
    RandomChain s(joints, seed, base);
    std::mt19937 random(seed);
    for (int trial = 0; trial < 20; ++trial)
    {
      const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
      const Eigen::VectorXd q = randomJointValues(s.chain.jointCount(), 2.5, random);
      const Eigen::VectorXd gradient = gradientAt(s, q, query);
      const double p = metricAt(s, q, query);
      updateChain(s.chain, s.workspace, q);
      Eigen::VectorXd scratch(s.chain.jointCount());
      EXPECT_DOUBLE_EQ(computeMetricGradient(s.chain, s.workspace, query, scratch), p);
      Eigen::VectorXd expected(s.chain.jointCount());
      for (int k = 0; k < s.chain.jointCount(); ++k)
        expected[k] = centralDifference([&](const Eigen::VectorXd& x) -> Eigen::VectorXd
                                        { return Eigen::VectorXd::Constant(1, metricAt(s, x, query)); },
                                        q, k, step)[0];
      EXPECT_LT(relativeError(gradient, expected), 1e-7) << joints << " joints\n"
                                                         << gradient.transpose() << "\n"
                                                         << expected.transpose();
    }
  }
}

TEST(MetricHessian, MatchesCentralDifferencesOfTheGradientAndIsSymmetric)
{
  for (const auto& [joints, seed, base] : {std::tuple{6, 31u, "mount"}, std::tuple{7, 32u, "link1"}})
  {
    RandomChain s(joints, seed, base);
    const int n = s.chain.jointCount();
    std::mt19937 random(seed);
    for (int trial = 0; trial < 20; ++trial)
    {
      const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
      const Eigen::VectorXd q = randomJointValues(n, 2.5, random);
      updateChain(s.chain, s.workspace, q);
      Eigen::MatrixXd hessian(n, n);
      const double p = computeMetricHessian(s.chain, s.workspace, query, hessian);
      EXPECT_DOUBLE_EQ(p, computeMetric(s.chain, s.workspace, query));
      Eigen::MatrixXd expected(n, n);
      for (int k = 0; k < n; ++k)
        expected.col(k) = centralDifference(
            [&](const Eigen::VectorXd& x) -> Eigen::VectorXd { return gradientAt(s, x, query); }, q, k, step);
      EXPECT_LT(relativeError(hessian, expected), 1e-7) << joints << " joints\n"
                                                        << hessian << "\n\n"
                                                        << expected;
      EXPECT_LT(relativeError(hessian, hessian.transpose()), 1e-12);
    }
  }
}

/// The planar unit arm in closed form: phi_i = theta_1 + ... + theta_i, x - x_j = sum_{i>=j} cos phi_i,
/// y - y_j = sum_{i>=j} sin phi_i; with K_c = I and dx = (dx, dy, 0, 0, 0, drz):
///   tau_j = -(y - y_j) dx + (x - x_j) dy + drz,
///   d tau_j / d theta_k = -sum_{i >= max(j,k)} (dx cos phi_i + dy sin phi_i),
///   d2 tau_j / d theta_k d theta_l = sum_{i >= max(j,k,l)} (dx sin phi_i - dy cos phi_i).
struct PlanarClosedForm
{
  double p;
  Eigen::Vector4d gradient;
  Eigen::Matrix4d hessian;
};

PlanarClosedForm planarClosedForm(const Eigen::Vector4d& theta, double dx, double dy, double drz)
{
  Eigen::Vector4d phi;
  double sum = 0.0;
  for (int i = 0; i < 4; ++i)
    phi[i] = sum += theta[i];
  const auto fromIndex = [&](int first, auto term)
  {
    double s = 0.0;
    for (int i = first; i < 4; ++i)
      s += term(phi[i]);
    return s;
  };
  Eigen::Vector4d tau;
  Eigen::Matrix4d dTau, hessian = Eigen::Matrix4d::Zero(); // dTau(j, k)
  for (int j = 0; j < 4; ++j)
  {
    tau[j] = -fromIndex(j, [](double a) { return std::sin(a); }) * dx +
             fromIndex(j, [](double a) { return std::cos(a); }) * dy + drz;
    for (int k = 0; k < 4; ++k)
      dTau(j, k) = -fromIndex(std::max(j, k), [&](double a) { return dx * std::cos(a) + dy * std::sin(a); });
  }
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 4; ++k)
      for (int l = 0; l < 4; ++l)
        hessian(k, l) +=
            dTau(j, k) * dTau(j, l) + tau[j] * fromIndex(std::max({j, k, l}), [&](double a)
                                                         { return dx * std::sin(a) - dy * std::cos(a); });
  return {0.5 * tau.squaredNorm(), dTau.transpose() * tau, hessian};
}

TEST(Metric, PlanarArmMatchesTheClosedForm)
{
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  Workspace workspace(chain);
  std::mt19937 random(41);
  for (int trial = 0; trial < 50; ++trial)
  {
    const Eigen::Vector4d theta = randomJointValues(4, 3.0, random);
    const Vector6 d = randomVector6(random);
    StiffnessQuery query;
    query.direction << d[0], d[1], 0.0, 0.0, 0.0, d[5];
    updateChain(chain, workspace, theta);
    Eigen::VectorXd gradient(4);
    Eigen::MatrixXd hessian(4, 4);
    const PlanarClosedForm expected = planarClosedForm(theta, d[0], d[1], d[5]);
    EXPECT_NEAR(computeMetricGradient(chain, workspace, query, gradient), expected.p, 1e-12);
    EXPECT_LT((gradient - expected.gradient).norm(), 1e-12);
    computeMetricHessian(chain, workspace, query, hessian);
    EXPECT_LT((hessian - expected.hessian).norm(), 1e-12);
  }
}

TEST(StiffnessEllipsoid, DiagonalisesKcJJtKcAndReproducesTheMetric)
{
  RandomChain s(7, 51, "mount");
  std::mt19937 random(52);
  for (int trial = 0; trial < 20; ++trial)
  {
    updateChain(s.chain, s.workspace, randomJointValues(7, 2.5, random));
    const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
    const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(s.workspace, query.cartesianStiffness);
    const Matrix6 jjt = s.workspace.jacobian * s.workspace.jacobian.transpose();
    const Matrix6 stiffness = query.cartesianStiffness * jjt * query.cartesianStiffness;
    const double scale = stiffness.norm();
    EXPECT_LT((ellipsoid.vectors.transpose() * ellipsoid.vectors - Matrix6::Identity()).norm(), 1e-12);
    for (int i = 0; i < 6; ++i)
    {
      EXPECT_LT(
          (stiffness * ellipsoid.vectors.col(i) - ellipsoid.values[i] * ellipsoid.vectors.col(i)).norm(),
          1e-12 * scale);
      if (i > 0)
      {
        EXPECT_LE(ellipsoid.values[i - 1], ellipsoid.values[i]);
      }
    }
    double p = 0.0;
    for (int i = 0; i < 6; ++i)
      p += 0.5 * ellipsoid.values[i] * std::pow(ellipsoid.vectors.col(i).dot(query.direction), 2);
    EXPECT_NEAR(p, computeMetric(s.chain, s.workspace, query), 1e-11 * scale);
  }
}

TEST(StiffnessEllipsoid, StretchedPlanarArmIsInfinitelyStiffAlongItself)
{
  // Stretched along x: v_j = z x (4 - j) e_x = (0, 4 - j, 0), omega_j = e_z, so J J^T has y-y 30, y-rz 10,
  // rz-rz 4 and zeros elsewhere: eigenvalues 0 (four times, x among them) and 17 -+ sqrt(269).
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  Workspace workspace(chain);
  updateChain(chain, workspace, Eigen::Vector4d::Zero());
  const StiffnessEllipsoid ellipsoid = computeStiffnessEllipsoid(workspace, Matrix6::Identity());
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(ellipsoid.values[i], 0.0, 1e-12);
  EXPECT_NEAR(ellipsoid.values[4], 17.0 - std::sqrt(269.0), 1e-12);
  EXPECT_NEAR(ellipsoid.values[5], 17.0 + std::sqrt(269.0), 1e-12);
  EXPECT_NEAR(ellipsoid.vectors.col(5).dot(Vector6::Unit(0)), 0.0, 1e-12);
  // x lies in the span of the zero eigenvalues: infinite radius (or a huge one after rounding).
  double xInNullSpace = 0.0;
  for (int i = 0; i < 4; ++i)
    xInNullSpace += std::pow(ellipsoid.vectors.col(i).dot(Vector6::Unit(0)), 2);
  EXPECT_NEAR(xInNullSpace, 1.0, 1e-12);
  EXPECT_GT(ellipsoid.radius(0), 1e5);
  EXPECT_NEAR(ellipsoid.radius(5), 1.0 / std::sqrt(17.0 + std::sqrt(269.0)), 1e-12);
}

TEST(JointStiffness, PassivePartIsTheDerivativeOfJtw)
{
  RandomChain s(7, 61, "link1");
  const int n = s.chain.jointCount();
  std::mt19937 random(62);
  for (int trial = 0; trial < 20; ++trial)
  {
    const Eigen::VectorXd q = randomJointValues(n, 2.5, random);
    const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
    updateChain(s.chain, s.workspace, q);
    Eigen::MatrixXd active(n, n), passive(n, n);
    computeJointStiffness(s.chain, s.workspace, query, active, passive);
    EXPECT_LT(relativeError(active, s.workspace.jacobian.transpose() * query.cartesianStiffness *
                                        s.workspace.jacobian),
              1e-14);
    const Vector6 w = query.wrench();
    Eigen::MatrixXd expected(n, n);
    for (int k = 0; k < n; ++k)
      expected.col(k) = centralDifference(
          [&](const Eigen::VectorXd& x) -> Eigen::VectorXd
          {
            updateChain(s.chain, s.workspace, x);
            return s.workspace.jacobian.transpose() * w;
          },
          q, k, step);
    EXPECT_LT(relativeError(passive, expected), 1e-8);
  }
}

TEST(JointStiffness, ActivePlusPassiveIsTheDerivativeOfTheRestoringTorque)
{
  // Eq 6: tau(q) = J(q)^T K_c e(q), e the tip's deflection from a reference that lies dx (linear) away at q0
  // with no rotation, so e(q0) = (dx_linear, 0) and de/dq = J at q0 (the rotation vector's derivative at the
  // identity is the angular velocity). Then d tau/dq = J^T K_c J + (dJ^T/dq) K_c e = K_a + K_p.
  RandomChain s(6, 71, "mount");
  const int n = s.chain.jointCount();
  std::mt19937 random(72);
  for (int trial = 0; trial < 20; ++trial)
  {
    const Eigen::VectorXd q0 = randomJointValues(n, 2.5, random);
    StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
    query.direction.tail<3>().setZero();
    updateChain(s.chain, s.workspace, q0);
    const Eigen::Vector3d referencePoint = s.workspace.tipPoint - query.direction.head<3>();
    const Eigen::Matrix3d referenceRotation = s.workspace.tipRotation;
    Eigen::MatrixXd active(n, n), passive(n, n);
    computeJointStiffness(s.chain, s.workspace, query, active, passive);
    Eigen::MatrixXd expected(n, n);
    for (int k = 0; k < n; ++k)
      expected.col(k) = centralDifference(
          [&](const Eigen::VectorXd& x) -> Eigen::VectorXd
          {
            updateChain(s.chain, s.workspace, x);
            const Eigen::AngleAxisd turn(
                Eigen::Matrix3d(s.workspace.tipRotation * referenceRotation.transpose()));
            Vector6 deflection;
            deflection << s.workspace.tipPoint - referencePoint, turn.angle() * turn.axis();
            return s.workspace.jacobian.transpose() * query.cartesianStiffness * deflection;
          },
          q0, k, step);
    EXPECT_LT(relativeError(active + passive, expected), 1e-7);
  }
}
} // namespace
} // namespace nao::stiffness::test

namespace nao::stiffness::test
{
namespace
{
TEST(TranslationalEllipsoid, ReproducesPForEveryTranslationAndIsTheBlockOfS)
{
  for (const auto& [joints, seed] : {std::pair{6, 41u}, std::pair{7, 42u}})
  {
    RandomChain s(joints, seed, "mount");
    std::mt19937 random(seed);
    for (int trial = 0; trial < 20; ++trial)
    {
      updateChain(s.chain, s.workspace, randomJointValues(s.chain.jointCount(), 2.5, random));
      const Matrix6 cartesianStiffness = randomCartesianStiffness(random);
      const TranslationalEllipsoid ellipsoid = computeTranslationalEllipsoid(s.workspace, cartesianStiffness);
      // The closed form against the iterative solver on the block of S = K_c J J^T K_c.
      const Eigen::Matrix3d block =
          (cartesianStiffness * s.workspace.jacobian * s.workspace.jacobian.transpose() * cartesianStiffness)
              .topLeftCorner<3, 3>();
      const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> iterative(block);
      EXPECT_LT(relativeError(ellipsoid.values, iterative.eigenvalues()), 1e-9);
      EXPECT_LE(ellipsoid.values[0], ellipsoid.values[1]);
      EXPECT_LE(ellipsoid.values[1], ellipsoid.values[2]);
      EXPECT_LT((ellipsoid.vectors.transpose() * ellipsoid.vectors - Eigen::Matrix3d::Identity()).norm(),
                1e-9);
      for (int probe = 0; probe < 5; ++probe)
      {
        StiffnessQuery query{Vector6::Zero(), cartesianStiffness};
        query.direction.head<3>() = randomVector6(random).head<3>();
        double fromEllipsoid = 0.0;
        for (int i = 0; i < 3; ++i)
          fromEllipsoid += 0.5 * ellipsoid.values[i] *
                           std::pow(ellipsoid.vectors.col(i).dot(query.direction.head<3>()), 2);
        const double p = computeMetric(s.chain, s.workspace, query);
        EXPECT_NEAR(fromEllipsoid, p, 1e-9 * std::max(1.0, p));
      }
    }
  }
}
} // namespace
} // namespace nao::stiffness::test
