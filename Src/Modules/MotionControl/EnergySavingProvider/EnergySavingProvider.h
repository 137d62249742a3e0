#pragma once
// B-Human's heat adjustment as a stage of the joint request: StiffnessJointRequest + small angle offsets =
// JointRequest. A motor whose position controller fights gear friction draws current without moving; moving
// its request a little toward where the joint actually is (where the load pushes it) lets the gears hold the
// load and the current falls. The motion source says what it wants in EnergySavingRequest. States, rules and
// every decision taken where the issue left room are described in EnergySavingProvider.cpp; EnergySaving
// shows the state for logs and plots.
//
// The NAO V6 has one hip-yaw-pitch motor for both legs (index LHipYawPitch of Joint): "RHipYawPitch follows
// LHipYawPitch" holds by construction, there is no second request to keep equal.
#include "Framework/Module.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include <numbers>
#include <vector>

namespace nao
{
struct EnergySavingParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  float motionChangeWaitTime = 0.1f;  ///< s (ms in the file), waiting after a start or a motion change
  float adjustWaitTime = 0.5f;        ///< s (ms), time between adjustment rounds in working
  float resetTime = 3.f;              ///< s (ms), offsets fade linearly to 0 over this in resetState
  float baseOffsetFadeInTime = 0.06f; ///< s (ms), base offsets fade in linearly over this
  float maxBaseOffset = 1.f * degree; ///< rad (deg), base offsets are clamped to +-this
  float baseOffsetOldWeight = 0.9f;   ///< low-pass in waiting: old * this + new * (1 - this), per frame
  float legCurrentThreshold = 0.1f;   ///< A (mA), a leg joint is adjusted above this ...
  float legCurrentThresholdLargeOffset = 0.3f; ///< A (mA), ... or above this once |offset| >= largeOffset
  float largeOffset = 1.5f * degree;           ///< rad (deg)
  float armCurrentThreshold = 0.03f;           ///< A (mA), threshold of arm (and unskipped head) joints
  JointArray<float> currentThresholdOverrides; ///< A (mA), replaces the joint's threshold when > 0
  int stepsBeforeEmergencyStep = 10;           ///< rounds over the threshold per emergency step
  float maxGearStepLegs = 0.2f * degree;       ///< rad (deg), step of a leg joint far from its measured angle
  float maxGearStepArms = 0.458366f * degree;  ///< rad (deg), the same for arm joints
  float minGearStep = 0.0286479f * degree;     ///< rad (deg), step when the measured angle is close
  float accurateFineStepFraction = 0.5f;       ///< accuratePositions' fine step = this * minGearStep
  float maxOffset = 3.f * degree;              ///< rad (deg), offsets are clamped to +-this per joint
  // Reset after a round when this many leg joints are beyond largeOffset (or one joint is at maxOffset) and
  // the centre of mass (x, y in the torso frame) is outside [centerOfMassMin, centerOfMassMax] or contact is
  // lost.
  int largeOffsetJointsForReset = 4;
  std::array<float, 2> centerOfMassMin{-0.02f, -0.05f}; ///< m (mm in the file)
  std::array<float, 2> centerOfMassMax{0.05f, 0.05f};   ///< m (mm)
  float groundContactWeight = 1.f;                      ///< kg, both feet together carry more: ground contact
  float groundContactDebounceTime = 0.1f; ///< s (ms), a contact change counts after holding this long
  /// rad (deg), the incoming request of an adjusted joint moving more in one frame is a motion change
  float motionChangeAngle = 0.01f * degree;
  std::vector<Joint> skipJoints{Joint::HeadYaw, Joint::HeadPitch}; ///< never adjusted
  JointArray<int> emergencyStepSignsStand; ///< -1, 0, +1: direction of an emergency step in the normal stand
  JointArray<int> emergencyStepSignsHighStand; ///< the same in the high stand (knees stretched)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("motionChangeWaitTime", motionChangeWaitTime).unit(Unit::milliseconds).range(0.0, 10000.0);
    ar& field("adjustWaitTime", adjustWaitTime).unit(Unit::milliseconds).range(12.0, 60000.0);
    ar& field("resetTime", resetTime).unit(Unit::milliseconds).range(0.0, 60000.0);
    ar& field("baseOffsetFadeInTime", baseOffsetFadeInTime).unit(Unit::milliseconds).range(0.0, 10000.0);
    ar& field("maxBaseOffset", maxBaseOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("baseOffsetOldWeight", baseOffsetOldWeight).range(0.0, 1.0);
    ar& field("legCurrentThreshold", legCurrentThreshold).unit(Unit::milliamperes).range(0.0, 5000.0);
    ar& field("legCurrentThresholdLargeOffset", legCurrentThresholdLargeOffset)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0);
    ar& field("largeOffset", largeOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("armCurrentThreshold", armCurrentThreshold).unit(Unit::milliamperes).range(0.0, 5000.0);
    ar& field("currentThresholdOverrides", currentThresholdOverrides)
        .unit(Unit::milliamperes)
        .range(0.0, 5000.0);
    ar& field("stepsBeforeEmergencyStep", stepsBeforeEmergencyStep).range(1, 1000);
    ar& field("maxGearStepLegs", maxGearStepLegs).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("maxGearStepArms", maxGearStepArms).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("minGearStep", minGearStep).unit(Unit::degrees).range(0.0, 2.0);
    ar& field("accurateFineStepFraction", accurateFineStepFraction).range(0.0, 1.0);
    ar& field("maxOffset", maxOffset).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("largeOffsetJointsForReset", largeOffsetJointsForReset).range(1, 11);
    ar& field("centerOfMassMin", centerOfMassMin).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("centerOfMassMax", centerOfMassMax).unit(Unit::millimeters).range(-200.0, 200.0);
    ar& field("groundContactWeight", groundContactWeight).range(0.0, 10.0);
    ar& field("groundContactDebounceTime", groundContactDebounceTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0);
    ar& field("motionChangeAngle", motionChangeAngle).unit(Unit::degrees).range(0.0, 10.0);
    ar& field("skipJoints", skipJoints);
    ar& field("emergencyStepSignsStand", emergencyStepSignsStand).range(-1, 1);
    ar& field("emergencyStepSignsHighStand", emergencyStepSignsHighStand).range(-1, 1);
  }
};

class EnergySavingProvider
    : public Module<EnergySavingProvider,
                    Requires<StiffnessJointRequest, JointSensorData, FilteredCurrent, RobotModel,
                             FsrSensorData, FrameInfo, EnergySavingRequest>,
                    Provides<JointRequest, EnergySaving>, Parameters<EnergySavingParameters>>
{
public:
  EnergySavingProvider();
  void update(JointRequest& request);
  void update(EnergySaving& energySaving);

private:
  void onParametersChanged() override;
  /// The frame's work, once per frame whichever update() the schedule calls first.
  void computeFrame();
  void updateGroundContact(double now);
  void updateEnabledJoints();
  bool motionChanged() const;
  void enterState(EnergySavingState state, double now);
  void startWaiting(double now); ///< a fresh start from off
  void startReset(EnergySavingResetReason reason, EnergySavingState after, double now);
  void learnBaseOffsets(bool first);
  void runRound();
  void runAccuratePositionsRound();
  bool resetNeeded() const;
  void fadeDisabledJoints(float dt);
  void fadeReset(double now);
  float threshold(Joint joint) const;
  /// The joint's adjustment after `step`, clamped, changed by at most maxStep.
  float steppedAdjustment(std::size_t joint, float step, float maxStep) const;
  float appliedBase(std::size_t joint) const;
  void clearOffsets();

  EnergySaving status_;                    ///< state and offsets as provided
  JointArray<float> adjustments_;          ///< rad, offsets from rounds (the base offsets not included)
  JointArray<float> baseOffsets_;          ///< rad, low-passed base offsets before the fade-in ramp
  JointArray<float> resetFromAdjustments_; ///< rad, adjustments when the reset began
  JointArray<float> resetFromBase_;        ///< rad, applied base offsets when the reset began
  JointArray<float> output_;               ///< rad, last output angles (what the motors were asked for)
  JointArray<float> lastInput_;            ///< rad, last finite incoming angles
  JointArray<bool> enabled_{};             ///< joints the request lets this frame's rounds adjust
  JointArray<bool> previousEnabled_{};
  JointArray<bool> skip_{}; ///< from skipJoints

  double stateStart_ = 0;    ///< s, FrameInfo time the state began
  double lastRound_ = 0;     ///< s, time of the last round (or of entering working)
  double baseFadeStart_ = 0; ///< s, the base offsets fade in from here
  double lastTime_ = 0;      ///< s, time of the previous frame
  bool hasTime_ = false;
  bool baseOffsetsActive_ = false; ///< base offsets were taken at the start (normal stand)
  bool learningBase_ = false;      ///< in the waiting that follows a fresh start
  EnergySavingState afterReset_ = EnergySavingState::off;
  EnergySavingPosture posture_ = EnergySavingPosture::none; ///< of the current run
  bool accuratePositions_ = false;                          ///< of the current run

  bool contactChanged_ = false;
  double contactPendingSince_ = -1;     ///< s, when the raw contact began to differ; < 0: it does not
  std::array<float, 3> centerOfMass_{}; ///< m, last finite centre of mass

  std::uint32_t computedFrame_ = 0; ///< FrameInfo of the last computed frame
  double computedTime_ = 0;
  bool computed_ = false;
};
} // namespace nao
