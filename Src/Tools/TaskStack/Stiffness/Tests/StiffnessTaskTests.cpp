// The stiffness and endpoint tasks on HqpSolver (exact mode): on the redundant 4-link planar arm with the
// endpoint task on the level above, p falls for alpha < 0 and rises for alpha > 0 along x, y and xy while the
// endpoint stays put; the answer is J_h^+ b + (I - J_h^+ J_h) (alpha / k_d) dp/dq with J_h^+ from an SVD; the
// endpoint task keeps its priority however the stiffness rows are scaled (and loses it on a shared level); a
// joint-rate bound above both limits the pull; column maps place a chain in a larger problem.
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"
#include "Tools/TaskStack/HqpSolver.h"
#include "Tools/TaskStack/Stiffness/StiffnessTask.h"

#include <Eigen/Geometry>
#include <Eigen/SVD>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>

namespace nao::taskstack::test
{
namespace
{
using kinematics::Vector6;
using stiffness::RedundancyParameters;
using stiffness::StiffnessQuery;
using stiffness::test::dataPath;

constexpr std::array<bool, 6> holdXY{true, true, false, false, false, false};

struct PlanarArm
{
  kinematics::Model model = kinematics::loadModel(dataPath("planar4.urdf"));
  stiffness::Chain chain{model, "base", "tip"};
  stiffness::Workspace workspace{chain};
};

Vector6 direction(const std::string& name)
{
  const double d = std::sqrt(0.5);
  return name == "x"   ? Vector6::Unit(0)
         : name == "y" ? Vector6::Unit(1)
                       : Vector6(d * (Vector6::Unit(0) + Vector6::Unit(1)));
}

/// The tip's deviation from a target: position difference and the rotation vector of R_tip R_target^T.
Vector6 deviation(const stiffness::Workspace& workspace, const Eigen::Vector3d& point,
                  const Eigen::Matrix3d& rotation)
{
  const Eigen::AngleAxisd turn(Eigen::Matrix3d(workspace.tipRotation * rotation.transpose()));
  Vector6 error;
  error << workspace.tipPoint - point, turn.angle() * turn.axis();
  return error;
}

/// Moore-Penrose inverse from a full SVD (singular values below 1e-12 of the largest count as zero).
Eigen::MatrixXd pseudoInverse(const Eigen::MatrixXd& a)
{
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeFullU | Eigen::ComputeFullV);
  const Eigen::VectorXd& s = svd.singularValues();
  Eigen::MatrixXd inverse = Eigen::MatrixXd::Zero(a.cols(), a.rows());
  for (Eigen::Index i = 0; i < s.size(); ++i)
    if (s[i] > 1e-12 * s[0]) inverse += svd.matrixV().col(i) * svd.matrixU().col(i).transpose() / s[i];
  return inverse;
}

/// Rows of both tasks and an equality-only level per call of add().
struct Rows
{
  explicit Rows(int variables) : a(Eigen::MatrixXd::Zero(6, variables)), b(Eigen::VectorXd::Zero(6)) {}
  bool add(HqpSolver& solver, int count) const
  {
    const Eigen::MatrixXd none(0, a.cols());
    const Eigen::VectorXd noBound(0);
    return count > 0 && solver.addLevel(a.topRows(count), b.head(count), none, noBound, noBound);
  }
  Eigen::MatrixXd a;
  Eigen::VectorXd b;
};

TEST(StiffnessTask, SteersPTheRightWayWhileTheEndpointTaskHoldsTheEndpoint)
{
  // Joint velocities from the solver, integrated over 10 s in 1 ms steps (explicit Euler, as a motion thread
  // would step them); the endpoint task's feedback (gain 50/s) takes back the integration's drift.
  PlanarArm arm;
  const double step = 0.001, gain = 50.0;
  for (const std::string name : {"x", "y", "xy"})
    for (const double alpha : {-5.0, 5.0})
    {
      SCOPED_TRACE(name + (alpha < 0 ? " stiff" : " compliant"));
      HqpSolver solver({4, 2, 6, 0});
      StiffnessTask stiffnessTask(arm.chain, 4);
      EndpointTask endpointTask(arm.chain, 4);
      Rows endpointRows(4), stiffnessRows(4);
      StiffnessQuery query;
      query.direction = direction(name);
      const RedundancyParameters parameters{alpha, 4.0};
      Eigen::VectorXd q = Eigen::Vector4d(2.0, -1.0, -1.0, -1.0);
      stiffness::updateChain(arm.chain, arm.workspace, q);
      const Eigen::Vector3d target = arm.workspace.tipPoint;
      const Eigen::Matrix3d targetRotation = arm.workspace.tipRotation;
      const double start = stiffness::computeMetric(arm.chain, arm.workspace, query);
      double drift = 0.0, worstPriority = 0.0;
      for (int i = 0; i < 10000; ++i)
      {
        stiffness::updateChain(arm.chain, arm.workspace, q);
        drift = std::max(drift, (arm.workspace.tipPoint - target).norm());
        solver.clear(4);
        const Vector6 error = deviation(arm.workspace, target, targetRotation);
        const int held = endpointTask.fillRows(arm.chain, arm.workspace, error, holdXY, gain, endpointRows.a,
                                               endpointRows.b);
        const int pulled = stiffnessTask.fillRows(arm.chain, arm.workspace, query, parameters,
                                                  stiffnessRows.a, stiffnessRows.b);
        ASSERT_EQ(held, 2);
        ASSERT_EQ(pulled, 4);
        ASSERT_TRUE(endpointRows.add(solver, held) && stiffnessRows.add(solver, pulled));
        ASSERT_EQ(solver.solve(), HqpStatus::optimal);
        worstPriority = std::max(worstPriority, solver.slackNorms()[0]);
        q += step * solver.solution();
      }
      stiffness::updateChain(arm.chain, arm.workspace, q);
      const double end = stiffness::computeMetric(arm.chain, arm.workspace, query);
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

TEST(StiffnessTask, TheSolverGivesThePullInTheEndpointTasksNullSpace)
{
  // Independently: x = J_h^+ b + (I - J_h^+ J_h) (alpha / k_d) dp/dq, J_h^+ from an SVD, b = -gain e_h.
  PlanarArm arm;
  std::mt19937 random(42);
  HqpSolver solver({4, 2, 6, 0});
  StiffnessTask stiffnessTask(arm.chain, 4);
  EndpointTask endpointTask(arm.chain, 4);
  Rows endpointRows(4), stiffnessRows(4);
  for (int trial = 0; trial < 20; ++trial)
  {
    const Eigen::VectorXd q = stiffness::test::randomJointValues(4, 2.5, random);
    stiffness::updateChain(arm.chain, arm.workspace, q);
    const StiffnessQuery query{stiffness::test::randomVector6(random),
                               stiffness::test::randomCartesianStiffness(random)};
    const RedundancyParameters parameters{trial % 2 == 0 ? -3.0 : 2.0, 1.5};
    Vector6 error = Vector6::Zero();
    error.head<2>() = 1e-3 * Eigen::Vector2d::Random();
    solver.clear(4);
    ASSERT_TRUE(endpointRows.add(solver, endpointTask.fillRows(arm.chain, arm.workspace, error, holdXY, 20.0,
                                                               endpointRows.a, endpointRows.b)));
    ASSERT_TRUE(stiffnessRows.add(solver, stiffnessTask.fillRows(arm.chain, arm.workspace, query, parameters,
                                                                 stiffnessRows.a, stiffnessRows.b)));
    ASSERT_EQ(solver.solve(), HqpStatus::optimal);

    Eigen::VectorXd gradient(4);
    const double p = stiffness::computeMetricGradient(arm.chain, arm.workspace, query, gradient);
    const Eigen::MatrixXd held = arm.workspace.jacobian.topRows(2);
    const Eigen::MatrixXd inverse = pseudoInverse(held);
    const Eigen::Vector2d b = -20.0 * error.head<2>();
    const Eigen::VectorXd pull = (parameters.alpha / parameters.jointDamping) * gradient;
    const Eigen::VectorXd expected = inverse * b + (Eigen::MatrixXd::Identity(4, 4) - inverse * held) * pull;
    EXPECT_LT((solver.solution() - expected).norm(), 1e-9 * std::max(1.0, expected.norm()))
        << "trial " << trial;
    EXPECT_NEAR(stiffnessTask.metric(), p, 1e-12 * std::max(1.0, p));
    EXPECT_LT((stiffnessTask.gradient() - gradient).norm(), 1e-12 * std::max(1.0, gradient.norm()));
  }
}

TEST(StiffnessTask, TheEndpointTaskKeepsPriorityWhateverTheScale)
{
  // The solver has no weights; scaling the stiffness rows by sqrt(w) is what a weight would do.
  PlanarArm arm;
  stiffness::updateChain(arm.chain, arm.workspace, Eigen::Vector4d(2.0, -1.0, -1.0, -1.0));
  StiffnessQuery query;
  query.direction = direction("y");
  const RedundancyParameters parameters{-5.0, 4.0};
  HqpSolver solver({4, 2, 6, 0});
  StiffnessTask stiffnessTask(arm.chain, 4);
  EndpointTask endpointTask(arm.chain, 4);
  Rows endpointRows(4), stiffnessRows(4);
  ASSERT_EQ(endpointTask.fillRows(arm.chain, arm.workspace, Vector6::Zero(), holdXY, 50.0, endpointRows.a,
                                  endpointRows.b),
            2);
  ASSERT_EQ(
      stiffnessTask.fillRows(arm.chain, arm.workspace, query, parameters, stiffnessRows.a, stiffnessRows.b),
      4);
  for (const double weight : {1.0, 1e6})
  {
    Rows scaled = stiffnessRows;
    scaled.a *= std::sqrt(weight);
    scaled.b *= std::sqrt(weight);
    solver.clear(4);
    endpointRows.add(solver, 2);
    scaled.add(solver, 4);
    ASSERT_EQ(solver.solve(), HqpStatus::optimal);
    const Eigen::Vector2d endpointVelocity = arm.workspace.jacobian.topRows(2) * solver.solution();
    EXPECT_LT(endpointVelocity.norm(), 1e-9) << "weight " << weight;
    EXPECT_GT(solver.solution().norm(), 0.1) << "the pull acts in the null space";
  }
  // On one level the two trade off: the pull moves the endpoint.
  Rows shared(4);
  shared.a.resize(6, 4);
  shared.a << endpointRows.a.topRows(2), stiffnessRows.a.topRows(4);
  shared.b << endpointRows.b.head(2), stiffnessRows.b.head(4);
  solver.clear(4);
  shared.add(solver, 6);
  ASSERT_EQ(solver.solve(), HqpStatus::optimal);
  EXPECT_GT((arm.workspace.jacobian.topRows(2) * solver.solution()).norm(), 0.1);
}

TEST(StiffnessTask, AJointRateBoundAboveBothLimitsThePull)
{
  // Level 0: |x_k| <= v (inequality rows, e.g. a velocity damper toward joint limits); level 1: the endpoint;
  // level 2: the stiffness pull. A loose bound changes nothing; a tight one holds and the endpoint still
  // stays.
  PlanarArm arm;
  stiffness::updateChain(arm.chain, arm.workspace, Eigen::Vector4d(2.0, -1.0, -1.0, -1.0));
  StiffnessQuery query;
  query.direction = direction("xy");
  const RedundancyParameters parameters{-5.0, 4.0};
  StiffnessTask stiffnessTask(arm.chain, 4);
  EndpointTask endpointTask(arm.chain, 4);
  Rows endpointRows(4), stiffnessRows(4);
  endpointTask.fillRows(arm.chain, arm.workspace, Vector6::Zero(), holdXY, 50.0, endpointRows.a,
                        endpointRows.b);
  stiffnessTask.fillRows(arm.chain, arm.workspace, query, parameters, stiffnessRows.a, stiffnessRows.b);
  HqpSolver solver({4, 3, 6, 4});
  const auto solveWithBound = [&](double bound) -> Eigen::VectorXd
  {
    solver.clear(4);
    const Eigen::VectorXd limit = Eigen::VectorXd::Constant(4, bound);
    EXPECT_TRUE(solver.addLevel(Eigen::MatrixXd(0, 4), Eigen::VectorXd(0), Eigen::MatrixXd::Identity(4, 4),
                                -limit, limit));
    endpointRows.add(solver, 2);
    stiffnessRows.add(solver, 4);
    EXPECT_EQ(solver.solve(), HqpStatus::optimal);
    return solver.solution();
  };
  solver.clear(4);
  endpointRows.add(solver, 2);
  stiffnessRows.add(solver, 4);
  ASSERT_EQ(solver.solve(), HqpStatus::optimal);
  const Eigen::VectorXd free = solver.solution();
  const double freeSlack = solver.slackNorms()[1];
  const double largest = free.lpNorm<Eigen::Infinity>();
  EXPECT_LT((solveWithBound(2.0 * largest) - free).norm(), 1e-9 * free.norm());

  const Eigen::VectorXd bounded = solveWithBound(0.5 * largest);
  EXPECT_LE(bounded.lpNorm<Eigen::Infinity>(), 0.5 * largest * (1.0 + 1e-12));
  EXPECT_NEAR(solver.slackNorms()[0], 0.0, 1e-12);
  EXPECT_LT(solver.slackNorms()[1], 1e-9) << "the endpoint rows are still met";
  EXPECT_GT(solver.slackNorms()[2], freeSlack + 1e-6) << "the pull is cut";
  EXPECT_GT(bounded.dot(free), 0.0) << "and still points the same way";
}

TEST(StiffnessTask, ColumnsMapTheChainIntoALargerProblemAndBadInputIsRefused)
{
  // A 7-joint spatial chain as columns 0, 1, 2, 4, 5, 6, 8 of 9 variables, five endpoint rows held: the
  // chain's columns get the closed form, the columns no task touches stay 0 (least norm).
  const kinematics::Model model = kinematics::buildModel(stiffness::test::randomChainUrdf(7, 111));
  const stiffness::Chain chain(model, "mount", "tool");
  stiffness::Workspace workspace(chain);
  std::mt19937 random(112);
  const std::vector<int> columns = {0, 1, 2, 4, 5, 6, 8};
  StiffnessTask stiffnessTask(chain, 9, columns);
  EndpointTask endpointTask(chain, 9, columns);
  Eigen::MatrixXd endpointRows(6, 9), stiffnessRows(7, 9);
  Eigen::VectorXd endpointTargets(6), stiffnessTargets(7);
  HqpSolver solver({9, 2, 12, 0});
  const std::array<bool, 6> held{true, true, true, true, false, true};
  const RedundancyParameters parameters{-0.5, 1.0};
  for (int trial = 0; trial < 10; ++trial)
  {
    stiffness::updateChain(chain, workspace, stiffness::test::randomJointValues(7, 2.0, random));
    const StiffnessQuery query{stiffness::test::randomVector6(random),
                               stiffness::test::randomCartesianStiffness(random)};
    const Vector6 error = 1e-3 * stiffness::test::randomVector6(random);
    ASSERT_EQ(endpointTask.fillRows(chain, workspace, error, held, 10.0, endpointRows, endpointTargets), 5);
    ASSERT_EQ(stiffnessTask.fillRows(chain, workspace, query, parameters, stiffnessRows, stiffnessTargets),
              7);
    solver.clear(9);
    const Eigen::MatrixXd none(0, 9);
    const Eigen::VectorXd noBound(0);
    ASSERT_TRUE(solver.addLevel(endpointRows.topRows(5), endpointTargets.head(5), none, noBound, noBound));
    ASSERT_TRUE(solver.addLevel(stiffnessRows, stiffnessTargets, none, noBound, noBound));
    ASSERT_EQ(solver.solve(), HqpStatus::optimal);

    Eigen::MatrixXd jh(5, 7);
    Eigen::VectorXd b(5);
    for (int r = 0, row = 0; r < 6; ++r)
      if (held[static_cast<std::size_t>(r)])
      {
        jh.row(row) = workspace.jacobian.row(r);
        b[row++] = -10.0 * error[r];
      }
    const Eigen::MatrixXd inverse = pseudoInverse(jh);
    const Eigen::VectorXd expected = inverse * b + (Eigen::MatrixXd::Identity(7, 7) - inverse * jh) *
                                                       (parameters.alpha / parameters.jointDamping) *
                                                       stiffnessTask.gradient();
    for (int i = 0; i < 7; ++i)
      EXPECT_NEAR(solver.solution()[columns[static_cast<std::size_t>(i)]], expected[i],
                  1e-9 * std::max(1.0, expected.norm()))
          << "trial " << trial << " joint " << i;
    EXPECT_NEAR(solver.solution()[3], 0.0, 1e-12);
    EXPECT_NEAR(solver.solution()[7], 0.0, 1e-12);
  }

  PlanarArm arm;
  EXPECT_THROW(StiffnessTask(arm.chain, 4, std::vector<int>{0, 1, 2}), stiffness::StiffnessError);
  try
  {
    EndpointTask(arm.chain, 4, std::vector<int>{0, 1, 2, 7});
    FAIL() << "no error";
  }
  catch (const stiffness::StiffnessError& error)
  {
    EXPECT_STREQ(error.what(), "endpoint task: joint 'j4' maps to column 7, the stack has 4 variables");
  }
  StiffnessTask task(arm.chain, 4);
  EndpointTask hold(arm.chain, 4);
  Eigen::MatrixXd rows(4, 4), narrow(4, 3);
  Eigen::VectorXd targets(4);
  StiffnessQuery query;
  query.direction = Vector6::Unit(0);
  EXPECT_EQ(task.fillRows(arm.chain, arm.workspace, query, {-1.0, 0.0}, rows, targets), 0) << "k_d > 0";
  EXPECT_EQ(task.fillRows(arm.chain, arm.workspace, query, {-1.0, 1.0}, narrow, targets), 0) << "columns";
  EXPECT_EQ(task.fillRows(arm.chain, arm.workspace, query, {-1.0, 1.0}, rows.topRows(3), targets), 0)
      << "rows";
  EXPECT_EQ(task.fillRows(chain, workspace, query, {-1.0, 1.0}, rows, targets), 0) << "another chain";
  EXPECT_EQ(hold.fillRows(arm.chain, arm.workspace, Vector6::Zero(), {}, 50.0, rows, targets), 0) << "no row";
  EXPECT_EQ(hold.fillRows(arm.chain, arm.workspace, Vector6::Zero(), holdXY, 50.0, rows, targets.head(1)), 0);
  EXPECT_EQ(EndpointTask::heldCount(held), 5);
}
} // namespace
} // namespace nao::taskstack::test
