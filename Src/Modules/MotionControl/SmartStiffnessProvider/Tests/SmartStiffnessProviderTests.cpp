// SmartStiffnessProvider on real static torques: RobotModelProvider and StaticTorqueProvider compute JointTorques
// from the posture and the FSRs each frame, the stage computes the stiffness from them and the motor table.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/RobotModelProvider/RobotModelProvider.h"
#include "Modules/Modeling/StaticTorqueProvider/StaticTorqueProvider.h"
#include "Modules/MotionControl/SmartStiffnessProvider/SmartStiffnessProvider.h"
#include <cmath>
#include <functional>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

using namespace nao;

namespace
{
constexpr float degree = std::numbers::pi_v<float> / 180.f;
constexpr float frameTime = 0.012f; // s, one LoLA frame
constexpr float robotMass = 5.3f;   // kg, what the FSRs of a standing NAO read together

/// Degrees per joint in LoLA order, as the scenario files write postures.
JointArray<float> posture(std::initializer_list<std::pair<Joint, float>> degrees)
{
  JointArray<float> angles;
  for (const auto& [joint, value] : degrees)
    angles[joint] = value * degree;
  return angles;
}

// B-Human's stand and the sit of Config/Scenarios/sit.toml (degrees).
const JointArray<float> stand = posture({{Joint::LShoulderPitch, 90},
                                         {Joint::LShoulderRoll, 7},
                                         {Joint::LElbowRoll, -2.5f},
                                         {Joint::LWristYaw, -90},
                                         {Joint::LHipPitch, -20.05f},
                                         {Joint::LKneePitch, 48.03f},
                                         {Joint::LAnklePitch, -27.98f},
                                         {Joint::RHipPitch, -20.05f},
                                         {Joint::RKneePitch, 48.03f},
                                         {Joint::RAnklePitch, -27.98f},
                                         {Joint::RShoulderPitch, 90},
                                         {Joint::RShoulderRoll, -7},
                                         {Joint::RElbowRoll, 2.5f},
                                         {Joint::RWristYaw, 90}});
const JointArray<float> sit = posture({{Joint::LShoulderPitch, 77},
                                       {Joint::LShoulderRoll, 20},
                                       {Joint::LElbowRoll, -35},
                                       {Joint::LWristYaw, -90},
                                       {Joint::LHipPitch, -40},
                                       {Joint::LKneePitch, 110},
                                       {Joint::LAnklePitch, -45},
                                       {Joint::RHipPitch, -40},
                                       {Joint::RKneePitch, 110},
                                       {Joint::RAnklePitch, -45},
                                       {Joint::RShoulderPitch, 77},
                                       {Joint::RShoulderRoll, -20},
                                       {Joint::RElbowRoll, 35},
                                       {Joint::RWristYaw, 90}});

/// The stage behind the two modules that compute its static torques, one frame at a time.
struct Rig
{
  ModuleHarness<RobotModelProvider> model;
  ModuleHarness<StaticTorqueProvider> statics;
  ModuleHarness<SmartStiffnessProvider> stage;
  JointArray<float> measured = stand; ///< rad
  JointArray<float> request = stand;  ///< rad
  JointArray<float> user;             ///< 0..1
  std::array<float, 2> footKg{robotMass / 2, robotMass / 2};
  double time = 0;
  std::uint32_t frame = 0;

  Rig() { user.fill(1.f); }

  void setFeet(float left, float right) { footKg = {left, right}; }

  void run(int frames = 1)
  {
    for (int i = 0; i < frames; ++i)
    {
      model.input<JointSensorData>().angles = measured;
      model.run();
      JointSensorData& sensors = statics.input<JointSensorData>();
      sensors.angles = measured;
      statics.input<RobotModel>() = model.output<RobotModel>();
      for (int foot = 0; foot < 2; ++foot)
      {
        FsrFoot& fsr = foot == 0 ? statics.input<FsrSensorData>().left : statics.input<FsrSensorData>().right;
        fsr.readings.fill(footKg[static_cast<std::size_t>(foot)] / 4);
        fsr.totalWeight = footKg[static_cast<std::size_t>(foot)];
        fsr.centerOfPressure = {0.f, 0.f};
        fsr.hasPressure = fsr.totalWeight > 0.1f;
      }
      statics.run();
      time += frameTime;
      ++frame;
      stage.input<FrameInfo>() = {time, frame, 0};
      stage.input<JointSensorData>().angles = measured;
      stage.input<JointTorques>() = statics.output<JointTorques>();
      stage.input<CollisionFreeJointRequest>().angles = request;
      stage.input<CollisionFreeJointRequest>().stiffnesses = user;
      stage.input<JointRequest>().angles = request; // last frame's final request: no heat adjustment here
      stage.run();
    }
  }
  const SmartStiffness& status() const { return stage.output<SmartStiffness>(); }
  /// Frames within the settle time (the stage must not limit yet), and one frame past it.
  int settleFrames() { return static_cast<int>(params().settleTime / frameTime); }
  void settle() { run(settleFrames() + 2); }
  const StiffnessJointRequest& out() const { return stage.output<StiffnessJointRequest>(); }
  const SmartStiffnessParameters& params()
  {
    return *static_cast<const SmartStiffnessParameters*>(stage.module().parametersObject());
  }
  void expectUserEverywhere(const char* why) const
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      EXPECT_EQ(out().stiffnesses[j], user[j]) << jointNames[j] << ": " << why;
  }
  /// What the stage must have computed from the torques it got and the motor table (Config/Sim/motors.toml).
  void expectFormula(float maxKnee = 5.103f)
  {
    const SmartStiffnessParameters& q = params();
    const JointTorques& torques = stage.input<JointTorques>();
    EXPECT_FLOAT_EQ(status().maxTorques[Joint::LKneePitch], maxKnee);
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const float needed =
          std::min(1.f, q.margin * std::abs(torques.torques[j]) / status().maxTorques[j] + q.floor);
      EXPECT_NEAR(status().needed[j], needed, 1e-6) << jointNames[j];
      EXPECT_FLOAT_EQ(out().stiffnesses[j], std::min(user[j], needed)) << jointNames[j];
    }
  }
};

} // namespace

TEST(SmartStiffness, MotorTableIsTheSimulatorsWithFirmwareFactors)
{
  Rig rig;
  rig.run();
  const SmartStiffness& s = rig.status();
  EXPECT_FLOAT_EQ(s.maxTorques[Joint::LKneePitch], 5.103f);
  EXPECT_FLOAT_EQ(s.maxTorques[Joint::LHipYawPitch], 7.851f);
  EXPECT_FLOAT_EQ(s.maxTorques[Joint::RShoulderPitch], 2.020f);
  EXPECT_FLOAT_EQ(s.maxTorques[Joint::HeadYaw], 1.289f);
  EXPECT_FLOAT_EQ(s.maxTorques[Joint::RHand], 0.204f);
}

TEST(SmartStiffness, UserStiffnessCapsTheComputedOne)
{
  Rig rig;
  rig.stage.parameters().margin = 1.f;
  rig.stage.parameters().floor = 0.38f; // HeadYaw holds no static torque (vertical axis): needed = 0.38
  rig.user[Joint::HeadYaw] = 0.2f;      // NAOqi's example: user 0.2, computed 0.38 -> 0.2
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  EXPECT_NEAR(rig.status().needed[Joint::HeadYaw], 0.38f, 0.01f);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::HeadYaw], 0.2f);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], rig.status().needed[Joint::LKneePitch]);
  rig.expectFormula();
}

TEST(SmartStiffness, ActivatesAfterSettleTimeAndReleasesInTheFrameTheRequestMoves)
{
  Rig rig;
  rig.run(rig.settleFrames()); // the first frame only starts the clock: still settling
  EXPECT_EQ(rig.status().state, SmartStiffnessState::settling);
  rig.expectUserEverywhere("settling");
  rig.run(2);
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  EXPECT_LT(rig.out().stiffnesses[Joint::LKneePitch], 0.5f);
  rig.expectFormula();

  rig.request[Joint::LShoulderPitch] += 1.f * degree; // a sudden arm motion
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::requestMoved);
  rig.expectUserEverywhere("the request moved this frame");
  EXPECT_EQ(rig.out().angles, rig.stage.input<CollisionFreeJointRequest>().angles);

  rig.settle(); // resting at the new angle: active again
  EXPECT_EQ(rig.status().state, SmartStiffnessState::active);
  rig.measured[Joint::RHipRoll] += 1.f * degree; // a push: 83 deg/s in one frame
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::jointsMoving);
  rig.expectUserEverywhere("a joint moved this frame");
}

TEST(SmartStiffness, AFallOrATakeoverGivesTheUserStiffnessAndTheStaticTimeStartsAgain)
{
  // What takes the motion from the source (MotionSourceHolds.h), each in turn on a settled, limiting stage.
  const std::vector<std::function<void(Rig&, bool)>> takeovers{
      [](Rig& r, bool on)
      { r.stage.input<FallDownState>().state = on ? FallState::falling : FallState::upright; },
      [](Rig& r, bool on)
      { r.stage.input<FallDownState>().state = on ? FallState::fallen : FallState::upright; },
      [](Rig& r, bool on)
      { r.stage.input<SitDown>().phase = on ? SitDownPhase::sitting : SitDownPhase::passThrough; },
      [](Rig& r, bool on)
      {
        r.stage.input<FallProtection>().phase =
            on ? FallProtectionPhase::handingBack : FallProtectionPhase::passThrough;
      }};
  for (std::size_t k = 0; k < takeovers.size(); ++k)
  {
    SCOPED_TRACE("takeover " + std::to_string(k));
    Rig rig;
    rig.settle();
    ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
    takeovers[k](rig, true);
    rig.run();
    EXPECT_EQ(rig.status().state, SmartStiffnessState::takenOver) << "the same frame";
    rig.expectUserEverywhere("taken over");
    rig.run(rig.settleFrames() * 2);
    EXPECT_EQ(rig.status().state, SmartStiffnessState::takenOver) << "for as long as it lasts";
    rig.expectUserEverywhere("still taken over");
    takeovers[k](rig, false);
    rig.run(rig.settleFrames());
    EXPECT_EQ(rig.status().state, SmartStiffnessState::settling) << "static for settleTime again first";
    rig.run(2);
    EXPECT_EQ(rig.status().state, SmartStiffnessState::active);
  }
  Rig staggering; // may still be caught: the stage keeps limiting, as with lifted feet
  staggering.settle();
  staggering.stage.input<FallDownState>().state = FallState::staggering;
  staggering.run();
  EXPECT_EQ(staggering.status().state, SmartStiffnessState::active);
}

TEST(SmartStiffness, AJointTheHeatAdjustmentSearchesKeepsTheUserStiffnessUntilItHoldsItsOffset)
{
  Rig rig;
  JointArray<bool>& searching = rig.stage.input<EnergySaving>().searching; // last frame's, from behind
  searching[Joint::LKneePitch] = searching[Joint::RAnklePitch] = true;
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  EXPECT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 1.f) << "searched: the user's stiffness";
  EXPECT_EQ(rig.out().stiffnesses[Joint::RAnklePitch], 1.f);
  EXPECT_TRUE(rig.status().heatSearching[Joint::LKneePitch]);
  EXPECT_LT(rig.out().stiffnesses[Joint::RKneePitch], 0.5f) << "held by the heat adjustment: limited";
  EXPECT_LT(rig.status().needed[Joint::LKneePitch], 0.5f) << "the need is still computed and shown";
  searching[Joint::LKneePitch] = false; // the knee's search settled
  rig.run();
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], rig.status().needed[Joint::LKneePitch])
      << "limited in the frame the heat adjustment holds it";
  EXPECT_EQ(rig.out().stiffnesses[Joint::RAnklePitch], 1.f);
  searching[Joint::LKneePitch] = true; // its current rose: a new search
  rig.run();
  EXPECT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 1.f) << "the user's stiffness in that same frame";
  searching.fill(false);
  rig.run();
  rig.expectFormula();
}

TEST(SmartStiffness, CreepingRequestBelowTheThresholdStaysActiveUntilItHasCreptTheThreshold)
{
  Rig rig;
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  int frames = 0;
  while (rig.status().state == SmartStiffnessState::active && frames < 100)
  {
    rig.request[Joint::LKneePitch] += 0.02f * degree; // a balancer's creep
    rig.run();
    ++frames;
  }
  EXPECT_EQ(rig.status().state, SmartStiffnessState::requestMoved);
  EXPECT_EQ(frames, 26) << "0.5 deg in 0.02 deg steps: the 26th step passes the threshold";
}

TEST(SmartStiffness, TwoFeetOneFootLiftedAndSitting)
{
  Rig twoFeet;
  twoFeet.settle();
  ASSERT_EQ(twoFeet.status().state, SmartStiffnessState::active);
  twoFeet.expectFormula();
  const SmartStiffness both = twoFeet.status();
  // The knees carry the body (B-Human's stand: ~0.66 N·m each, Config/Sim/motors.toml): well above the floor,
  // far below 1; the two sides agree.
  EXPECT_GT(std::abs(both.torques[Joint::LKneePitch]), 0.3f);
  EXPECT_GT(both.needed[Joint::LKneePitch], 0.15f);
  EXPECT_LT(both.needed[Joint::LKneePitch], 0.5f);
  EXPECT_NEAR(both.needed[Joint::LKneePitch], both.needed[Joint::RKneePitch], 0.01f);

  Rig oneFoot;
  oneFoot.setFeet(robotMass, 0.f); // all the weight on the left sole
  oneFoot.settle();
  ASSERT_EQ(oneFoot.status().state, SmartStiffnessState::active);
  oneFoot.expectFormula();
  const SmartStiffness& one = oneFoot.status();
  EXPECT_GT(one.needed[Joint::LKneePitch], both.needed[Joint::LKneePitch] + 0.05f)
      << "the stance knee carries twice";
  EXPECT_LT(one.needed[Joint::RKneePitch], both.needed[Joint::RKneePitch])
      << "the free knee carries its shank";
  EXPECT_GT(std::abs(one.torques[Joint::LHipRoll]), std::abs(both.torques[Joint::LHipRoll]));

  Rig lifted;
  lifted.setFeet(0.f, 0.f); // nothing on the soles: gravity on the limbs only
  lifted.settle();
  ASSERT_EQ(lifted.status().state, SmartStiffnessState::active);
  lifted.expectFormula();
  const SmartStiffness& air = lifted.status();
  for (Joint joint : {Joint::LKneePitch, Joint::LAnklePitch, Joint::RKneePitch, Joint::RAnklePitch})
    EXPECT_LT(air.needed[joint], lifted.params().floor + 0.05f)
        << name(joint) << ": a hanging leg holds its foot";
  EXPECT_LT(air.needed[Joint::LHipPitch], both.needed[Joint::LKneePitch]);

  Rig sitting;
  sitting.measured = sitting.request = sit;
  sitting.setFeet(0.f, 0.f); // the buttocks carry the torso; the feet rest unloaded
  sitting.settle();
  ASSERT_EQ(sitting.status().state, SmartStiffnessState::active);
  sitting.expectFormula();
  const SmartStiffness& seat = sitting.status();
  EXPECT_LT(seat.needed[Joint::LKneePitch], both.needed[Joint::LKneePitch]);
  EXPECT_LT(seat.needed[Joint::RKneePitch], both.needed[Joint::RKneePitch]);
  // The arms held out in front (shoulder pitch 77°) carry their own weight: more than the floor.
  EXPECT_GT(seat.needed[Joint::LShoulderPitch], sitting.params().floor + 0.02f);
}

TEST(SmartStiffness, NanStaleOrInvalidInputGivesTheUserStiffnessWithoutAJump)
{
  Rig rig;
  rig.user.fill(0.8f);
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  const float activeKnee = rig.out().stiffnesses[Joint::LKneePitch];
  EXPECT_LT(activeKnee, 0.8f);

  rig.measured[Joint::LKneePitch] = std::numeric_limits<float>::quiet_NaN();
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::invalidInput);
  rig.expectUserEverywhere("NaN joint angle");
  EXPECT_EQ(rig.out().angles, rig.stage.input<CollisionFreeJointRequest>().angles) << "angles pass unchanged";

  rig.measured = stand; // valid again: the settle time starts over, nothing limits before it has passed
  rig.run();
  EXPECT_NE(rig.status().state, SmartStiffnessState::active);
  rig.expectUserEverywhere("first frame after the NaN");
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  EXPECT_NEAR(rig.out().stiffnesses[Joint::LKneePitch], activeKnee, 1e-6);

  rig.time += 0.2; // a stale frame: 212 ms since the last one
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::invalidInput);
  rig.expectUserEverywhere("stale frame");

  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  rig.stage.input<JointTorques>().valid = false;
  rig.stage.input<FrameInfo>() = {rig.time += frameTime, ++rig.frame, 0};
  rig.stage.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::invalidInput);
  rig.expectUserEverywhere("JointTorques not valid");

  // Torques on a sensor SensorHealth distrusts (a dead foot: the kinematic fallback; an accelerometer that may tilt
  // gravity): no limit is lowered on them.
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  rig.statics.input<SensorHealth>()[Sensor::leftFsr].state = SensorState::failed;
  rig.run();
  EXPECT_FALSE(rig.stage.input<JointTorques>().sensorsTrusted);
  EXPECT_EQ(rig.status().state, SmartStiffnessState::sensorsDistrusted);
  rig.expectUserEverywhere("a foot's FSRs distrusted");
  rig.statics.input<SensorHealth>()[Sensor::leftFsr].state = SensorState::valid;
  rig.statics.input<SensorHealth>()[Sensor::accelerometer].state = SensorState::suspect;
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::sensorsDistrusted);
  rig.statics.input<SensorHealth>()[Sensor::accelerometer].state = SensorState::valid;

  rig.request[Joint::HeadYaw] = std::numeric_limits<float>::quiet_NaN();
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::invalidInput);
  rig.expectUserEverywhere("NaN request");
}

TEST(SmartStiffness, HotMotorNeedsMoreAndCriticalKeepsTheUserStiffness)
{
  Rig rig;
  rig.user.fill(0.9f);
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  const float regular = rig.status().needed[Joint::LKneePitch];
  rig.stage.input<JointSensorData>().status[Joint::LKneePitch] = TemperatureStatus::hot;
  rig.stage.input<JointSensorData>().status[Joint::RKneePitch] = TemperatureStatus::criticallyHot;
  rig.stage.input<FrameInfo>() = {rig.time += frameTime, ++rig.frame, 0};
  rig.stage.run();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  // hot: the firmware leaves 0.8 of the torque (Config/Sim/motors.toml hotLimitEnd)
  EXPECT_FLOAT_EQ(rig.status().maxTorques[Joint::LKneePitch], 5.103f * 0.8f);
  const float floor = rig.params().floor;
  EXPECT_NEAR(rig.status().needed[Joint::LKneePitch] - floor, (regular - floor) / 0.8f, 1e-5);
  EXPECT_FLOAT_EQ(rig.status().maxTorques[Joint::RKneePitch], 0.f);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::RKneePitch], 0.9f);
}

TEST(SmartStiffness, DisabledLiveByParameterPassesTheUserStiffness)
{
  Rig rig;
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  rig.stage.parameters().enabled = false;
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::disabled);
  rig.expectUserEverywhere("disabled");
  rig.stage.parameters().enabled = true;
  rig.run();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::settling) << "switched on: settles first";
  rig.settle();
  EXPECT_EQ(rig.status().state, SmartStiffnessState::active);
}

TEST(SmartStiffness, SaggingJointGetsTheUserStiffnessBack)
{
  Rig rig;
  rig.user.fill(0.7f);
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  for (int i = 0; i < 60; ++i) // the knee gives way slowly, 0.025° per frame (2 deg/s): below maxJointSpeed
  {
    rig.measured[Joint::LKneePitch] += 0.025f * degree;
    rig.run();
  }
  EXPECT_EQ(rig.status().state, SmartStiffnessState::active);
  EXPECT_TRUE(rig.status().sagging[Joint::LKneePitch]);
  EXPECT_FALSE(rig.status().sagging[Joint::RKneePitch]);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 0.7f);
  EXPECT_LT(rig.out().stiffnesses[Joint::RKneePitch], 0.7f);
}

TEST(SmartStiffness, JointPinnedAtItsLimitGetsTheUserStiffnessUntilItsCurrentFalls)
{
  Rig rig;
  rig.stage.parameters().releasePinnedJoints = true;
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  const float limit = rig.out().stiffnesses[Joint::LKneePitch];
  ASSERT_LT(limit, 0.5f);
  // The knee's motor works at its limit: stiffness × 5.103 N·m / (0.01317 N·m/A × 130.85 × 0.6) (motors.toml).
  const float limitCurrent = limit * 5.103f / (0.01317f * 130.85f * 0.6f); // A
  rig.stage.input<JointSensorData>().currents[Joint::LKneePitch] = 0.95f * limitCurrent;
  rig.run(20); // 240 ms < pinnedTime 250 ms
  EXPECT_FALSE(rig.status().pinned[Joint::LKneePitch]);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], limit);
  rig.run(2);
  EXPECT_TRUE(rig.status().pinned[Joint::LKneePitch]);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 1.f) << "pinned: the user's stiffness";
  EXPECT_LT(rig.out().stiffnesses[Joint::RKneePitch], 0.5f) << "the other knee keeps its limit";

  rig.stage.input<JointSensorData>().currents[Joint::LKneePitch] = 0.2f * limitCurrent; // the heat adjustment
  rig.run(150);                                                                         // 1.8 s < releaseTime
  EXPECT_TRUE(rig.status().pinned[Joint::LKneePitch]);
  rig.run(20);
  EXPECT_FALSE(rig.status().pinned[Joint::LKneePitch]);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], limit)
      << "the current is below the limit's again";
}

TEST(SmartStiffness, AJointWhoseCurrentRisesUnderItsLimitGetsTheUserStiffnessBackUntilTheRequestMoves)
{
  Rig rig;
  JointArray<float>& currents = rig.stage.input<JointSensorData>().currents;
  currents[Joint::LKneePitch] = 0.4f; // A at the user's stiffness
  rig.settle();
  ASSERT_EQ(rig.status().state, SmartStiffnessState::active);
  const float limit = rig.out().stiffnesses[Joint::LKneePitch];
  ASSERT_LT(limit, 1.f);
  EXPECT_NEAR(rig.status().references[Joint::LKneePitch], 0.4f, 0.01f) << "A, when the limit began";
  EXPECT_TRUE(std::isnan(rig.status().references[Joint::HeadYaw]) ||
              rig.out().stiffnesses[Joint::HeadYaw] < 1.f);
  // Within the margin (10 % + 20 mA): the limit holds.
  currents[Joint::LKneePitch] = 0.45f;
  rig.run(200);
  EXPECT_FALSE(rig.status().guarded[Joint::LKneePitch]);
  EXPECT_FLOAT_EQ(rig.out().stiffnesses[Joint::LKneePitch], limit);
  // Above it, briefly (the filtered current above the margin for less than guardTime, 1 s): still.
  currents[Joint::LKneePitch] = 0.8f;
  rig.run(30);
  currents[Joint::LKneePitch] = 0.4f;
  rig.run(60);
  EXPECT_FALSE(rig.status().guarded[Joint::LKneePitch]);
  EXPECT_EQ(rig.status().guardEvents, 0u);
  // Above it for good: lifted, and the event says which joint, why and when.
  currents[Joint::LKneePitch] = 0.8f;
  rig.run(120);
  EXPECT_TRUE(rig.status().guarded[Joint::LKneePitch]);
  EXPECT_EQ(rig.status().guardEvents, 1u);
  EXPECT_EQ(rig.status().lastGuardJoint, Joint::LKneePitch);
  EXPECT_EQ(rig.status().lastGuardRule, SmartStiffnessGuardRule::currentRose);
  EXPECT_NEAR(rig.status().lastGuardTime, rig.time, 1.0);
  EXPECT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 1.f) << "the user's stiffness";
  EXPECT_LT(rig.out().stiffnesses[Joint::RKneePitch], 1.f) << "the other knee keeps its limit";
  currents[Joint::LKneePitch] = 0.2f; // lower at the user's stiffness: it stays there while the posture holds
  rig.run(200);
  EXPECT_EQ(rig.out().stiffnesses[Joint::LKneePitch], 1.f);
  rig.request[Joint::LKneePitch] += 1.f * degree; // a new posture
  rig.run();
  EXPECT_FALSE(rig.status().guarded[Joint::LKneePitch]);
  rig.settle();
  EXPECT_LT(rig.out().stiffnesses[Joint::LKneePitch], 1.f) << "limited again in the new posture";
}

TEST(SmartStiffness, ASagCountsAsAGuardEvent)
{
  Rig rig;
  rig.settle();
  for (int i = 0; i < 60; ++i)
  {
    rig.measured[Joint::LKneePitch] += 0.025f * degree;
    rig.run();
  }
  ASSERT_TRUE(rig.status().sagging[Joint::LKneePitch]);
  EXPECT_EQ(rig.status().guardEvents, 1u);
  EXPECT_EQ(rig.status().lastGuardRule, SmartStiffnessGuardRule::trackingErrorRose);
  EXPECT_EQ(rig.status().lastGuardJoint, Joint::LKneePitch);
}
