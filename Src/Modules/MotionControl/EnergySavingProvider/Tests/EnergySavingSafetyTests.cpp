// What must hold whatever the rules: the request passes unchanged when the stage is off or not asked,
// non-finite sensor values change nothing, update() never allocates, the config file holds the issue's
// numbers, the emergency sign tables agree with the robot model's physics, and with a gear-friction plant the
// currents fall.
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"
#include "Tools/Kinematics/Conventions.h"
#include "Tools/Kinematics/MassCalibration.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Streams/TomlFiles.h"
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <gtest/gtest.h>
#include <limits>
#include <new>
#include <numbers>

using namespace nao;
using namespace nao::energytest;

namespace
{
std::atomic<bool> countAllocations{false};
std::atomic<std::uint64_t> allocations{0};

void* allocate(std::size_t size)
{
  if (countAllocations.load(std::memory_order_relaxed)) allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size ? size : 1)) return p;
  throw std::bad_alloc();
}

constexpr float notANumber = std::numeric_limits<float>::quiet_NaN();

/// The output is exactly the incoming request.
void expectOutputIsInput(const EnergySavingRig& rig)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(rig.output().angles[j], inputs().request.angles[j]) << name(jointAt(j)) << " at " << rig.time();
    EXPECT_EQ(rig.output().stiffnesses[j], inputs().request.stiffnesses[j]);
  }
}

void makeEverythingHot(Inputs& in)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    in.measured[j] = in.request.angles[j] + (j % 2 ? 2.f : -2.f) * degree;
    in.currents[j] = 1.2f;
  }
}
} // namespace

void* operator new(std::size_t size)
{
  return allocate(size);
}
void* operator new[](std::size_t size)
{
  return allocate(size);
}
void operator delete(void* p) noexcept
{
  std::free(p);
}
void operator delete[](void* p) noexcept
{
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept
{
  std::free(p);
}
void operator delete[](void* p, std::size_t) noexcept
{
  std::free(p);
}

TEST(EnergySavingSafety, StageOffPassesTheRequestThrough)
{
  EnergySavingRig rig(RigOptions{false});
  makeEverythingHot(inputs());
  for (int frame = 0; frame < 400; ++frame)
  {
    rig.frame();
    expectOutputIsInput(rig);
  }
}

TEST(EnergySavingSafety, NotRequestedOrNoLimbPassesTheRequestThroughUnchanged)
{
  for (int variant = 0; variant < 2; ++variant)
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    makeEverythingHot(in);
    if (variant == 0)
      in.energySaving.adjust = false;
    else
      in.energySaving.adjustLeftLeg = in.energySaving.adjustRightLeg = in.energySaving.adjustLeftArm =
          in.energySaving.adjustRightArm = false;
    for (int frame = 0; frame < 400; ++frame)
    {
      in.request.angles[Joint::LKneePitch] += 0.001f; // a moving request passes too
      rig.frame();
      expectOutputIsInput(rig);
      EXPECT_EQ(rig.state(), EnergySavingState::off);
    }
  }
}

TEST(EnergySavingSafety, NonFiniteSensorValuesLeaveTheOutputAsTheLastGoodOne)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving =
      requestAll(EnergySavingPosture::none); // emergency steps toward measured: every round moves
  for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch})
  {
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
    in.currents[joint] = 0.5f;
  }
  ASSERT_TRUE(rig.runUntilState(EnergySavingState::working, 2.0));
  for (int round = 0; round < 8; ++round) // four leg joints at 1.6°: a centre of mass outside would reset
    ASSERT_TRUE(rig.runUntilNextRound());
  const JointRequest good = rig.output();

  in.measured[Joint::LKneePitch] = notANumber; // angle
  in.currents[Joint::RKneePitch] = notANumber; // current (the filter also keeps its last good mean)
  in.leftFootWeight = notANumber;              // ground contact
  in.centerOfMass = {notANumber, notANumber, notANumber}; // reset condition
  in.request.angles[Joint::LAnklePitch] = notANumber;     // the incoming request itself
  for (int round = 0; round < 3; ++round)
  {
    ASSERT_TRUE(rig.runUntilNextRound());
    EXPECT_EQ(rig.state(), EnergySavingState::working);
    for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch})
      EXPECT_EQ(rig.output().angles[joint], good.angles[joint]) << name(joint);
    EXPECT_NE(rig.output().angles[Joint::RAnklePitch], good.angles[Joint::RAnklePitch]) << "the others go on";
    for (float angle : rig.output().angles)
      EXPECT_TRUE(std::isfinite(angle));
  }
}

TEST(EnergySavingSafety, UpdateNeverAllocates)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  makeEverythingHot(in);
  auto frames = [&](double seconds)
  {
    for (double end = rig.time() + seconds; rig.time() < end;)
    {
      countAllocations = true;
      const bool ran = rig.motion.runFrame();
      countAllocations = false;
      ASSERT_TRUE(ran);
      rig.controller.service();
    }
  };
  frames(8.0); // start, base offsets, rounds, emergency steps
  in.energySaving.adjustLeftArm = false;
  frames(1.0);
  in.energySaving.adjustLeftArm = true;
  in.request.angles[Joint::HeadYaw] += 0.1f; // skipped joint: no motion change
  in.request.angles[Joint::RHipPitch] += 0.1f;
  rig.setParameter("skipJoints", "[\"HeadYaw\", \"HeadPitch\", \"LHand\"]"); // swapped inside a frame
  frames(3.0);
  in.centerOfMass = {0.1f, 0.f, -0.05f}; // offsets too large -> reset
  frames(6.0);
  in.leftFootWeight = in.rightFootWeight = 0.f; // picked up
  frames(4.0);
  in.leftFootWeight = in.rightFootWeight = 2.6f;
  in.energySaving.accuratePositions = true;
  frames(3.0);
  in.measured[Joint::LKneePitch] = notANumber;
  in.energySaving.adjust = false;
  frames(4.0);
  EXPECT_EQ(allocations.load(), 0u);
}

TEST(EnergySavingSafety, TheConfigFileHoldsEveryNumberOfTheIssueInSIAfterLoading)
{
  EnergySavingParameters p;
  streams::loadFromTable(
      streams::loadTomlFile(std::string(NAO_CONFIG_DIR) + "/Modules/EnergySavingProvider.toml"), p);
  EXPECT_FLOAT_EQ(p.motionChangeWaitTime, 0.1f);
  EXPECT_FLOAT_EQ(p.adjustWaitTime, 0.5f);
  EXPECT_FLOAT_EQ(p.resetTime, 3.f);
  EXPECT_FLOAT_EQ(p.baseOffsetFadeInTime, 0.06f);
  auto deg = [](double degrees) { return degrees * std::numbers::pi / 180.0; };
  EXPECT_NEAR(p.maxBaseOffset, deg(1.0), 1e-8); // float
  EXPECT_FLOAT_EQ(p.baseOffsetOldWeight, 0.9f) << "0.9 old, 0.1 new";
  EXPECT_FLOAT_EQ(p.legCurrentThreshold, 0.1f);
  EXPECT_FLOAT_EQ(p.legCurrentThresholdLargeOffset, 0.3f);
  EXPECT_NEAR(p.largeOffset, deg(1.5), 1e-8); // float
  EXPECT_FLOAT_EQ(p.armCurrentThreshold, 0.03f);
  EXPECT_EQ(p.stepsBeforeEmergencyStep, 10);
  EXPECT_NEAR(p.maxGearStepLegs, deg(0.2), 1e-8); // float
  EXPECT_NEAR(p.maxGearStepLegs, 0.0035, 1e-4) << "the issue's 0.0035 rad";
  EXPECT_NEAR(p.maxGearStepArms, deg(0.458366), 1e-8); // float
  EXPECT_NEAR(p.minGearStep, deg(0.0286479), 1e-8);    // float
  EXPECT_NEAR(p.maxOffset, deg(3.0), 1e-8);            // float
  EXPECT_FLOAT_EQ(p.accurateFineStepFraction, 0.5f) << "accuratePositions: minGearStep / 2";
  EXPECT_EQ(p.largeOffsetJointsForReset, 4);
  EXPECT_FLOAT_EQ(p.centerOfMassMin[0], -0.02f);
  EXPECT_FLOAT_EQ(p.centerOfMassMax[0], 0.05f);
  EXPECT_FLOAT_EQ(p.centerOfMassMin[1], -0.05f);
  EXPECT_FLOAT_EQ(p.centerOfMassMax[1], 0.05f);
  EXPECT_EQ(p.skipJoints, (std::vector<Joint>{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand}));

  // Tools (debug channel, GUI) show the fields in the file's units.
  bool sawStep = false;
  for (const FieldDescription& field :
       ModuleRegistry::instance().find("EnergySavingProvider")->parameters->describe())
    if (field.path == "maxGearStepLegs")
    {
      sawStep = true;
      EXPECT_EQ(field.unit, "deg");
    }
  EXPECT_TRUE(sawStep);
}

TEST(EnergySavingSafety, EmergencySignsPointWhereGravityPullsAsTheRobotModelComputesIt)
{
  // Holding torques (what the motor must produce) of the two postures standing on both soles. Gravity pulls
  // the other way, and so must the emergency step. Where the torque is large the file must give that sign;
  // where it is negligible the file must give none.
  kinematics::ModelOptions options;
  options.coordinateOrder.assign(jointNames.begin(), jointNames.end());
  const std::string robot = std::string(NAO_CONFIG_DIR) + "/Robots/Default/";
  options.massCalibration = kinematics::loadMassCalibration(robot + "massCalibration.toml");
  const kinematics::Model model = kinematics::loadModel(robot + "nao-v6.urdf", options);
  kinematics::Data data(model);
  const auto feet = kinematics::FeetSupport::fromLinks(model);
  EnergySavingParameters p;
  streams::loadFromTable(
      streams::loadTomlFile(std::string(NAO_CONFIG_DIR) + "/Modules/EnergySavingProvider.toml"), p);

  struct Posture
  {
    const char* name;
    float hip, knee, ankle; ///< degrees
    const JointArray<int>& signs;
  };
  for (const Posture& posture : {Posture{"stand", -20.0484f, 48.0313f, -27.9829f, p.emergencyStepSignsStand},
                                 Posture{"highStand", -7.f, 14.f, -7.f, p.emergencyStepSignsHighStand}})
  {
    StiffnessJointRequest request = standRequest();
    for (Joint joint : {Joint::LHipPitch, Joint::RHipPitch})
      request.angles[joint] = posture.hip * degree;
    for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch})
      request.angles[joint] = posture.knee * degree;
    for (Joint joint : {Joint::LAnklePitch, Joint::RAnklePitch})
      request.angles[joint] = posture.ankle * degree;
    Eigen::VectorXd q(model.coordinateCount()), tau(model.coordinateCount());
    for (std::size_t j = 0; j < numOfJoints; ++j)
      q[static_cast<Eigen::Index>(j)] = request.angles[j];
    const kinematics::SoleLoads halfEach{};
    kinematics::computeStandingTorques(model, data, q, kinematics::defaultGravity, feet, halfEach, tau);
    EXPECT_GT(data.centerOfMass.x(), -0.02);
    EXPECT_LT(data.centerOfMass.x(), 0.05) << "the posture itself lies inside the reset window";
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const double holding = tau[static_cast<Eigen::Index>(j)];
      const int gravityPulls = holding > 0 ? -1 : 1;
      const std::string what = std::string(posture.name) + " " + std::string(name(jointAt(j))) +
                               ": holding torque " + std::to_string(holding) + " N·m";
      if (std::abs(holding) >= 0.1)
        EXPECT_EQ(posture.signs[j], gravityPulls) << what;
      else if (std::abs(holding) < 0.05)
        EXPECT_EQ(posture.signs[j], 0) << what;
      else
        EXPECT_TRUE(posture.signs[j] == 0 || posture.signs[j] == gravityPulls) << what;
    }
  }
}

/// Gear friction holds each joint where the load pushed it (`held`); the position controller draws current in
/// proportion to how far the request is from there (1 A per degree), whatever the joint does.
class FrictionPlant : public Plant
{
public:
  JointArray<float> held;
  void respond(const JointRequest& request, Inputs& in) override
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      in.currents[j] = std::abs(request.angles[j] - held[j]) / degree;
  }
};

TEST(EnergySavingSafety, WithGearFrictionTheLegCurrentsFallBelow300mAIn10sAndBelowTheThresholdIn30s)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  FrictionPlant plant;
  plant.held = in.request.angles;
  const JointArray<float> sagDegrees = []
  {
    JointArray<float> sag;
    sag[Joint::LKneePitch] = 1.6f, sag[Joint::RKneePitch] = 1.3f;     // knees bend under the weight
    sag[Joint::LAnklePitch] = -1.2f, sag[Joint::RAnklePitch] = -1.4f; // shanks tip forward
    sag[Joint::LHipPitch] = 0.4f, sag[Joint::RHipRoll] = -0.35f, sag[Joint::LHipYawPitch] = 0.25f;
    return sag;
  }();
  for (std::size_t j = 0; j < numOfJoints; ++j)
    plant.held[j] += sagDegrees[j] * degree;
  in.measured = plant.held;
  rig.body.plant = &plant;
  auto maxLegCurrent = [&]
  {
    float highest = 0;
    for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
      highest = std::max(highest, in.currents[j]);
    return highest;
  };
  rig.frame();
  EXPECT_GT(maxLegCurrent(), 1.f) << "without adjustment the knee draws 1.6 A";
  rig.runFor(10.0);
  EXPECT_LT(maxLegCurrent(), 0.3f);
  rig.runFor(20.0);
  EXPECT_LE(maxLegCurrent(), 0.1f + 1e-4f) << "every leg joint at or below its 100 mA threshold";
  EXPECT_EQ(rig.state(), EnergySavingState::working);
}
