// The optimality conditions (Eqs 16-38) on configurations where they hold or fail for reasons derived by
// hand, checked against the metric's value, gradient and Hessian.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Util/StiffnessTool/Tests/Optimality.h"

#include <Eigen/Eigenvalues>
#include <Eigen/LU>
#include <cmath>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Model;
using kinematics::Vector6;

constexpr double tolerance = 1e-9;

struct Evaluation
{
  double p;
  Eigen::VectorXd gradient;
  Eigen::MatrixXd hessian;
  OptimalityReport report;
};

Evaluation evaluate(const Chain& chain, const Eigen::VectorXd& q, const StiffnessQuery& query)
{
  Workspace workspace(chain);
  updateChain(chain, workspace, q);
  const int n = chain.jointCount();
  Evaluation e{0.0, Eigen::VectorXd(n), Eigen::MatrixXd(n, n), {}};
  e.p = computeMetricGradient(chain, workspace, query, e.gradient);
  computeMetricHessian(chain, workspace, query, e.hessian);
  e.report = checkOptimality(chain, workspace, query, tolerance);
  return e;
}

StiffnessQuery along(double x, double y, double z, double rx = 0.0, double ry = 0.0, double rz = 0.0)
{
  StiffnessQuery query;
  query.direction << x, y, z, rx, ry, rz;
  return query;
}

Eigen::VectorXd eigenvaluesOf(const Eigen::MatrixXd& symmetric)
{
  return Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (symmetric + symmetric.transpose()))
      .eigenvalues();
}

TEST(OptimalStiffness, WrenchInTheLeftNullSpaceIsTheGlobalMinimum)
{
  // Eq 16-17: with J^T w = 0 every joint meets Eq 20 (Eqs 22/24/26), p = 0, the gradient vanishes and the
  // Hessian is K_p^T K_p (positive semi-definite). A 4-joint chain has a 2-dimensional left null space.
  const Model model = kinematics::buildModel(randomChainUrdf(4, 81));
  const Chain chain(model, "mount", "tool");
  Workspace workspace(chain);
  std::mt19937 random(82);
  for (int trial = 0; trial < 10; ++trial)
  {
    const Eigen::VectorXd q = randomJointValues(4, 2.5, random);
    updateChain(chain, workspace, q);
    const Eigen::MatrixXd kernel = Eigen::FullPivLU<Eigen::MatrixXd>(workspace.jacobian.transpose()).kernel();
    ASSERT_EQ(kernel.cols(), 2);
    StiffnessQuery query;
    query.cartesianStiffness = randomCartesianStiffness(random);
    const Vector6 wrench = kernel * Eigen::Vector2d::Random();
    query.direction = query.cartesianStiffness.ldlt().solve(wrench);
    const Evaluation stiff = evaluate(chain, q, query);
    EXPECT_TRUE(stiff.report.stiff);
    EXPECT_NEAR(stiff.p, 0.0, 1e-24);
    EXPECT_LT(stiff.gradient.norm(), 1e-12);
    EXPECT_GT(eigenvaluesOf(stiff.hessian).minCoeff(), -1e-12);

    query.direction = randomVector6(random); // a generic direction: the joints carry torque
    const Evaluation generic = evaluate(chain, q, query);
    EXPECT_FALSE(generic.report.stiff);
    EXPECT_GT(generic.p, 1e-6);
  }
}

TEST(OptimalStiffnessAndCompliance, StretchedPlanarArm)
{
  // Stretched along x: r_j = (4 - j) e_x. Pushing along x, r x f = 0 (Eq 22a) and m = 0 (Eq 22b): p = 0, the
  // global minimum, with a positive semi-definite Hessian. Pushing along y, r x f = (4 - j) e_z is parallel
  // to every axis (Eq 33a) and m = 0 (Eq 33b): tau_j = 4 - j, p = (16 + 9 + 4 + 1) / 2 = 15, the global
  // maximum since tau_j = sum_{i>=j} cos phi_i <= 4 - j.
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  const Eigen::VectorXd stretched = Eigen::Vector4d::Zero();

  const Evaluation stiff = evaluate(chain, stretched, along(1, 0, 0));
  EXPECT_TRUE(stiff.report.stiff);
  // r x f = 0 is parallel to every axis, so the paper's compliance pattern (Eq 33) is met as well: the
  // patterns alone cannot tell this global minimum from a maximum; the value and the Hessian do.
  EXPECT_TRUE(stiff.report.compliant);
  EXPECT_NEAR(stiff.p, 0.0, 1e-28);
  EXPECT_LT(stiff.gradient.norm(), 1e-14);
  EXPECT_GT(eigenvaluesOf(stiff.hessian).minCoeff(), -1e-12);

  const Evaluation compliant = evaluate(chain, stretched, along(0, 1, 0));
  EXPECT_TRUE(compliant.report.compliant);
  EXPECT_FALSE(compliant.report.stiff);
  EXPECT_NEAR(compliant.p, 15.0, 1e-12);
  EXPECT_LT(compliant.gradient.norm(), 1e-12);
  EXPECT_LT(eigenvaluesOf(compliant.hessian).maxCoeff(), 1e-12);
  std::mt19937 random(91);
  Workspace workspace(chain);
  for (int trial = 0; trial < 200; ++trial)
  {
    updateChain(chain, workspace, randomJointValues(4, 3.0, random));
    EXPECT_LE(computeMetric(chain, workspace, along(0, 1, 0)), 15.0 + 1e-12);
  }

  // A bent arm meets neither: its joints carry torque against x and the passive stiffness does not vanish.
  const Evaluation bent = evaluate(chain, Eigen::Vector4d(0.3, 0.5, -0.4, 0.2), along(1, 0, 0));
  EXPECT_FALSE(bent.report.stiff);
  EXPECT_GT(bent.gradient.norm(), 1e-3);
}

TEST(OptimalStiffnessAndCompliance, MomentsCancelOrAddAtOneJoint)
{
  // One revolute joint about z with the tip 1 m out along x, pushed along y with a moment about z:
  // tau(theta) = cos(theta) + mz. With mz = -1 the force's moment and the moment cancel (Eq 24): stiff, p =
  // 0. With mz = +1 they point the same way (Eq 33, 35-36): compliant, p = 2 = max_theta (cos theta + 1)^2
  // / 2.
  const Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "link3", "tip");
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(1);

  const Evaluation cancelling = evaluate(chain, zero, along(0, 1, 0, 0, 0, -1));
  EXPECT_TRUE(cancelling.report.stiff);
  EXPECT_FALSE(cancelling.report.compliant);
  EXPECT_NEAR(cancelling.report.joints[0].forceMomentAlongAxis, 1.0, 1e-15);
  EXPECT_NEAR(cancelling.report.joints[0].momentAlongAxis, -1.0, 1e-15);
  EXPECT_NEAR(cancelling.report.joints[0].momentsOpposed, 0.5, 1e-15);
  EXPECT_NEAR(cancelling.p, 0.0, 1e-30);

  const Evaluation adding = evaluate(chain, zero, along(0, 1, 0, 0, 0, 1));
  EXPECT_TRUE(adding.report.compliant);
  EXPECT_FALSE(adding.report.stiff);
  EXPECT_NEAR(adding.p, 2.0, 1e-15);
  EXPECT_NEAR(adding.gradient[0], 0.0, 1e-15);
  EXPECT_NEAR(adding.hessian(0, 0), -2.0, 1e-14); // d2/dtheta2 (cos + 1)^2 / 2 = -2 at 0
}

TEST(OptimalStiffnessAndCompliance, PrismaticJointOfAPolarArm)
{
  // A joint about z, then a slide along the turned x axis, extended by rho. Pushing along x:
  // tau_turn = -rho sin(theta), tau_slide = cos(theta), p = (cos^2 theta + rho^2 sin^2 theta) / 2.
  // At theta = 0 the slide's axis is parallel to f (Eq 38) and r x f = 0 (Eq 33a): a maximum for rho < 1,
  // Hessian diag(rho^2 - 1, 0), but a minimum along theta for rho > 1. Pushing along z: f is orthogonal to
  // the slide (Eq 26) and r x f to the turning axis (Eq 22a): p = 0 everywhere. Pushing along y at theta = 0
  // meets Eq 26 but not Eq 22 (tau_turn = rho).
  const Model model = kinematics::buildModel(R"(<robot name="polar"><link name="base"/>
    <joint name="turn" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/>
      <limit lower="-3" upper="3" effort="1" velocity="1"/></joint><link name="arm"/>
    <joint name="slide" type="prismatic"><parent link="arm"/><child link="slider"/><axis xyz="1 0 0"/>
      <limit lower="0" upper="2" effort="1" velocity="1"/></joint><link name="slider"/></robot>)");
  const Chain chain(model, "base", "slider");
  const double rho = 0.5;

  const Evaluation compliant = evaluate(chain, Eigen::Vector2d(0.0, rho), along(1, 0, 0));
  EXPECT_TRUE(compliant.report.compliant);
  EXPECT_NEAR(compliant.report.joints[1].forceAlongAxis, 1.0, 1e-15);
  EXPECT_NEAR(compliant.p, 0.5, 1e-15);
  EXPECT_LT(compliant.gradient.norm(), 1e-15);
  EXPECT_LT((compliant.hessian - Eigen::Vector2d(rho * rho - 1.0, 0.0).asDiagonal().toDenseMatrix()).norm(),
            1e-14);

  // The same pattern with rho > 1 is a minimum along theta (d2p/dtheta2 = rho^2 - 1 > 0): the compliance
  // conditions are a check, not a proof of a maximum.
  const double longRho = 1.5;
  const Evaluation saddle = evaluate(chain, Eigen::Vector2d(0.0, longRho), along(1, 0, 0));
  EXPECT_TRUE(saddle.report.compliant);
  EXPECT_LT(saddle.gradient.norm(), 1e-15);
  EXPECT_NEAR(saddle.hessian(0, 0), longRho * longRho - 1.0, 1e-14);

  const double theta = 0.3;
  const Evaluation turned = evaluate(chain, Eigen::Vector2d(theta, rho), along(1, 0, 0));
  EXPECT_FALSE(turned.report.compliant);
  EXPECT_NEAR(turned.p, 0.5 * (std::pow(std::cos(theta), 2) + rho * rho * std::pow(std::sin(theta), 2)),
              1e-15);

  const Evaluation stiff = evaluate(chain, Eigen::Vector2d(theta, rho), along(0, 0, 1));
  EXPECT_TRUE(stiff.report.stiff);
  EXPECT_NEAR(stiff.p, 0.0, 1e-30);

  const Evaluation sideways = evaluate(chain, Eigen::Vector2d(0.0, rho), along(0, 1, 0));
  EXPECT_FALSE(sideways.report.stiff);
  EXPECT_FALSE(sideways.report.compliant);
  EXPECT_NEAR(sideways.report.joints[1].forceAlongAxis, 0.0, 1e-15);
  EXPECT_NEAR(sideways.report.joints[0].torque, rho, 1e-15);
}
} // namespace
} // namespace nao::stiffness::test
