// The stiffness task in the task layer (Tools/Optimization/TaskStack): on the redundant 4-link planar arm with
// its endpoint task on the level above, p falls for alpha < 0 and rises for alpha > 0 along x, y and xy while the
// endpoint stays put; the endpoint task keeps its priority however heavily the stiffness task is weighted (and
// loses it when both share a level); the stack's answer is Eq 42's null-space term (M = I) of Redundancy.h.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Util/StiffnessTool/Tests/StiffnessTask.h"

#include <Eigen/QR>
#include <cmath>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Matrix6;
using kinematics::Vector6;
using optimization::TaskStack;
using optimization::TaskStackStatus;

constexpr std::array<bool, 6> holdXY{true, true, false, false, false, false};

struct PlanarArm
{
  kinematics::Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  Chain chain{model, "base", "tip"};
  Workspace workspace{chain};
};

Vector6 direction(const char* name)
{
  const double d = std::sqrt(0.5);
  return std::string(name) == "x"   ? Vector6::Unit(0)
         : std::string(name) == "y" ? Vector6::Unit(1)
                                    : Vector6(d * (Vector6::Unit(0) + Vector6::Unit(1)));
}

TEST(StiffnessTask, SteersPTheRightWayWhileTheEndpointTaskHoldsTheEndpoint)
{
  // Joint velocities from the stack, integrated over 10 s in 1 ms steps (explicit Euler, as a motion thread
  // would step them); the endpoint task's feedback (gain 50/s) takes back the integration's drift.
  PlanarArm arm;
  const double step = 0.001, gain = 50.0;
  for (const char* name : {"x", "y", "xy"})
    for (const double alpha : {-5.0, 5.0})
    {
      SCOPED_TRACE(std::string(name) + (alpha < 0 ? " stiff" : " compliant"));
      TaskStack stack({4, 2, 8, 0}, 1e-12);
      StiffnessTask stiffnessTask(arm.chain, 4);
      EndpointTask endpointTask(arm.chain, 4);
      StiffnessQuery query;
      query.direction = direction(name);
      const RedundancyParameters parameters{alpha, 4.0};
      Eigen::VectorXd q = Eigen::Vector4d(2.0, -1.0, -1.0, -1.0);
      updateChain(arm.chain, arm.workspace, q);
      const Eigen::Vector3d target = arm.workspace.tipPoint;
      const Eigen::Matrix3d targetRotation = arm.workspace.tipRotation;
      const double start = computeMetric(arm.chain, arm.workspace, query);
      double drift = 0.0, worstPriority = 0.0;
      for (int i = 0; i < 10000; ++i)
      {
        updateChain(arm.chain, arm.workspace, q);
        drift = std::max(drift, (arm.workspace.tipPoint - target).norm());
        stack.clear(4);
        const Vector6 error = endpointError(arm.workspace, target, targetRotation);
        ASSERT_TRUE(endpointTask.add(stack, 0, arm.chain, arm.workspace, error, holdXY, gain));
        ASSERT_TRUE(stiffnessTask.add(stack, 1, arm.chain, arm.workspace, query, parameters));
        ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
        worstPriority = std::max(worstPriority, stack.rowViolations().head(2).cwiseAbs().maxCoeff());
        q += step * stack.solution();
      }
      updateChain(arm.chain, arm.workspace, q);
      const double end = computeMetric(arm.chain, arm.workspace, query);
      if (alpha < 0)
      {
        EXPECT_LT(end, 0.75 * start);
      }
      else
      {
        EXPECT_GT(end, 1.1 * start);
      }
      EXPECT_LT(drift, 1e-5) << "m";
      EXPECT_LT(worstPriority, 1e-9) << "the endpoint rows are met exactly in every solve";
      std::cout << name << (alpha < 0 ? " stiff    " : " compliant") << ": p " << start << " -> " << end
                << ", max endpoint drift " << drift << " m\n";
    }
}

TEST(StiffnessTask, TheEndpointTaskKeepsPriorityWhateverTheWeight)
{
  PlanarArm arm;
  const Eigen::VectorXd q = Eigen::Vector4d(2.0, -1.0, -1.0, -1.0);
  updateChain(arm.chain, arm.workspace, q);
  StiffnessQuery query;
  query.direction = direction("y");
  const RedundancyParameters parameters{-5.0, 4.0};
  TaskStack stack({4, 2, 8, 0}, 1e-12);
  StiffnessTask stiffnessTask(arm.chain, 4);
  EndpointTask endpointTask(arm.chain, 4);
  const Vector6 error = Vector6::Zero();
  for (const double weight : {1.0, 1e6})
  {
    stack.clear(4);
    endpointTask.add(stack, 0, arm.chain, arm.workspace, error, holdXY, 50.0);
    stiffnessTask.add(stack, 1, arm.chain, arm.workspace, query, parameters, weight);
    ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
    const Eigen::Vector2d endpointVelocity = arm.workspace.jacobian.topRows(2) * stack.solution();
    EXPECT_LT(endpointVelocity.norm(), 1e-9) << "weight " << weight;
  }
  // On one level the two trade off: the pull moves the endpoint.
  stack.clear(4);
  endpointTask.add(stack, 0, arm.chain, arm.workspace, error, holdXY, 50.0);
  stiffnessTask.add(stack, 0, arm.chain, arm.workspace, query, parameters);
  ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
  EXPECT_GT((arm.workspace.jacobian.topRows(2) * stack.solution()).norm(), 0.1);
}

TEST(StiffnessTask, TheStackGivesEq42sNullSpaceTerm)
{
  // Independently: x = J_h^+ b + (I - J_h^+ J_h) (alpha / k_d) dp/dq from a complete orthogonal decomposition,
  // and, with the endpoint at rest, Redundancy.h's Eq 42 (M = I, qdot = 0, no error) divided by k_d.
  PlanarArm arm;
  std::mt19937 random(42);
  for (int trial = 0; trial < 20; ++trial)
  {
    const Eigen::VectorXd q = randomJointValues(4, 2.5, random);
    updateChain(arm.chain, arm.workspace, q);
    const StiffnessQuery query{randomVector6(random), randomCartesianStiffness(random)};
    const RedundancyParameters parameters{trial % 2 == 0 ? -3.0 : 2.0, 1.5};
    Vector6 error = Vector6::Zero();
    error.head<2>() = 1e-3 * Eigen::Vector2d::Random();
    TaskStack stack({4, 2, 8, 0}, 1e-12);
    StiffnessTask stiffnessTask(arm.chain, 4);
    EndpointTask endpointTask(arm.chain, 4);
    stack.clear(4);
    endpointTask.add(stack, 0, arm.chain, arm.workspace, error, holdXY, 20.0);
    stiffnessTask.add(stack, 1, arm.chain, arm.workspace, query, parameters);
    ASSERT_EQ(stack.solve(), TaskStackStatus::solved);

    Eigen::VectorXd gradient(4);
    computeMetricGradient(arm.chain, arm.workspace, query, gradient);
    const Eigen::MatrixXd held = arm.workspace.jacobian.topRows(2);
    const Eigen::MatrixXd pseudoInverse = held.completeOrthogonalDecomposition().pseudoInverse();
    const Eigen::Vector2d b = -20.0 * error.head<2>();
    const Eigen::VectorXd pull = (parameters.alpha / parameters.jointDamping) * gradient;
    const Eigen::VectorXd expected =
        pseudoInverse * b + (Eigen::MatrixXd::Identity(4, 4) - pseudoInverse * held) * pull;
    EXPECT_LT((stack.solution() - expected).norm(), 1e-8 * std::max(1.0, expected.norm()));
    EXPECT_NEAR(stiffnessTask.metric(), computeMetric(arm.chain, arm.workspace, query), 1e-12);

    // Eq 42 as Redundancy.h computes it, endpoint at rest (b = 0).
    stack.clear(4);
    endpointTask.add(stack, 0, arm.chain, arm.workspace, Vector6::Zero(), holdXY, 20.0);
    stiffnessTask.add(stack, 1, arm.chain, arm.workspace, query, parameters);
    ASSERT_EQ(stack.solve(), TaskStackStatus::solved);
    Eigen::VectorXd torque(4), acceleration(4);
    computeRedundancyTorque(gradient, Eigen::VectorXd::Zero(4), parameters, torque);
    EndpointHold hold;
    hold.rows = holdXY;
    RedundancyWorkspace scratch(arm.chain);
    ASSERT_TRUE(computeNullSpaceAcceleration(arm.chain, arm.workspace, scratch,
                                             Eigen::MatrixXd::Identity(4, 4), Eigen::VectorXd::Zero(4),
                                             Vector6::Zero(), torque, hold, acceleration));
    EXPECT_LT((stack.solution() - acceleration / parameters.jointDamping).norm(),
              1e-8 * std::max(1.0, acceleration.norm()));
  }
}

TEST(StiffnessTask, ColumnsMapTheChainIntoALargerProblemAndBadMapsAreNamed)
{
  // The chain's joints as columns 5..2 of a 6-variable stack (reversed, with unrelated columns): the same answer
  // as the chain alone, and zero on the columns no task touches.
  PlanarArm arm;
  updateChain(arm.chain, arm.workspace, Eigen::Vector4d(2.0, -1.0, -1.0, -1.0));
  StiffnessQuery query;
  query.direction = direction("xy");
  const RedundancyParameters parameters{-5.0, 4.0};
  const std::vector<int> columns = {5, 4, 3, 2};
  TaskStack alone({4, 2, 8, 0}, 1e-12), mapped({6, 2, 8, 0}, 1e-12);
  StiffnessTask aloneTask(arm.chain, 4), mappedTask(arm.chain, 6, columns);
  EndpointTask aloneHold(arm.chain, 4), mappedHold(arm.chain, 6, columns);
  alone.clear(4);
  mapped.clear(6);
  aloneHold.add(alone, 0, arm.chain, arm.workspace, Vector6::Zero(), holdXY, 50.0);
  aloneTask.add(alone, 1, arm.chain, arm.workspace, query, parameters);
  mappedHold.add(mapped, 0, arm.chain, arm.workspace, Vector6::Zero(), holdXY, 50.0);
  mappedTask.add(mapped, 1, arm.chain, arm.workspace, query, parameters);
  ASSERT_EQ(alone.solve(), TaskStackStatus::solved);
  ASSERT_EQ(mapped.solve(), TaskStackStatus::solved);
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(mapped.solution()[columns[static_cast<std::size_t>(i)]], alone.solution()[i], 1e-10);
  EXPECT_NEAR(mapped.solution()[0], 0.0, 1e-10);
  EXPECT_NEAR(mapped.solution()[1], 0.0, 1e-10);

  EXPECT_THROW(StiffnessTask(arm.chain, 4, std::vector<int>{0, 1, 2}), StiffnessError);
  try
  {
    StiffnessTask(arm.chain, 4, std::vector<int>{0, 1, 2, 7});
    FAIL() << "no error";
  }
  catch (const StiffnessError& error)
  {
    EXPECT_STREQ(error.what(), "stiffness task: joint 'j4' maps to column 7, the stack has 4 variables");
  }
  TaskStack stack({4, 2, 8, 0});
  StiffnessTask task(arm.chain, 4);
  stack.clear(4);
  EXPECT_FALSE(task.add(stack, 0, arm.chain, arm.workspace, query, {-1.0, 0.0})) << "k_d must be positive";
  EndpointTask hold(arm.chain, 4);
  EXPECT_FALSE(hold.add(stack, 0, arm.chain, arm.workspace, Vector6::Zero(), {}, 50.0)) << "no row held";
}
} // namespace
} // namespace nao::stiffness::test
