// Loading robots from URDF and forward kinematics against geometry computed independently.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Tests/TestModels.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <gtest/gtest.h>
#include <numbers>

namespace nao::kinematics::test
{
namespace
{
constexpr double millimetre = 0.001;

TEST(NaoModel, HasTwentyFiveCoordinatesInLolaOrderAndTheMimicHip)
{
  const Model model = loadNao();
  EXPECT_EQ(model.name(), "NaoV6H25");
  EXPECT_EQ(model.bodyCount(), 27); // base + 26 revolute joints
  ASSERT_EQ(model.coordinateCount(), 25);
  for (int k = 0; k < 25; ++k)
    EXPECT_EQ(model.coordinates()[static_cast<std::size_t>(k)].name,
              lolaJointOrder()[static_cast<std::size_t>(k)]);
  const Body& right = model.body(model.findBodyOfJoint("RHipYawPitch"));
  EXPECT_EQ(right.coordinate, model.coordinateIndex("LHipYawPitch"));
  EXPECT_EQ(right.multiplier, 1.0);
  EXPECT_EQ(right.offset, 0.0);
  EXPECT_EQ(right.sameAngleAs, model.findBodyOfJoint("LHipYawPitch"));
  EXPECT_EQ(model.findCoordinate("RHipYawPitch"), -1) << "a mimic has no coordinate of its own";
}

TEST(NaoModel, DefaultCoordinateOrderIsTheFileOrder)
{
  const Model model = loadModel(naoUrdfPath());
  ASSERT_EQ(model.coordinateCount(), 25);
  EXPECT_EQ(model.coordinates()[0].name, "HeadYaw");
  EXPECT_EQ(model.coordinates()[2].name, "LHipYawPitch");
  EXPECT_EQ(model.coordinates()[8].name, "RHipRoll") << "RHipYawPitch (a mimic) is skipped";
}

TEST(NaoModel, HipAxesAreNormalisedAndOthersAxisAligned)
{
  const Model model = loadNao();
  const Body& left = model.body(model.findBodyOfJoint("LHipYawPitch"));
  EXPECT_DOUBLE_EQ(left.axis.norm(), 1.0);
  EXPECT_NEAR(left.axis.y(), std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(left.axis.z(), -std::sqrt(0.5), 1e-15);
  EXPECT_EQ(left.axisKind, AxisKind::general);
  EXPECT_EQ(model.body(model.findBodyOfJoint("LKneePitch")).axisKind, AxisKind::y);
  EXPECT_EQ(model.body(model.findBodyOfJoint("HeadYaw")).axisKind, AxisKind::z);
  EXPECT_EQ(model.body(model.findBodyOfJoint("LAnkleRoll")).axisKind, AxisKind::x);
}

TEST(NaoModel, MassMatchesTheSumOfTheLinkMasses)
{
  const Model model = loadNao();
  EXPECT_NEAR(model.totalMass(), 5.359, 0.0005); // geometry.md section 1
  double sum = 0.0;
  for (const Link& link : model.links())
    sum += link.inertial.mass;
  EXPECT_NEAR(model.totalMass(), sum, 1e-12);
}

TEST(NaoModel, ZeroPostureCenterOfMassMatchesGeometryTable)
{
  const Model model = loadNao();
  Data data(model);
  updateBodyPoses(model, data, Eigen::VectorXd::Zero(25));
  const Eigen::Vector3d com = updateCenterOfMass(model, data) / millimetre;
  // geometry.md section 1: (21.2, 0.2, -32.8) mm, rounded to 0.1 mm.
  EXPECT_NEAR(com.x(), 21.2, 0.05);
  EXPECT_NEAR(com.y(), 0.2, 0.05);
  EXPECT_NEAR(com.z(), -32.8, 0.05);
}

TEST(NaoModel, ZeroPostureSoleAndHandFramesMatchTheLinkLengths)
{
  const Model model = loadNao();
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(25));
  // geometry.md section 2: HipOffsetY/Z 50/85, thigh 100, tibia 102.9, foot height 45.19 mm.
  const Eigen::Vector3d leftSole =
      data.linkPoses[static_cast<std::size_t>(model.linkIndex("l_sole"))].translation;
  EXPECT_TRUE(leftSole.isApprox(Eigen::Vector3d(0, 50, -(85 + 100 + 102.9 + 45.19)) * millimetre, 1e-12));
  // ShoulderOffsetY/Z 98/100, UpperArm 105, ElbowOffsetY 15, LowerArm 55.95, HandOffsetX/Z 57.75/12.31 mm.
  const Eigen::Vector3d rightHand =
      data.linkPoses[static_cast<std::size_t>(model.linkIndex("r_gripper"))].translation;
  EXPECT_TRUE(
      rightHand.isApprox(Eigen::Vector3d(105 + 55.95 + 57.75, -98 - 15, 100 - 12.31) * millimetre, 1e-12));
}

TEST(NaoModel, BentKneeMovesTheSoleAsTrigonometrySays)
{
  const Model model = loadNao();
  Data data(model);
  Eigen::VectorXd q = Eigen::VectorXd::Zero(25);
  const double knee = 0.7;
  q[model.coordinateIndex("LKneePitch")] = knee;
  forwardKinematics(model, data, q);
  // Pitch about y by `knee` turns the shank (102.9 mm + 45.19 mm down) backwards: x = -L sin, z = -L cos.
  const double below = (102.9 + 45.19) * millimetre;
  const Eigen::Vector3d expected(-below * std::sin(knee), 0.05, -0.185 - below * std::cos(knee));
  EXPECT_TRUE(data.linkPoses[static_cast<std::size_t>(model.linkIndex("l_sole"))].translation.isApprox(
      expected, 1e-12));
}

TEST(NaoModel, SensorFramesComposeWithTheirParentLinks)
{
  const Model model = loadNao();
  Data data(model);
  std::mt19937 random(7);
  forwardKinematics(model, data, randomConfiguration(model, random));
  // CameraTop_frame: Head * (0.05871 0 0.06364, rpy 0 0.0209435 0); optical frame: rpy -pi/2 0 -pi/2 further.
  const math::Pose head = data.linkPoses[static_cast<std::size_t>(model.linkIndex("Head"))];
  const math::Pose camera = head * math::Pose{math::rotationFromRollPitchYaw(0, 0.0209435, 0),
                                              Eigen::Vector3d(0.05871, 0, 0.06364)};
  const math::Pose optical = camera * math::Pose{math::rotationFromRollPitchYaw(-1.57079633, 0, -1.57079633),
                                                 Eigen::Vector3d::Zero()};
  EXPECT_TRUE(data.linkPoses[static_cast<std::size_t>(model.linkIndex("CameraTop_frame"))].isApprox(camera));
  EXPECT_TRUE(
      data.linkPoses[static_cast<std::size_t>(model.linkIndex("CameraTop_optical_frame"))].isApprox(optical));
  EXPECT_EQ(model.link(model.linkIndex("CameraTop_optical_frame")).body, model.findBodyOfJoint("HeadPitch"));
}

TEST(Ur3, ForwardKinematicsMatchesDenavitHartenberg)
{
  const Model model = buildModel(ur3Urdf());
  ASSERT_EQ(model.coordinateCount(), 6);
  Data data(model);
  std::mt19937 random(3);
  for (int trial = 0; trial < 200; ++trial)
  {
    const Eigen::VectorXd q = randomConfiguration(model, random);
    forwardKinematics(model, data, q);
    const math::Pose tool = data.linkPoses[static_cast<std::size_t>(model.linkIndex("tool0"))];
    EXPECT_TRUE(tool.isApprox(ur3DhFrame(q, 6))) << "q = " << q.transpose();
    for (int i = 1; i <= 6; ++i)
    {
      // Link i is DH frame i-1 turned by theta_i about its z axis.
      const math::Pose expected =
          ur3DhFrame(q, i - 1) *
          math::Pose{math::rotationAboutAxis(Eigen::Vector3d::UnitZ(), q[i - 1]), {0, 0, 0}};
      EXPECT_TRUE(
          data.linkPoses[static_cast<std::size_t>(model.linkIndex("link" + std::to_string(i)))].isApprox(
              expected));
    }
  }
}

TEST(Ur3, ZeroPostureReachMatchesTheArmLengths)
{
  const Model model = buildModel(ur3Urdf());
  Data data(model);
  forwardKinematics(model, data, Eigen::VectorXd::Zero(6));
  // Stretched out: x = a2 + a3 = -0.4569, y = -(d4 + d6) = -0.19425 (alpha4 turns z4 to -y), z = d1 - d5 =
  // 0.06655.
  const Eigen::Vector3d tool = data.linkPoses[static_cast<std::size_t>(model.linkIndex("tool0"))].translation;
  EXPECT_TRUE(tool.isApprox(Eigen::Vector3d(-0.4569, -0.19425, 0.06655), 1e-12)) << tool.transpose();
}

TEST(MixedRobot, MergesFixedLinksAndResolvesTheMimic)
{
  const Model model = buildModel(mixedRobotUrdf());
  EXPECT_EQ(model.bodyCount(), 6);       // root, slide, shoulder, elbow, wrist, twin
  EXPECT_EQ(model.coordinateCount(), 4); // slide, shoulder, elbow, wrist
  EXPECT_EQ(model.linkCount(), 8);
  const Body& twin = model.body(model.findBodyOfJoint("twin_joint"));
  EXPECT_EQ(twin.coordinate, model.coordinateIndex("shoulder"));
  EXPECT_EQ(twin.multiplier, -2.0);
  EXPECT_EQ(twin.offset, 0.3);
  EXPECT_EQ(model.body(model.findBodyOfJoint("elbow")).limits.bounded, false);
  EXPECT_NEAR(model.body(model.findBodyOfJoint("shoulder")).inertial.mass, 1.2, 1e-15)
      << "upper + upper_cover";
  EXPECT_NEAR(model.totalMass(), 4.2, 1e-12);
  EXPECT_TRUE(
      model.body(model.findBodyOfJoint("slide")).axis.isApprox(Eigen::Vector3d(1, 2, 2) / 3.0, 1e-15));
  EXPECT_TRUE(model.isAncestorOrSelf(model.findBodyOfJoint("shoulder"), model.findBodyOfJoint("wrist")));
  EXPECT_FALSE(model.isAncestorOrSelf(model.findBodyOfJoint("twin_joint"), model.findBodyOfJoint("wrist")));
}

TEST(MixedRobot, MergedInertiaEqualsTheSumOfTheLinkInertias)
{
  const Model model = buildModel(mixedRobotUrdf());
  const Body& body = model.body(model.findBodyOfJoint("shoulder"));
  // Independent: total inertia about the body origin from each link's own inertial (parallel-axis theorem).
  Eigen::Matrix3d aboutOrigin = Eigen::Matrix3d::Zero();
  for (const Link& link : model.links())
    if (link.body == model.findBodyOfJoint("shoulder"))
    {
      const Eigen::Vector3d c = link.placement * link.inertial.centerOfMass;
      const Eigen::Matrix3d r = link.placement.rotation;
      aboutOrigin += r * link.inertial.inertia * r.transpose() +
                     link.inertial.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
    }
  const Eigen::Vector3d c = body.inertial.centerOfMass;
  const Eigen::Matrix3d merged =
      body.inertial.inertia +
      body.inertial.mass * (c.squaredNorm() * Eigen::Matrix3d::Identity() - c * c.transpose());
  EXPECT_TRUE(merged.isApprox(aboutOrigin, 1e-12));
}
} // namespace
} // namespace nao::kinematics::test
