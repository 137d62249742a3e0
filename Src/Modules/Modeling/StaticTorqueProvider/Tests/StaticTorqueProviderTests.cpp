// The modeling modules in the frame loop: the stand-in body carries the robot evenly on its FSRs.
#include "Framework/Robot.h"
#include "Platform/StandIn/StandInBody.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/RobotModel.h"
#include <gtest/gtest.h>

using namespace nao;

namespace
{
struct StandingRobot
{
  StandingRobot()
  {
    StandInBody::Options bodyOptions;
    bodyOptions.frames = 1000000;
    body = std::make_unique<StandInBody>(bodyOptions);
    RobotOptions options;
    options.config = {NAO_CONFIG_DIR, "Default"};
    options.scenario = "standin";
    robot = std::make_unique<Robot>(*body, options);
  }
  void frames(int n)
  {
    for (int i = 0; i < n; ++i)
      ASSERT_TRUE(robot->motion().runFrame());
    robot->controller().service();
  }
  std::unique_ptr<StandInBody> body;
  std::unique_ptr<Robot> robot;
};
} // namespace

TEST(StaticTorqueProvider, StandingOnEvenFsrsSplitsTheWeightAndTheBackendsAgree)
{
  StandingRobot standing;
  standing.frames(200); // the stand posture is reached after its 1 s transition
  const JointTorques jit = standing.robot->blackboard().get<JointTorques>();
  const RobotModel model = standing.robot->blackboard().get<RobotModel>();
  ASSERT_TRUE(jit.valid);
  EXPECT_EQ(jit.supportModel, SupportModel::fsr);
  // The stand-in FSRs carry its robotMass evenly: each sole takes half the model's weight (scaled to the
  // model).
  EXPECT_NEAR(jit.footLoad[0], model.totalMass * 9.81 / 2, 0.01);
  EXPECT_NEAR(jit.footLoad[1], model.totalMass * 9.81 / 2, 0.01);
  // Symmetric posture and loads: symmetric knee torques; the knees hold the robot up (non-zero).
  EXPECT_NEAR(jit.torques[Joint::LKneePitch], jit.torques[Joint::RKneePitch], 1e-4);
  EXPECT_GT(std::abs(jit.torques[Joint::LKneePitch]), 0.2f);

  ASSERT_EQ(standing.robot->controller().setParameter("StaticTorqueProvider", "backend", "\"eigen\""), "");
  ASSERT_EQ(standing.robot->controller().setParameter("RobotModelProvider", "backend", "\"eigen\""), "");
  standing.frames(2);
  const JointTorques eigen = standing.robot->blackboard().get<JointTorques>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_NEAR(eigen.torques[j], jit.torques[j], 1e-5) << jointNames[j] << ": JIT and Eigen agree";
  const RobotModel eigenModel = standing.robot->blackboard().get<RobotModel>();
  for (int i = 0; i < 3; ++i)
    EXPECT_NEAR(eigenModel.centerOfMass[static_cast<std::size_t>(i)],
                model.centerOfMass[static_cast<std::size_t>(i)], 1e-6);
}

TEST(StaticTorqueProvider, LiftedRobotFallsBackToAFixedTorso)
{
  StandInBody::Options bodyOptions;
  bodyOptions.frames = 1000000;
  bodyOptions.robotMass = 0.1f; // the FSRs read almost nothing: picked up
  StandInBody body(bodyOptions);
  RobotOptions options;
  options.config = {NAO_CONFIG_DIR, "Default"};
  options.scenario = "standin";
  Robot robot(body, options);
  for (int i = 0; i < 10; ++i)
    ASSERT_TRUE(robot.motion().runFrame());
  const JointTorques& torques = robot.blackboard().get<JointTorques>();
  EXPECT_EQ(torques.supportModel, SupportModel::noContact);
  EXPECT_EQ(torques.footLoad[0], 0.f);
}
