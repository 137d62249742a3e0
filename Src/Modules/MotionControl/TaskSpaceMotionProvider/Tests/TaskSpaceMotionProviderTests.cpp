// TaskSpaceMotionProvider alone (ModuleHarness): the request's posture, read back through the robot's kinematics,
// keeps the feet, the joint ranges and the balance while a hand goes to its target or the head turns to a point;
// a target out of reach is reported, not chased into the body; nothing jumps and nothing allocates.
#include "Framework/SelfCollisionShapes.h"
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/StandPoseProvider/StandPoseProvider.h"
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionProvider.h"
#include "Tools/Collision/BodyDistances.h"
#include "Tools/Collision/BodyOnModel.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/TaskStack/Features/Features.h"
#include "Tools/Testing/AllocationCounter.h"

#include <gtest/gtest.h>

#include <numbers>

using namespace nao;

namespace
{
/// Reads the requested posture back through the robot description's kinematics.
struct Posture
{
  explicit Posture(const RobotDescription& robot)
      : model(robot.model), data(model), scratch(model.coordinateCount()),
        jacobian(3, model.coordinateCount()),
        body(collision::bodyOnModel(model, SelfCollisionShapes::load(testConfigFiles()))),
        distances(body.body)
  {
  }

  /// m: the smallest signed distance of any shape pair of selfCollision.toml at the last posture.
  double smallestPairDistance()
  {
    std::vector<math::Pose> poses;
    for (const int link : body.modelLinks)
      poses.push_back(data.linkPoses[static_cast<std::size_t>(link)]);
    collision::computeBodyDistances(body.body, distances, poses);
    return distances.pairDistances[static_cast<std::size_t>(collision::closestPair(distances))].distance;
  }

  void at(const JointArray<float>& angles)
  {
    Eigen::VectorXd q(model.coordinateCount());
    for (std::size_t j = 0; j < numOfJoints; ++j)
      q[static_cast<Eigen::Index>(j)] = angles[j];
    kinematics::forwardKinematics(model, data, q);
    kinematics::updateCenterOfMass(model, data);
  }
  Eigen::Vector3d seenFromLeftSole(const char* link, const Eigen::Vector3d& point = Eigen::Vector3d::Zero())
  {
    return taskstack::relativePosition(model, data, model.findLink(link), point, model.findLink("l_sole"),
                                       scratch, jacobian);
  }
  Eigen::Vector3d centerOfMass()
  {
    return taskstack::relativeCenterOfMass(model, data, model.findLink("l_sole"), scratch, jacobian);
  }

  const kinematics::Model& model;
  kinematics::Data data;
  taskstack::FeatureScratch scratch;
  taskstack::FeatureJacobian jacobian;
  collision::BodyOnModel body;
  collision::BodyData distances;
};

struct MotionRun
{
  /// `scenario`: the Config/Scenarios/ file whose [[Script.targets]] the module loads (none: no targets).
  explicit MotionRun(const std::string& scenario = "") : harness(testConfigFiles("Default", scenario))
  {
    harness.input<JointSensorData>().angles = stand;
    posture.at(stand);
    startFoot = posture.seenFromLeftSole("r_sole");
  }

  ModuleHarness<TaskSpaceMotionProvider> harness;
  RobotDescription robot = RobotDescription::load(testConfigFiles());
  Posture posture{robot};
  JointArray<float> stand = StandPoseParameters{}.angles;
  Eigen::Vector3d startFoot;
  // m; rad beyond the range; rad beyond the step `speed` allows (float angles and damped mode: up to 1e-6 rad)
  double worstFootDrift = 0.0, worstLimit = 0.0, worstStep = 0.0;
  double worstComOutside = 0.0; // m
  /// rad/s^2 beyond `acceleration`; m, the smallest pair distance of the requested postures
  double worstAcceleration = 0.0, smallestDistance = 1.0;
  JointArray<double> velocity{}; ///< rad/s, last frame's

  /// frames of 12 ms; the measured angles follow the request (a perfect servo).
  void frames(int count)
  {
    const auto& params = harness.parameters();
    for (int f = 0; f < count; ++f)
    {
      const JointArray<float> before = harness.input<JointSensorData>().angles;
      harness.run();
      const JointArray<float>& angles = harness.output<MotionJointRequest>().angles;
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        const auto& limits = robot.limits(j);
        worstLimit = std::max({worstLimit, limits.lower - angles[j], angles[j] - limits.upper});
        worstStep =
            std::max(worstStep, std::abs(angles[j] - before[j]) -
                                    params.speed * limits.velocity * TaskSpaceMotionProvider::frameTime);
        const double now = (angles[j] - before[j]) / TaskSpaceMotionProvider::frameTime;
        // The one exception the module makes: in the frame a joint arrives at a range limit, the range wins.
        const bool arrives =
            std::min(std::abs(angles[j] - limits.lower), std::abs(angles[j] - limits.upper)) < 1e-6;
        if (!arrives)
          worstAcceleration =
              std::max(worstAcceleration, std::abs(now - velocity[j]) / TaskSpaceMotionProvider::frameTime -
                                              params.acceleration);
        velocity[j] = now;
      }
      posture.at(angles);
      worstFootDrift = std::max(worstFootDrift, (posture.seenFromLeftSole("r_sole") - startFoot).norm());
      smallestDistance = std::min(smallestDistance, posture.smallestPairDistance());
      const Eigen::Vector3d com = posture.centerOfMass();
      worstComOutside = std::max({worstComOutside, params.comMinX - com.x(), com.x() - params.comMaxX,
                                  params.comMinY - com.y(), com.y() - params.comMaxY});
      harness.input<JointSensorData>().angles = angles;
    }
  }
};
} // namespace

TEST(TaskSpaceMotionProviderTests, WithoutTargetsTheStandStaysAsItIs)
{
  MotionRun run;
  run.frames(100);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_NEAR(run.harness.output<MotionJointRequest>().angles[j], run.stand[j], 1e-6) << j;
  EXPECT_EQ(run.harness.module().failedFrames(), 0);
}

TEST(TaskSpaceMotionProviderTests, LeftHandReachesItsTargetWithFeetRangesAndBalanceKept)
{
  MotionRun run;
  const Eigen::Vector3d target = run.posture.seenFromLeftSole("l_wrist") + Eigen::Vector3d(0.06, -0.04, 0.05);
  auto& hand = run.harness.parameters().leftHand;
  hand = {true, target.x(), target.y(), target.z()};
  run.frames(300); // 3.6 s: 14 time constants of the 4/s gain
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  EXPECT_LE((run.posture.seenFromLeftSole("l_wrist") - target).norm(), 1e-3);
  EXPECT_LE(run.worstFootDrift, 1e-3); // m: first-order integration of 12 ms steps (TaskFeatureTests)
  EXPECT_LE(run.worstLimit, 1e-6);     // rad: damped mode, O(1e-6)
  EXPECT_LE(run.worstStep, 1e-6);
  EXPECT_LE(run.worstComOutside, 1e-3);
  EXPECT_LE(run.harness.module().levelViolations()[TaskSpaceMotionProvider::targets], 1e-3);
  EXPECT_EQ(run.harness.module().failedFrames(), 0);
}

TEST(TaskSpaceMotionProviderTests, HeadLooksAtAPointOnTheFloor)
{
  MotionRun run;
  const Eigen::Vector3d point(1.0, 0.5, 0.0); // m: ahead and to the left, on the floor
  run.harness.parameters().lookAt = {true, point.x(), point.y(), point.z()};
  run.frames(300);
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  // The point seen from the gaze frame lies on its x axis (the line of sight) within 1 degree.
  const auto& model = run.posture.model;
  const Eigen::Vector3d seen =
      taskstack::relativePosition(model, run.posture.data, model.findLink("l_sole"), point,
                                  model.findLink("gaze"), run.posture.scratch, run.posture.jacobian);
  EXPECT_GT(seen.x(), 0.0);
  EXPECT_LE(std::atan2(seen.tail(2).norm(), seen.x()), std::numbers::pi / 180.0);
  EXPECT_LE(run.worstFootDrift, 1e-3);
  EXPECT_LE(run.worstLimit, 1e-6);
}

TEST(TaskSpaceMotionProviderTests, TargetOutOfReachIsReportedAndDisturbsNothingAbove)
{
  MotionRun run;
  const Eigen::Vector3d far = run.posture.seenFromLeftSole("l_wrist") + Eigen::Vector3d(1.0, 0.0, 0.0);
  run.harness.parameters().leftHand = {true, far.x(), far.y(), far.z()};
  run.frames(300);
  EXPECT_GT(run.harness.module().levelViolations()[TaskSpaceMotionProvider::targets],
            0.1); // the hand level is left violated, and says so
  EXPECT_LE(run.harness.module().levelViolations()[TaskSpaceMotionProvider::jointLimits], 1e-6);
  EXPECT_LE(run.harness.module().levelViolations()[TaskSpaceMotionProvider::feetAndCollisions], 1e-6);
  EXPECT_LE(run.worstFootDrift, 1e-3);
  EXPECT_LE(run.worstLimit, 1e-6);
  EXPECT_LE(run.worstStep, 1e-6);
  EXPECT_LE(run.worstComOutside, 1e-3);
  EXPECT_EQ(run.harness.module().failedFrames(), 0);
}

TEST(TaskSpaceMotionProviderTests, LiveEditsNeverMakeTheRequestJump)
{
  MotionRun run;
  const Eigen::Vector3d hand = run.posture.seenFromLeftSole("l_wrist");
  for (int edit = 0; edit < 6; ++edit)
  {
    run.harness.parameters().leftHand = {edit % 2 == 0, hand.x() + 0.05, hand.y() - 0.1 * (edit % 3),
                                         hand.z() + 0.1};
    run.harness.parameters().rightHand = {edit % 3 == 0, 0.15, -0.1, 0.25};
    run.frames(40);
  }
  EXPECT_LE(run.worstStep, 1e-6); // no joint moved faster than `speed` of its maximum in any frame
  EXPECT_LE(run.worstAcceleration,
            5e-3); // rad/s^2: float angles over 12 ms // rad/s^2: float angles over 12 ms
  EXPECT_LE(run.worstLimit, 1e-6);
  EXPECT_LE(run.worstFootDrift, 1e-3);
}

TEST(TaskSpaceMotionProviderTests, TargetSetAsTheDebugChannelSetsIt)
{
  MotionRun run;
  const Eigen::Vector3d target = run.posture.seenFromLeftSole("l_wrist") + Eigen::Vector3d(0.05, 0.0, 0.05);
  // As `DebugClient set TaskSpaceMotionProvider leftHand.x 150` edits it: text in the file's unit (mm).
  run.harness.setParameter("leftHand.x", std::to_string(target.x() * 1000));
  run.harness.setParameter("leftHand.y", std::to_string(target.y() * 1000));
  run.harness.setParameter("leftHand.z", std::to_string(target.z() * 1000));
  run.harness.setParameter("leftHand.active", "true");
  run.frames(300);
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  EXPECT_LE((run.posture.seenFromLeftSole("l_wrist") - target).norm(), 1e-3);
}

TEST(TaskSpaceMotionProviderTests, UpdateAllocatesNothing)
{
  // Every level busy: both hands near the body (collision rows), the head, the stiffness level, and the support
  // switch with the right foot lifted and brought home.
  MotionRun run;
  auto& p = run.harness.parameters();
  p.leftHand = {true, 0.1, 0.1, 0.3};
  p.rightHand = {true, 0.12, -0.12, 0.3};
  p.lookAt = {true, 1.0, 0.0, 0.0};
  p.stiffestAgainst = {true, 0.0, 1.0, 0.0};
  p.rightFoot = {true, run.startFoot.x(), run.startFoot.y() - 0.01, 0.02};
  run.frames(2);
  nao::test::ThreadAllocationCount count;
  for (int f = 0; f < 400; ++f)
  {
    if (f == 300) p.rightFoot.active = false;
    run.harness.run();
    run.harness.input<JointSensorData>().angles = run.harness.output<MotionJointRequest>().angles;
  }
  EXPECT_EQ(count.allocations(), 0u);
}

TEST(TaskSpaceMotionProviderTests, AHandAimedIntoTheTorsoStopsOutsideIt)
{
  MotionRun run;
  const double start = run.smallestDistance = [&]
  {
    run.posture.at(run.stand);
    return run.posture.smallestPairDistance();
  }();
  run.harness.parameters().leftHand = {true, 0.02, -0.05, 0.3}; // m: the middle of the chest
  run.frames(500);
  const double margin = run.harness.parameters().collisionMargin;
  EXPECT_GE(run.smallestDistance, std::min(start, margin) - 1e-3) << "m, the closest any pair came";
  EXPECT_GT(run.harness.module().levelViolations()[TaskSpaceMotionProvider::targets],
            0.01); // the target is left, and reported
  EXPECT_LE(run.worstFootDrift, 1e-3);
  EXPECT_LE(run.worstComOutside, 1e-3);
}

TEST(TaskSpaceMotionProviderTests, TheRightFootLiftsOnlyOnceTheWeightIsOverTheLeftFoot)
{
  MotionRun run;
  auto& p = run.harness.parameters();
  const Eigen::Vector3d target = run.startFoot + Eigen::Vector3d(0.0, -0.01, 0.02);
  p.rightFoot = {true, target.x(), target.y(), target.z()};
  bool lifted = false;
  double comWhenLifted = 1.0; // m from the support point when the foot first left the floor
  for (int f = 0; f < 600; ++f)
  {
    run.frames(1);
    const Eigen::Vector3d foot = run.posture.seenFromLeftSole("r_sole");
    if (!lifted && foot.z() > 1e-4)
    {
      lifted = true;
      comWhenLifted =
          (run.posture.centerOfMass().head<2>() - Eigen::Vector2d(p.singleSupportComX, p.singleSupportComY))
              .norm();
    }
  }
  ASSERT_TRUE(lifted);
  EXPECT_LE(comWhenLifted, p.supportShiftTolerance + 1e-4);
  EXPECT_LE((run.posture.seenFromLeftSole("r_sole") - target).norm(), 1e-3);
  EXPECT_LE((run.posture.centerOfMass().head<2>() - Eigen::Vector2d(p.singleSupportComX, p.singleSupportComY))
                .norm(),
            1e-3);

  // Home again: the foot back where it started, then the centre of mass back between the feet.
  p.rightFoot.active = false;
  run.frames(700);
  EXPECT_LE((run.posture.seenFromLeftSole("r_sole") - run.startFoot).norm(), 1e-3);
  run.posture.at(run.stand);
  const Eigen::Vector3d startCom = run.posture.centerOfMass();
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  EXPECT_LE((run.posture.centerOfMass().head<2>() - startCom.head<2>()).norm(), 3e-3);
  EXPECT_LE(run.worstLimit, 1e-6);
  EXPECT_LE(run.worstAcceleration, 5e-3); // rad/s^2: float angles over 12 ms
  EXPECT_EQ(run.harness.module().failedFrames(), 0);
}

TEST(TaskSpaceMotionProviderTests, TheScenariosTargetsTakeOverAtTheirTime)
{
  // reach.toml: the left wrist to (180, 60, 330) mm from 2 s on; before that nothing moves.
  MotionRun run("reach");
  run.frames(160); // 1.92 s
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_NEAR(run.harness.output<MotionJointRequest>().angles[j], run.stand[j], 1e-6) << j;
  const Eigen::Vector3d target(0.18, 0.06, 0.33);
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  const double before = (run.posture.seenFromLeftSole("l_wrist") - target).norm();
  run.frames(330); // to 5.9 s
  run.posture.at(run.harness.output<MotionJointRequest>().angles);
  // The arm alone reaches to 25 mm of it: what is left is the level's violation, reported at the task's gain.
  const double after = (run.posture.seenFromLeftSole("l_wrist") - target).norm();
  EXPECT_LE(after, 0.03);
  EXPECT_GE(before - after, 0.1);
  EXPECT_NEAR(run.harness.module().levelViolations()[TaskSpaceMotionProvider::targets],
              run.harness.parameters().taskGain * after, 0.02);
  EXPECT_EQ(run.harness.module().failedFrames(), 0);
}

TEST(TaskSpaceMotionProviderTests, AnArmWithATargetStiffensAgainstTheExpectedPushAndKeepsItsTarget)
{
  // The right hand in front of the chest, the elbow bent (the arm has a joint's worth of freedom around its
  // target); a push expected from the right (toward +y). With the stiffness level the free joints turn toward the
  // posture whose joints feel the least torque per unit push (Woolfrey's p); without it (stiffnessRate 0) they
  // stay where the posture task keeps them. The hand's point is the same.
  const auto reach = [](double rate)
  {
    MotionRun run;
    auto& p = run.harness.parameters();
    p.rightHand = {true, 0.12, -0.12, 0.3};
    p.stiffestAgainst = {true, 0.0, 1.0, 0.0};
    p.stiffnessRate = rate;
    run.frames(600);
    run.posture.at(run.harness.output<MotionJointRequest>().angles);
    EXPECT_LE(run.worstLimit, 1e-6);
    EXPECT_EQ(run.harness.module().failedFrames(), 0);
    std::printf("stiffnessRate %.0f: %d frames without the stiffness level\n", rate,
                run.harness.module().framesWithoutStiffness());
    return std::pair{run.harness.module().armCompliance()[1], run.posture.seenFromLeftSole("r_wrist")};
  };
  const auto [still, handStill] = reach(0.0);
  const auto [stiff, handStiff] = reach(-5.0);
  std::printf("p against a push from the right: %.5f without the stiffness level, %.5f with it\n", still,
              stiff);
  EXPECT_GT(still, 0.0);
  EXPECT_LT(stiff, 0.95 * still); // 9 % less: the stiffest posture this target and the joint ranges leave
  EXPECT_LE((handStiff - handStill).norm(), 2e-3) << "m: the target level is above, the hand stays";
}
