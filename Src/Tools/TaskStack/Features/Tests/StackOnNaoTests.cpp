// A whole-body stack on the NAO written with the features and LevelRows, solved by HqpSolver each 12 ms frame and
// integrated (q += qdot dt): the feet stay where they are and the joints within their limits (level 0), the centre of
// mass stays over the feet (level 1), the left hand goes to a target (level 2), the posture fills the rest
// (level 3). A target out of reach leaves a reported violation at its level and nothing above it disturbed.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/TaskStack/Features/Features.h"
#include "Tools/TaskStack/LevelRows.h"

#include <gtest/gtest.h>

#include <numbers>

using namespace nao;
using namespace nao::taskstack;

namespace
{
constexpr double frameTime = 0.012; // s, the motion thread's frame
constexpr double degrees = std::numbers::pi / 180.0;
/// The share of each joint's maximum speed (URDF) a step may use: half, as NAOqi's examples and the scenarios.
constexpr double speed = 0.5;

struct ReachStack
{
  kinematics::Model model = kinematics::test::loadNao();
  kinematics::Data data{model};
  int n = model.coordinateCount();
  FeatureScratch scratch{n};
  FeatureJacobian jacobian{3, n};
  FeatureJacobian rotationJacobian{3, n};
  HqpSolver solver;
  LevelRows top{n, 6, n}, balance{n, 0, 2}, hand{n, 3, 0}, posture{n, n, 0};
  int leftSole = model.linkIndex("l_sole"), rightSole = model.linkIndex("r_sole"),
      leftWrist = model.linkIndex("l_wrist");
  Eigen::VectorXd q, start;
  Eigen::Vector3d footPosition;
  Eigen::Matrix3d footOrientation;
  double worstDrift = 0.0, worstLimit = 0.0; ///< m (and rad), rad: over the frames run

  explicit ReachStack(HqpMode mode) : solver({n, 4, 6 + 3 + n, n + 2}, HqpSettings{.mode = mode})
  {
    q.setZero(n);
    for (const char* side : {"L", "R"})
    {
      const std::string s(side);
      q[model.coordinateIndex(s + "HipPitch")] = -20 * degrees;
      q[model.coordinateIndex(s + "KneePitch")] = 48 * degrees;
      q[model.coordinateIndex(s + "AnklePitch")] = -28 * degrees;
      q[model.coordinateIndex(s + "ShoulderPitch")] = 90 * degrees;
    }
    q[model.coordinateIndex("LShoulderRoll")] = 10 * degrees;
    q[model.coordinateIndex("RShoulderRoll")] = -10 * degrees;
    start = q;
    update();
    footPosition =
        relativePosition(model, data, rightSole, Eigen::Vector3d::Zero(), leftSole, scratch, jacobian);
    footOrientation = relativeOrientation(model, data, rightSole, leftSole, scratch, jacobian);
  }

  void update()
  {
    kinematics::forwardKinematics(model, data, q);
    kinematics::updateCenterOfMass(model, data);
  }

  Eigen::Vector3d handPosition()
  {
    return relativePosition(model, data, leftWrist, Eigen::Vector3d::Zero(), leftSole, scratch, jacobian);
  }

  /// One frame toward the hand target (m, seen from the left sole); returns the solver's status.
  HqpStatus step(const Eigen::Vector3d& target)
  {
    const double gain = 10.0; // 1/s
    top.clear();
    const Eigen::Vector3d foot =
        relativePosition(model, data, rightSole, Eigen::Vector3d::Zero(), leftSole, scratch, jacobian);
    top.addEquality(jacobian, foot - footPosition, gain);
    const Eigen::Matrix3d orientation =
        relativeOrientation(model, data, rightSole, leftSole, scratch, rotationJacobian);
    top.addEquality(rotationJacobian, rotationError(orientation, footOrientation), gain);
    Eigen::VectorXd lower(n), upper(n);
    for (int i = 1; i < model.bodyCount(); ++i)
    {
      const auto& body = model.body(i);
      const auto& limits = body.limits;
      lower[body.coordinate] =
          std::max(-speed * limits.velocity, (limits.lower - q[body.coordinate]) / frameTime);
      upper[body.coordinate] =
          std::min(speed * limits.velocity, (limits.upper - q[body.coordinate]) / frameTime);
    }
    top.addInequality(Eigen::MatrixXd::Identity(n, n), lower, upper);

    balance.clear();
    const Eigen::Vector3d com = relativeCenterOfMass(model, data, leftSole, scratch, jacobian);
    // Over the feet: from the heel to the toes, between the outer edges (both feet, seen from the left sole).
    balance.addBounds(jacobian.topRows(2), com.head(2), Eigen::Vector2d(-0.03, -0.13),
                      Eigen::Vector2d(0.06, 0.03), gain);

    hand.clear();
    const Eigen::Vector3d wrist = handPosition();
    hand.addEquality(jacobian, wrist - target, gain);

    posture.clear();
    posture.addEquality(Eigen::MatrixXd::Identity(n, n), q - start, 2.0, 0.1);

    solver.clear(n);
    for (const LevelRows* level : {&top, &balance, &hand, &posture})
      level->addTo(solver);
    const HqpStatus status = solver.solve();
    if (status == HqpStatus::optimal) q += frameTime * solver.solution();
    update();
    return status;
  }

  /// `count` frames toward the target; false (with the failing frame said) when one does not solve.
  bool frames(const Eigen::Vector3d& target, int count)
  {
    for (int frame = 0; frame < count; ++frame)
    {
      if (step(target) != HqpStatus::optimal)
      {
        ADD_FAILURE() << "frame " << frame << " level " << solver.failedLevel() << " qp "
                      << static_cast<int>(solver.qpStatus());
        return false;
      }
      worstDrift = std::max(worstDrift, footDrift());
      worstLimit = std::max(worstLimit, limitViolation());
    }
    return true;
  }

  double footDrift()
  {
    const Eigen::Vector3d foot =
        relativePosition(model, data, rightSole, Eigen::Vector3d::Zero(), leftSole, scratch, jacobian);
    const Eigen::Matrix3d orientation =
        relativeOrientation(model, data, rightSole, leftSole, scratch, jacobian);
    return std::max((foot - footPosition).norm(), rotationError(orientation, footOrientation).norm());
  }

  double limitViolation() const
  {
    double worst = 0.0;
    for (int i = 1; i < model.bodyCount(); ++i)
    {
      const auto& body = model.body(i);
      worst =
          std::max({worst, body.limits.lower - q[body.coordinate], q[body.coordinate] - body.limits.upper});
    }
    return worst;
  }
};
} // namespace

TEST(StackOnNaoTests, HandReachesTargetWithFeetLimitsAndBalanceKept)
{
  for (HqpMode mode : {HqpMode::exact, HqpMode::damped})
  {
    ReachStack stack(mode);
    const Eigen::Vector3d target =
        stack.handPosition() + Eigen::Vector3d(0.06, -0.04, 0.05); // m, in front, inward, up
    ASSERT_TRUE(stack.frames(target, 250));
    const double worstDrift = stack.worstDrift, worstLimit = stack.worstLimit;
    EXPECT_LE((stack.handPosition() - target).norm(), 1e-4); // m, after 3 s at gain 10/s
    // m and rad: the solver holds the feet exactly at each step (level 0's violation is checked below); what drifts
    // is the first-order integration of 12 ms steps (an error of about 0.2 m * |dq|^2 per step, taken back at
    // gain * frameTime = 12 % per frame): under a millimetre at half speed (0.6 mm measured out of reach).
    EXPECT_LE(worstDrift, 1e-3);
    // rad: the step bounds hold exactly, in damped mode up to O(damping) (its level 0 trades them against |x|).
    EXPECT_LE(worstLimit, mode == HqpMode::exact ? 1e-12 : 1e-6);
    const Eigen::Vector3d com =
        relativeCenterOfMass(stack.model, stack.data, stack.leftSole, stack.scratch, stack.jacobian);
    EXPECT_GE(com.x(), -0.03 - 1e-4);
    EXPECT_LE(com.x(), 0.06 + 1e-4);
    EXPECT_NEAR(stack.solver.slackNorms()[2], 0.0, 1e-6); // the hand level is met (damped: O(damping))
    EXPECT_LE(stack.solver.slackNorms()[0], 1e-6);        // and the feet and the limits
  }
}

// The arm stretches toward the target until it is singular: the damped mode's case (HqpSolver.h). Exact mode does
// not converge there (README.md of Src/Tools/TaskStack, "Limits").
TEST(StackOnNaoTests, TargetOutOfReachReportsItsViolationAndDisturbsNothingAbove)
{
  ReachStack stack(HqpMode::damped);
  const Eigen::Vector3d target = stack.handPosition() + Eigen::Vector3d(1.0, 0.0, 0.0); // a metre ahead
  ASSERT_TRUE(stack.frames(target, 250));
  const double worstDrift = stack.worstDrift, worstLimit = stack.worstLimit;
  EXPECT_GT(stack.solver.slackNorms()[2], 0.5);  // m/s of the hand level left: reported, not hidden
  EXPECT_LE(stack.solver.slackNorms()[0], 1e-6); // the feet and the limits are still met
  EXPECT_LE(worstDrift, 1e-3);
  EXPECT_LE(worstLimit, 1e-6);
  EXPECT_GT((stack.handPosition() - target).norm(), 0.5);
}
