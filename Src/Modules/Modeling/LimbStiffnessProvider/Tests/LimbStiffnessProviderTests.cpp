// LimbStiffnessProvider alone (ModuleHarness): a straight leg is infinitely stiff along itself and bending the
// knee makes it compliant; a hanging arm is stiff vertically, an arm held forward is not; the vertical follows
// the IMU; the values are nao::stiffness' own on the same chain (its forward kinematics, its 6 x 6 ellipsoid);
// K_c scales p; bad readings keep the last values.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/LimbStiffnessProvider/LimbStiffnessProvider.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/Metric.h"
#include <Eigen/Eigenvalues>
#include <cmath>
#include <gtest/gtest.h>
#include <iostream>
#include <limits>
#include <numbers>
#include <random>

using namespace nao;

namespace
{
constexpr float degree = std::numbers::pi_v<float> / 180.f;

/// All joints 0 (legs straight, arms forward), upright torso.
void setZeroPosture(ModuleHarness<LimbStiffnessProvider>& harness)
{
  harness.input<JointSensorData>().angles.fill(0.f);
  harness.input<InertialSensorData>().angles = {0.f, 0.f};
}

/// Both legs in a stand with flat soles: hip pitch = -(knee + ankle).
void setLegs(ModuleHarness<LimbStiffnessProvider>& harness, float knee, float ankle)
{
  JointArray<float>& angles = harness.input<JointSensorData>().angles;
  for (const auto& [hip, kneeJoint, anklePitch] :
       {std::tuple{Joint::LHipPitch, Joint::LKneePitch, Joint::LAnklePitch},
        std::tuple{Joint::RHipPitch, Joint::RKneePitch, Joint::RAnklePitch}})
  {
    angles[hip] = -(knee + ankle);
    angles[kneeJoint] = knee;
    angles[anklePitch] = ankle;
  }
}

Eigen::Vector3d axis(const LimbEllipsoid& limb, int i)
{
  const auto& v = limb.vectors;
  return {v[static_cast<std::size_t>(i)], v[static_cast<std::size_t>(3 + i)],
          v[static_cast<std::size_t>(6 + i)]};
}
} // namespace

TEST(LimbStiffnessProvider, AStraightLegIsStiffestAlongItselfAndABentKneeMakesItCompliant)
{
  ModuleHarness<LimbStiffnessProvider> harness;
  setZeroPosture(harness);
  harness.run();
  const LimbStiffness straight = harness.output<LimbStiffness>();
  ASSERT_TRUE(straight.valid);
  for (const Limb leg : {Limb::leftLeg, Limb::rightLeg})
  {
    const LimbEllipsoid& limb = straight.limbs[leg];
    // A vertical force at the sole passes through every joint axis of a straight leg: no joint torque, p = 0.
    EXPECT_LT(limb.verticalMetric, 1e-10f) << streams::enumName(leg);
    EXPECT_LT(limb.values[0], 1e-9f);
    EXPECT_GT(std::abs(axis(limb, 0).z()), 0.9999) << "the stiffest axis is the leg's";
    EXPECT_GT(limb.values[1], 1e-3f) << "across the leg it is not stiff";
    EXPECT_NEAR(limb.endpoint[2], -0.085 - 0.1 - 0.1029 - 0.04519, 2e-3) << "the sole, under the hip";
  }

  // Knee bends of the usual stands, soles flat: the high stand (14°), B-Human's stand (48°), a crouch (75°).
  float last = straight.limbs[Limb::leftLeg].verticalMetric;
  for (const float knee : {14.f, 48.f, 75.f})
  {
    setLegs(harness, knee * degree, -knee / 2 * degree);
    harness.run();
    const LimbStiffness& bent = harness.output<LimbStiffness>();
    EXPECT_GT(bent.limbs[Limb::leftLeg].verticalMetric, 1.5f * last + 1e-6f) << knee << "° knee";
    EXPECT_NEAR(bent.limbs[Limb::leftLeg].verticalMetric, bent.limbs[Limb::rightLeg].verticalMetric, 1e-6f)
        << "mirror-symmetric legs";
    last = bent.limbs[Limb::leftLeg].verticalMetric;
    std::cout << "knee " << knee << "°: leg p along the vertical " << last << " (N·m)², ellipsoid "
              << bent.limbs[Limb::leftLeg].values[0] << ", " << bent.limbs[Limb::leftLeg].values[1] << ", "
              << bent.limbs[Limb::leftLeg].values[2] << "\n";
  }
}

TEST(LimbStiffnessProvider, AHangingArmIsStiffVerticallyAnArmHeldForwardIsNot)
{
  ModuleHarness<LimbStiffnessProvider> harness;
  setZeroPosture(harness); // arms straight forward
  harness.run();
  const float forward = harness.output<LimbStiffness>().limbs[Limb::leftArm].verticalMetric;
  // Straight forward, a vertical unit force at the hand has a lever of the whole arm (~0.22 m) at the shoulder
  // and elbow pitch-like joints: p of the order of 1/2 * 0.2^2.
  EXPECT_GT(forward, 0.01f);
  std::cout << "arm forward: p along the vertical " << forward << " (N·m)²\n";
  JointArray<float>& angles = harness.input<JointSensorData>().angles;
  angles[Joint::LShoulderPitch] = 90.f * degree; // hanging down, elbow straight
  angles[Joint::RShoulderPitch] = 90.f * degree;
  harness.run();
  const LimbStiffness& hanging = harness.output<LimbStiffness>();
  // The gripper point sits 12 mm below the wrist axis, so the hanging arm keeps a small lever.
  EXPECT_LT(hanging.limbs[Limb::leftArm].verticalMetric, 0.01f * forward);
  std::cout << "arm hanging: p along the vertical " << hanging.limbs[Limb::leftArm].verticalMetric
            << " (N·m)²\n";
  EXPECT_NEAR(hanging.limbs[Limb::leftArm].verticalMetric, hanging.limbs[Limb::rightArm].verticalMetric,
              1e-7f);
}

TEST(LimbStiffnessProvider, TheVerticalFollowsTheImu)
{
  ModuleHarness<LimbStiffnessProvider> harness;
  setZeroPosture(harness);
  const float pitch = 0.2f, roll = -0.1f;
  harness.input<InertialSensorData>().angles = {roll, pitch};
  harness.run();
  const LimbStiffness& leaning = harness.output<LimbStiffness>();
  EXPECT_NEAR(leaning.up[0], -std::sin(pitch), 1e-6f);
  EXPECT_NEAR(leaning.up[1], std::cos(pitch) * std::sin(roll), 1e-6f);
  EXPECT_NEAR(leaning.up[2], std::cos(pitch) * std::cos(roll), 1e-6f);
  // The straight leg is no longer vertical: the world's vertical load now has a lever at the hip, p > 0, and
  // it is p(d) of the ellipsoid for d = up.
  const LimbEllipsoid& leg = leaning.limbs[Limb::leftLeg];
  EXPECT_GT(leg.verticalMetric, 1e-4f);
  const Eigen::Vector3d up(leaning.up[0], leaning.up[1], leaning.up[2]);
  double fromEllipsoid = 0;
  for (int i = 0; i < 3; ++i)
    fromEllipsoid += 0.5 * leg.values[static_cast<std::size_t>(i)] * std::pow(axis(leg, i).dot(up), 2);
  EXPECT_NEAR(fromEllipsoid, leg.verticalMetric, 1e-5 * leg.verticalMetric);
}

TEST(LimbStiffnessProvider, ValuesAreTheLibrarysOnTheSameChain)
{
  // nao::stiffness with its own forward kinematics (updateChain, Eigen) and its 6 x 6 ellipsoid, against the
  // module (one shared forward pass, JIT where it runs, translational ellipsoid, float output).
  ModuleHarness<LimbStiffnessProvider> harness;
  const RobotDescription robot = RobotDescription::load(testConfigFiles());
  const kinematics::Model& model = robot.model;
  std::mt19937 random(15);
  for (int trial = 0; trial < 20; ++trial)
  {
    JointArray<float>& angles = harness.input<JointSensorData>().angles;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const kinematics::JointLimits& range = robot.limits(j);
      angles[j] =
          static_cast<float>(std::uniform_real_distribution<double>(range.lower, range.upper)(random));
    }
    const float roll = std::uniform_real_distribution<float>(-0.3f, 0.3f)(random);
    const float pitch = std::uniform_real_distribution<float>(-0.5f, 0.5f)(random);
    harness.input<InertialSensorData>().angles = {roll, pitch};
    harness.run();
    const LimbStiffness& out = harness.output<LimbStiffness>();
    const Eigen::Vector3d up(out.up[0], out.up[1], out.up[2]);
    for (std::size_t l = 0; l < numOfLimbs; ++l)
    {
      const auto spec = LimbStiffnessProvider::chainSpec(model, static_cast<Limb>(l));
      const stiffness::Chain chain(
          model, spec.base, spec.tip,
          Eigen::Vector3d(spec.pointInTip[0], spec.pointInTip[1], spec.pointInTip[2]));
      stiffness::Workspace workspace(chain);
      Eigen::VectorXd q(chain.jointCount());
      for (int i = 0; i < chain.jointCount(); ++i)
      {
        const stiffness::ChainJoint& joint = chain.joint(i);
        q[i] = joint.multiplier * angles[static_cast<std::size_t>(joint.coordinate)] + joint.offset;
      }
      stiffness::updateChain(chain, workspace, q);
      stiffness::StiffnessQuery query;
      query.direction << up, 0, 0, 0;
      const double p = stiffness::computeMetric(chain, workspace, query);
      const LimbEllipsoid& limb = out.limbs[l];
      SCOPED_TRACE(std::string(streams::enumName(limbAt(l))) + ", trial " + std::to_string(trial));
      EXPECT_NEAR(limb.verticalMetric, p, 1e-5 * std::max(p, 1e-3));
      for (int i = 0; i < 3; ++i)
        EXPECT_NEAR(limb.endpoint[static_cast<std::size_t>(i)], workspace.tipPoint[i], 1e-5);
      // The translational ellipsoid is the 6 x 6 one restricted to translations: S_vv = V diag(lambda) V^T.
      const stiffness::StiffnessEllipsoid full =
          stiffness::computeStiffnessEllipsoid(workspace, query.cartesianStiffness);
      const Eigen::Matrix3d block =
          (full.vectors * full.values.asDiagonal() * full.vectors.transpose()).topLeftCorner<3, 3>();
      const Eigen::Vector3d expected = Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d>(block).eigenvalues();
      for (int i = 0; i < 3; ++i)
      {
        EXPECT_NEAR(limb.values[static_cast<std::size_t>(i)], expected[i],
                    1e-5 * std::max(expected[2], 1e-3));
        // Each axis is an eigenvector of the block.
        const Eigen::Vector3d v = axis(limb, i);
        EXPECT_NEAR(v.norm(), 1.0, 1e-5);
        EXPECT_LT((block * v - expected[i] * v).norm(), 1e-5 * std::max(expected[2], 1e-3));
      }
    }
  }
}

TEST(LimbStiffnessProvider, CartesianStiffnessScalesTheMetric)
{
  // p = 1/2 |J^T K_c dx|^2: twice the force stiffness, four times p (a live edit, applied at the next frame).
  ModuleHarness<LimbStiffnessProvider> harness;
  setZeroPosture(harness);
  setLegs(harness, 48.f * degree, -28.f * degree);
  harness.run();
  const LimbStiffness before = harness.output<LimbStiffness>();
  harness.parameters().cartesianStiffness = {2.f, 2.f, 2.f, 1.f, 1.f, 1.f};
  harness.run();
  const LimbStiffness& after = harness.output<LimbStiffness>();
  for (std::size_t l = 0; l < numOfLimbs; ++l)
  {
    EXPECT_NEAR(after.limbs[l].verticalMetric, 4.f * before.limbs[l].verticalMetric,
                1e-5f * before.limbs[l].verticalMetric);
    EXPECT_NEAR(after.limbs[l].values[2], 4.f * before.limbs[l].values[2], 1e-5f * before.limbs[l].values[2]);
  }
}

TEST(LimbStiffnessProvider, BadReadingsKeepTheLastValues)
{
  ModuleHarness<LimbStiffnessProvider> harness;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  harness.input<JointSensorData>().angles.fill(nan);
  harness.input<InertialSensorData>().angles = {0.f, 0.f};
  harness.run();
  EXPECT_FALSE(harness.output<LimbStiffness>().valid) << "no finite joint angle seen yet";
  setZeroPosture(harness);
  setLegs(harness, 48.f * degree, -28.f * degree);
  harness.run();
  const LimbStiffness good = harness.output<LimbStiffness>();
  ASSERT_TRUE(good.valid);
  harness.input<JointSensorData>().angles[Joint::LKneePitch] = nan;
  harness.input<InertialSensorData>().angles = {nan, std::numeric_limits<float>::infinity()};
  harness.run();
  const LimbStiffness& after = harness.output<LimbStiffness>();
  EXPECT_TRUE(after.valid);
  EXPECT_EQ(after.up, good.up);
  EXPECT_EQ(after.limbs[Limb::leftLeg].verticalMetric, good.limbs[Limb::leftLeg].verticalMetric);
}
