// What must hold whatever the rules: the request passes unchanged when the stage is off or not asked,
// non-finite sensor values change nothing, update() never allocates, the config file holds the documented
// numbers, the emergency sign tables agree with the robot model's physics (disabled: see there), and with a
// gear-friction plant the currents fall.
#include "Framework/Controller.h"
#include "Framework/Testing/ModuleHarness.h"
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
void expectOutputIsInput(const JointRequest& output, double time)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    EXPECT_EQ(output.angles[j], inputs().request.angles[j]) << name(jointAt(j)) << " at " << time;
    EXPECT_EQ(output.stiffnesses[j], inputs().request.stiffnesses[j]);
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
  // The stage set `off` is the framework's pass-through, in which no module runs: the real framework, with the
  // request from ScriptedProviders.cpp and the sensors from inputs().
  resetInputs();
  makeEverythingHot(inputs());
  ScriptedBody body;
  Blackboard blackboard;
  MotionLoop motion(blackboard, body);
  Controller controller(ConfigLocation{NAO_CONFIG_DIR, "Default"}, blackboard, motion);
  const SourcePosition here{"test", 1, 1};
  controller.start({{"StiffnessJointRequest", "ScriptedStiffnessRequest", here},
                    {"JointRequest", "off", here},
                    {"EnergySaving", "off", here}},
                   "stage-off-test");
  for (int frame = 0; frame < 400; ++frame)
  {
    ASSERT_TRUE(motion.runFrame());
    controller.service();
    expectOutputIsInput(blackboard.get<JointRequest>(), blackboard.get<FrameInfo>().time);
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
      expectOutputIsInput(rig.output(), rig.time());
      EXPECT_EQ(rig.state(), EnergySavingState::off);
    }
  }
}

TEST(EnergySavingSafety, NonFiniteSensorValuesLeaveTheOutputAsTheLastGoodOne)
{
  EnergySavingRig rig;
  Inputs& in = inputs();
  in.energySaving = requestAll(EnergySavingPosture::highStand);
  FallingCurrents currents; // falling currents, readings far away: every round moves every hot joint
  for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch})
  {
    in.measured[joint] = in.request.angles[joint] + 5.f * degree;
    currents.heat(joint, 0.5f);
  }
  rig.plant = &currents;
  for (int round = 0; round < 3; ++round) // 0.6°: below largeOffset, whatever the centre of mass
    ASSERT_TRUE(rig.runUntilNextRound());
  const JointRequest good = rig.output();

  in.measured[Joint::LKneePitch] = notANumber; // angle
  in.currents[Joint::RKneePitch] = notANumber; // current (the filter also keeps its last good mean)
  in.leftFootWeight = notANumber;              // ground contact
  in.centerOfMass = {notANumber, notANumber, notANumber}; // reset condition
  in.torsoAngles = {notANumber, notANumber};              // reset condition
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
  EXPECT_TRUE(rig.energy().groundContact) << "the last contact state holds";
}

TEST(EnergySavingSafety, UpdateNeverAllocates)
{
  RigOptions options;
  options.guard = true; // its references, rounds, holds and releases too
  EnergySavingRig rig(options);
  Inputs& in = inputs();
  makeEverythingHot(in);
  auto frames = [&](double seconds)
  {
    for (double end = rig.time() + seconds - 1e-9; rig.time() < end;)
    {
      countAllocations = true;
      rig.frame();
      countAllocations = false;
    }
  };
  frames(8.0);                                  // start, base offsets, searches, caps, resets
  for (std::size_t j = 0; j < numOfJoints; ++j) // worse than the references: the guard holds joints
    in.currents[j] = 3.f;
  frames(4.0);
  in.request.angles[Joint::LElbowRoll] += 2.f * degree; // another posture for one joint: it measures again
  frames(1.0);
  in.energySaving.adjustLeftArm = false;
  frames(1.0);
  in.energySaving.adjustLeftArm = true;
  for (int frame = 0; frame < 100; ++frame) // a jittering request
  {
    in.request.angles[Joint::RHipPitch] += frame % 2 ? 0.0004f : -0.0004f;
    frames(frameTime);
  }
  rig.setParameter("skipJoints", "[\"HeadYaw\", \"HeadPitch\", \"LHand\"]"); // swapped inside a frame
  frames(3.0);
  rig.setParameter("handOverRounds", 3);
  in.energySaving.posture = EnergySavingPosture::highStand;
  in.centerOfMass = {0.1f, 0.f, -0.05f}; // offsets too large -> reset
  frames(6.0);
  in.leftFootWeight = in.rightFootWeight = 0.f; // picked up: reset, then working
  frames(4.0);
  in.leftFootWeight = in.rightFootWeight = 2.6f;
  in.energySaving.accuratePositions = true;
  frames(3.0);
  in.measured[Joint::LKneePitch] = notANumber;
  in.energySaving.adjust = false;
  frames(4.0);
  EXPECT_EQ(allocations.load(), 0u);
}

TEST(EnergySavingSafety, TheLoadedParametersHoldEveryNumberOfTheIssueInSI)
{
  const EnergySavingParameters p =
      loadModuleParameters<EnergySavingParameters>(testConfigFiles().location, "EnergySavingProvider");
  auto inRad = [](double degrees) { return degrees * std::numbers::pi / 180.0; };
  EXPECT_FLOAT_EQ(p.motionChangeWaitTime, 0.1f);
  EXPECT_FLOAT_EQ(p.adjustWaitTime, 0.25f) << "ours: one current window plus a frame (B-Human: 500 ms)";
  EXPECT_FLOAT_EQ(p.resetTime, 3.f);
  EXPECT_FLOAT_EQ(p.baseOffsetFadeInTime, 0.06f);
  EXPECT_NEAR(p.maxBaseOffset, inRad(3.0), 1e-8) << "the offsets' own cap";
  EXPECT_FLOAT_EQ(p.legCurrentThreshold, 0.1f);
  EXPECT_FLOAT_EQ(p.legCurrentThresholdLargeOffset, 0.3f);
  EXPECT_NEAR(p.largeOffset, inRad(1.5), 1e-8); // float
  EXPECT_FLOAT_EQ(p.armCurrentThreshold, 0.03f);
  for (float override : p.currentThresholdOverrides)
    EXPECT_EQ(override, 0.f);
  EXPECT_EQ(p.stepsBeforeEmergencyStep, 10);
  EXPECT_NEAR(p.maxGearStepLegs, inRad(0.2), 1e-8); // float
  EXPECT_NEAR(p.maxGearStepLegs, 0.0035, 1e-4) << "the issue's 0.0035 rad";
  EXPECT_NEAR(p.maxGearStepArms, inRad(0.458366), 1e-8); // float
  EXPECT_NEAR(p.minGearStep, inRad(0.0286479), 1e-8);    // float
  EXPECT_NEAR(p.maxOffset, inRad(3.0), 1e-8);            // float
  EXPECT_FLOAT_EQ(p.accurateFineStepFraction, 0.5f) << "accuratePositions: minGearStep / 2";
  EXPECT_EQ(p.largeOffsetJointsForReset, 4);
  EXPECT_NEAR(p.agreementBand, inRad(0.088), 1e-8) << "one 12-bit count";
  EXPECT_FLOAT_EQ(p.minSearchStepFraction, 0.125f);
  EXPECT_FLOAT_EQ(p.searchCurrentTolerance, 0.005f);
  EXPECT_EQ(p.stalledRoundsToSettle, 4);
  EXPECT_EQ(p.handOverRounds, 7);
  EXPECT_TRUE(p.guard.enabled) << "do no harm";
  EXPECT_FLOAT_EQ(p.guard.marginFraction, 0.1f) << "10 % ...";
  EXPECT_FLOAT_EQ(p.guard.marginCurrent, 0.02f) << "... + 20 mA";
  EXPECT_EQ(p.guard.rounds, 4);
  EXPECT_EQ(p.guard.window, 8);
  EXPECT_FLOAT_EQ(p.guard.progress, 0.005f);
  EXPECT_NEAR(p.guard.postureTolerance, inRad(1.0), 1e-8);
  EXPECT_NEAR(p.guard.restlessTravel, inRad(0.35), 1e-8);
  EXPECT_NEAR(p.guard.restlessSpan, inRad(0.15), 1e-8);
  EXPECT_EQ(p.guard.restlessRounds, 2);
  EXPECT_NEAR(p.guard.movedTolerance, inRad(0.2), 1e-8);
  EXPECT_NEAR(p.maxSag, inRad(0.5), 1e-8);
  EXPECT_FLOAT_EQ(p.centerOfMassMin[0], -0.02f);
  EXPECT_FLOAT_EQ(p.centerOfMassMax[0], 0.05f);
  EXPECT_FLOAT_EQ(p.centerOfMassMin[1], -0.05f);
  EXPECT_FLOAT_EQ(p.centerOfMassMax[1], 0.05f);
  EXPECT_FLOAT_EQ(p.groundContactWeight, 1.f);
  EXPECT_FLOAT_EQ(p.groundContactDebounceTime, 0.1f);
  EXPECT_EQ(p.skipJoints, (std::vector<Joint>{Joint::HeadYaw, Joint::HeadPitch, Joint::LHand, Joint::RHand}));
  for (std::size_t j = 0; j < numOfJoints; ++j) // B-Human's standSigns and highStandSigns, as the file says
  {
    const Joint joint = jointAt(j);
    const bool knee = joint == Joint::LKneePitch || joint == Joint::RKneePitch;
    const int other = joint == Joint::HeadPitch ? 0 : joint == Joint::RHipRoll ? 1 : -1;
    EXPECT_EQ(p.emergencyStepSignsStand[j], knee ? 1 : other) << name(joint);
    EXPECT_EQ(p.emergencyStepSignsHighStand[j], knee ? -1 : other) << name(joint);
  }

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

// B-Human's sign tables (the file's) disagree with the robot model where the load is large: RShoulderRoll in both
// postures (holding -0.12 N·m: the load pulls +1, the table says -1) and the knees in the high stand at 14°
// (holding -0.25 N·m: +1, the table -1). The search's first step where request and reading agree goes the way the
// load pulls: by the robot model's static torque (JointTorques), the table only where that torque is small.
TEST(EnergySavingSafety, TheFirstStepGoesWhereGravityPullsAsTheRobotModelComputesIt)
{
  // Holding torques (what the motor must produce) of the two postures standing on both soles. Gravity pulls
  // the other way, and so must the emergency step. Where the torque is large the file must give that sign;
  // where it is negligible any sign will do (B-Human gives one to every joint).
  kinematics::ModelOptions options;
  options.coordinateOrder.assign(jointNames.begin(), jointNames.end());
  const std::string robot = std::string(NAO_CONFIG_DIR) + "/Robots/Default/";
  options.massCalibration = kinematics::loadMassCalibration(robot + "massCalibration.toml");
  const kinematics::Model model = kinematics::loadModel(robot + "nao-v6.urdf", options);
  kinematics::Data data(model);
  const auto feet = kinematics::FeetSupport::fromLinks(model);
  const EnergySavingParameters p =
      loadModuleParameters<EnergySavingParameters>(testConfigFiles().location, "EnergySavingProvider");

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
    // The module on the rig: this posture, these torques from the model, every joint drawing 0.5 A with its
    // reading equal to its request (the agreement band): the first round's step goes the way the load pulls.
    EnergySavingRig rig;
    Inputs& in = inputs();
    in.request = request;
    in.measured = request.angles;
    in.energySaving = requestAll(std::string_view(posture.name) == "stand" ? EnergySavingPosture::stand
                                                                           : EnergySavingPosture::highStand);
    in.torques.valid = true;
    in.torques.supportModel = SupportModel::fsr;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      in.torques.torques[j] = static_cast<float>(tau[static_cast<Eigen::Index>(j)]);
      in.currents[j] = 0.5f;
    }
    ASSERT_TRUE(rig.runUntilState(EnergySavingState::working));
    ASSERT_TRUE(rig.runUntilNextRound());
    int checked = 0, disagreeing = 0;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const Joint joint = jointAt(j);
      const double holding = tau[static_cast<Eigen::Index>(j)];
      if (std::abs(holding) < p.loadDirectionTorque || joint == Joint::HeadYaw || joint == Joint::HeadPitch ||
          joint == Joint::LHand || joint == Joint::RHand)
        continue; // small: the table decides; skipped joints are never adjusted
      const int gravityPulls = holding > 0 ? -1 : 1;
      const std::string what = std::string(posture.name) + " " + std::string(name(joint)) +
                               ": holding torque " + std::to_string(holding) + " N·m";
      EXPECT_GT(rig.offset(joint) * static_cast<float>(gravityPulls), 0.f) << what;
      ++checked;
      disagreeing += posture.signs[j] != gravityPulls;
    }
    EXPECT_GE(checked, 4) << posture.name << ": the knees and ankles at least carry a load";
    EXPECT_GE(disagreeing, 1) << posture.name << ": the model, not the table, decided somewhere";
    std::printf("%s: %d joints with a load the model knows, %d of them against B-Human's table\n",
                posture.name, checked, disagreeing);
  }
}

/// Gear friction holds each joint where the load pushed it (`held`, which the sensor reads); the position
/// controller draws current in proportion to how far the request is from there (1 A per degree).
class FrictionPlant : public Plant
{
public:
  JointArray<float> held;
  void respond(const JointRequest& request, Inputs& in) override
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      in.measured[j] = held[j];
      in.currents[j] = std::abs(request.angles[j] - held[j]) / degree;
    }
  }
};

TEST(EnergySavingSafety, WithGearFrictionTheLegCurrentsFallBelow300mAIn10sAndBelowTheThresholdIn30s)
{
  const JointArray<float> sagDegrees = []
  {
    JointArray<float> sag;
    sag[Joint::LKneePitch] = 1.6f, sag[Joint::RKneePitch] = 1.3f;     // knees bend under the weight
    sag[Joint::LAnklePitch] = -1.2f, sag[Joint::RAnklePitch] = -1.4f; // shanks tip forward
    sag[Joint::LHipPitch] = 0.4f, sag[Joint::RHipRoll] = -0.35f, sag[Joint::LHipYawPitch] = 0.25f;
    return sag;
  }();
  // The legs have given way when the adjustment starts (the base offsets take it up), or they give way half a
  // second later (the rounds must find it).
  for (bool sagAtStart : {true, false})
  {
    EnergySavingRig rig;
    Inputs& in = inputs();
    FrictionPlant plant;
    plant.held = in.request.angles;
    auto sag = [&]
    {
      for (std::size_t j = 0; j < numOfJoints; ++j)
        plant.held[j] += sagDegrees[j] * degree;
    };
    if (sagAtStart) sag();
    in.measured = plant.held;
    rig.plant = &plant;
    auto maxLegCurrent = [&]
    {
      float highest = 0;
      for (std::size_t j = index(Joint::LHipYawPitch); j <= index(Joint::RAnkleRoll); ++j)
        highest = std::max(highest, in.currents[j]);
      return highest;
    };
    rig.frame();
    if (!sagAtStart)
    {
      rig.runFor(0.5);
      sag();
    }
    rig.frame();
    const char* when = sagAtStart ? "sagged at the start" : "sagged later";
    EXPECT_GT(maxLegCurrent(), 1.f) << when << ": without adjustment the knee draws 1.6 A";
    rig.runFor(10.0);
    EXPECT_LT(maxLegCurrent(), 0.3f) << when;
    rig.runFor(20.0);
    EXPECT_LE(maxLegCurrent(), milli(rule::legCurrentThreshold) + 1e-4f)
        << when << ": all at their threshold";
    EXPECT_EQ(rig.state(), EnergySavingState::working) << when;
  }
}
