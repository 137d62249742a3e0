// Eq 42-44 (solved by HqpSolver) against the Karush-Kuhn-Tucker system of Gauss' principle solved densely,
// the singular case, and the velocity-level stiffness task of Tools/TaskStack/Stiffness, which is Eq 42 at
// rest over k_d.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/TaskStack/Stiffness/StiffnessTask.h"
#include "Util/StiffnessTool/Redundancy.h"

#include <Eigen/LU>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Vector6;
TEST(Redundancy, TorqueIsAlphaGradientMinusDamping)
{
  const Eigen::Vector3d gradient(1.0, -2.0, 0.5), qdot(0.1, 0.2, -0.3);
  Eigen::VectorXd torque(3);
  computeRedundancyTorque(gradient, qdot, {-0.5, 2.0}, torque);
  EXPECT_LT((torque - Eigen::Vector3d(-0.5 - 0.2, 1.0 - 0.4, -0.25 + 0.6)).norm(), 1e-15);
}

TEST(Redundancy, AccelerationSolvesGaussPrinciple)
{
  // minimise 1/2 (qdd - M^-1 tau)^T M (qdd - M^-1 tau) subject to J_h qdd = b:
  //   [ M   J_h^T ] [ qdd     ]   [ tau ]
  //   [ J_h  0    ] [ -lambda ] = [ b   ],   b = -K_d J_h qdot - K_p e_h - (Jdot qdot)_h.
  const kinematics::Model model = kinematics::buildModel(randomChainUrdf(7, 121));
  const Chain chain(model, "mount", "tool");
  const int n = chain.jointCount();
  Workspace workspace(chain);
  RedundancyWorkspace scratch(chain);
  std::mt19937 random(122);
  for (int trial = 0; trial < 10; ++trial)
  {
    updateChain(chain, workspace, randomJointValues(n, 2.0, random));
    const Eigen::VectorXd qdot = randomJointValues(n, 1.0, random), tau = randomJointValues(n, 3.0, random);
    Eigen::MatrixXd a = Eigen::MatrixXd::Random(n, n);
    const Eigen::MatrixXd inertia = a * a.transpose() + 0.2 * Eigen::MatrixXd::Identity(n, n);
    const Vector6 error = randomVector6(random) * 0.01;
    EndpointHold hold;
    hold.rows = {true, false, true, true, true, false};
    Eigen::VectorXd acceleration(n);
    ASSERT_TRUE(computeNullSpaceAcceleration(chain, workspace, scratch, inertia, qdot, error, tau, hold,
                                             acceleration));

    const int rows[] = {0, 2, 3, 4};
    const int m = 4;
    const Vector6 velocityProduct = kinematics::computeJacobianRateTimesVelocity(workspace.jacobian, qdot);
    Eigen::MatrixXd kkt = Eigen::MatrixXd::Zero(n + m, n + m);
    Eigen::VectorXd right(n + m);
    kkt.topLeftCorner(n, n) = inertia;
    right.head(n) = tau;
    for (int r = 0; r < m; ++r)
    {
      const auto row = workspace.jacobian.row(rows[r]);
      kkt.block(n + r, 0, 1, n) = row;
      kkt.block(0, n + r, n, 1) = row.transpose();
      right[n + r] =
          -hold.damping * row.dot(qdot) - hold.stiffness * error[rows[r]] - velocityProduct[rows[r]];
    }
    const Eigen::VectorXd expected = kkt.fullPivLu().solve(right).head(n);
    EXPECT_LT((acceleration - expected).norm(), 1e-10 * (1.0 + expected.norm()));

    // Nothing held: qdd = M^-1 tau.
    hold.rows = {};
    ASSERT_TRUE(computeNullSpaceAcceleration(chain, workspace, scratch, inertia, qdot, error, tau, hold,
                                             acceleration));
    const Eigen::VectorXd free = inertia.fullPivLu().solve(tau);
    EXPECT_LT((acceleration - free).norm(), 1e-10 * (1.0 + free.norm()));
  }
}

TEST(Redundancy, TheStiffnessTaskIsEq42AtRestOverTheDamping)
{
  // The endpoint task above the stiffness task (joint velocities) against Eq 42 with M = I, qdot = 0 and the
  // endpoint on its target: x = qdd / k_d.
  const kinematics::Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  Workspace workspace(chain);
  RedundancyWorkspace scratch(chain);
  taskstack::StiffnessTask stiffnessTask(chain, 4);
  taskstack::EndpointTask endpointTask(chain, 4);
  taskstack::HqpSolver solver({4, 2, 6, 0});
  Eigen::MatrixXd endpointRows(2, 4), stiffnessRows(4, 4);
  Eigen::VectorXd endpointTargets(2), stiffnessTargets(4), gradient(4), torque(4), acceleration(4);
  const Eigen::MatrixXd none(0, 4);
  const Eigen::VectorXd noBound(0), zero = Eigen::VectorXd::Zero(4);
  EndpointHold hold;
  hold.rows = {true, true, false, false, false, false};
  std::mt19937 random(42);
  for (int trial = 0; trial < 20; ++trial)
  {
    updateChain(chain, workspace, randomJointValues(4, 2.5, random));
    const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
    const RedundancyParameters parameters{trial % 2 == 0 ? -3.0 : 2.0, 1.5};
    ASSERT_EQ(endpointTask.fillRows(chain, workspace, Vector6::Zero(), hold.rows, 20.0, endpointRows,
                                    endpointTargets),
              2);
    ASSERT_EQ(stiffnessTask.fillRows(chain, workspace, query, parameters, stiffnessRows, stiffnessTargets),
              4);
    solver.clear(4);
    solver.addLevel(endpointRows, endpointTargets, none, noBound, noBound);
    solver.addLevel(stiffnessRows, stiffnessTargets, none, noBound, noBound);
    ASSERT_EQ(solver.solve(), taskstack::HqpStatus::optimal);

    computeMetricGradient(chain, workspace, query, gradient);
    computeRedundancyTorque(gradient, zero, parameters, torque);
    ASSERT_TRUE(computeNullSpaceAcceleration(chain, workspace, scratch, Eigen::MatrixXd::Identity(4, 4), zero,
                                             Vector6::Zero(), torque, hold, acceleration));
    EXPECT_LT((solver.solution() - acceleration / parameters.jointDamping).norm(),
              1e-9 * std::max(1.0, acceleration.norm()));
  }
}

TEST(Redundancy, HeldRowsTheChainCannotMoveAreSingular)
{
  // The planar arm cannot move its tip along z.
  const kinematics::Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  const Chain chain(model, "base", "tip");
  Workspace workspace(chain);
  RedundancyWorkspace scratch(chain);
  updateChain(chain, workspace, Eigen::Vector4d(0.3, 0.4, 0.5, 0.6));
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(4);
  Eigen::VectorXd acceleration = Eigen::VectorXd::Constant(4, 7.0);
  EndpointHold hold; // x, y, z
  EXPECT_FALSE(computeNullSpaceAcceleration(chain, workspace, scratch, Eigen::MatrixXd::Identity(4, 4), zero,
                                            Vector6::Zero(), zero, hold, acceleration));
  EXPECT_EQ(acceleration, Eigen::VectorXd::Constant(4, 7.0));
  EXPECT_LT(heldRowsConditioning(scratch, 3), 1e-15);
  hold.rows = {true, true, false, false, false, false};
  EXPECT_TRUE(computeNullSpaceAcceleration(chain, workspace, scratch, Eigen::MatrixXd::Identity(4, 4), zero,
                                           Vector6::Zero(), zero, hold, acceleration));
  EXPECT_LT(acceleration.norm(), 1e-15);
}
} // namespace
} // namespace nao::stiffness::test
