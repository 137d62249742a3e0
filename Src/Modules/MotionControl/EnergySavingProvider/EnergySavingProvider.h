#pragma once
// B-Human's heat adjustment as a stage of the joint request: StiffnessJointRequest + small angle offsets =
// JointRequest. A motor whose position controller fights gear friction draws current without moving; moving
// its request a little lets the gears hold the load and the current falls. The motion source says what it
// wants in EnergySavingRequest. Every rule, B-Human's version of it and why ours differs where it does: the
// opening comment of EnergySavingProvider.cpp. EnergySaving shows the state for logs and plots.
//
// The NAO V6 has one hip-yaw-pitch motor for both legs (index LHipYawPitch of Joint): "RHipYawPitch follows
// LHipYawPitch" holds by construction, there is no second request to keep equal.
#include "Framework/Module.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointLimits.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
class EnergySavingProvider
    : public Module<EnergySavingProvider,
                    Requires<StiffnessJointRequest, JointSensorData, FilteredCurrent, RobotModel, JointLimits,
                             InertialSensorData, FsrSensorData, FrameInfo, EnergySavingRequest, JointTorques>,
                    Provides<JointRequest, EnergySaving>, Parameters<EnergySavingParameters>>
{
public:
  explicit EnergySavingProvider(const ModuleContext& context);
  void update(JointRequest& request);
  void update(EnergySaving& energySaving);

private:
  void onParametersChanged() override;
  /// The frame's work, once per frame whichever update() the schedule calls first.
  void computeFrame();
  void updateGroundContact(double now);
  void updateEnabledJoints();
  void enterState(EnergySavingState state, double now);
  void startWaiting(double now); ///< a fresh start from off
  void startReset(EnergySavingResetReason reason, EnergySavingState after, double now);
  void takeBaseOffsets();
  void runRound();
  void adjustJoint(std::size_t joint, const JointArray<int>& signs);
  void adjustJointAsBHuman(std::size_t joint, const JointArray<int>& signs);
  void handOverLoads();
  void stopHandOver(std::size_t joint);
  /// The joint pushes for its mirror joint or is helped by it: it holds its offset, and the hand-over compares
  /// its current from round to round (EnergySaving::searching)
  bool inHandOver(std::size_t joint) const;
  void runAccuratePositionsRound();
  void capOffsetsAndCheckReset(double now);
  bool centerOfMassInWindow() const;
  void fadeDisabledJoints(float dt);
  void fadeReset(double now);
  float threshold(Joint joint) const;
  /// ±1: the way the posture's load pulls the joint (the robot model's static torque, else the sign table)
  float loadDirection(std::size_t joint, const JointArray<int>& signs) const;
  float appliedBase(std::size_t joint) const;
  void clearOffsets();
  void restartSearch(std::size_t joint);
  void updateSearching(); ///< status_.searching from the state and each joint's search
  /// adjustment, held back from following the sag past sagBound_ (none yet: unchanged)
  float withinSagBound(std::size_t joint, float adjustment) const;

  EnergySaving status_;           ///< state and offsets as provided
  JointArray<float> adjustments_; ///< rad, offsets from rounds (B-Human's offsets, base not included)
  JointArray<float> baseOffsets_; ///< rad, measured − requested at the start (B-Human's jointBaseOffset)
  JointArray<float> resetFromAdjustments_; ///< rad, adjustments when the reset began
  JointArray<float> resetFromBase_;        ///< rad, applied base offsets when the reset began
  JointArray<float> output_;               ///< rad, last output angles (what the motors were asked for)
  JointArray<bool> enabled_{};             ///< joints the request lets this frame's rounds adjust
  JointArray<bool> skip_{};                ///< from skipJoints
  JointArray<bool> fadingOut_{}; ///< an arm joint whose offset hit the cap fades to 0 before it goes on
  /// While request and reading agree, each joint searches the offset of least current: the direction of its
  /// last fine step (0: none yet), the step's size, and the filtered current before that step (< 0: none).
  JointArray<float> searchDirection_;
  JointArray<float> searchStep_;
  JointArray<float> searchCurrent_;
  JointArray<float>
      settledCurrent_;          ///< A, the highest current of a settled search's last rounds (< 0: searching)
  JointArray<float> stallPeak_; ///< A, the highest current since the search reached its finest step
  JointArray<float> bestCurrent_;       ///< A, the least current this search has seen ...
  JointArray<float> bestAdjustment_;    ///< rad, ... and the adjustment it was drawn at
  JointArray<int> stalledRounds_{};     ///< rounds at the finest step
  JointArray<int> settledHighRounds_{}; ///< settled rounds in a row a threshold above bestCurrent_
  JointArray<float>
      sagBound_; ///< rad, the sag when it passed maxSag: the adjustment goes no further (NaN: none)
  JointArray<bool> aboveThreshold_{}; ///< the joint's current was above its threshold at the last round
  /// Hand-over (a settled leg joint above its threshold, its mirror joint pushing to take its load): the
  /// joint whose load this joint takes (-1: none), the way it pushes, its rounds so far, the ways tried, and
  /// its adjustment before it began.
  JointArray<int> handOverFor_;
  JointArray<float> handOverDirection_;
  JointArray<int> handOverRound_{};
  JointArray<int> handOverTries_{};
  JointArray<float> handOverStart_;
  JointArray<float> handOverBase_;     ///< A, the helped joint's current when the hand-over began
  JointArray<float> lastRoundRequest_; ///< rad, the incoming request at the last round (NaN: none yet)
  JointArray<float> lastStiffness_;    ///< 0..1, last frame's incoming stiffness
  /// The incoming stiffness changed since the last round: the round's current window mixes two stiffnesses.
  JointArray<bool> stiffnessChanged_{};

  double stateStart_ = 0;    ///< s, FrameInfo time the state began
  double lastRound_ = 0;     ///< s, time of the last round (or of entering working)
  double baseFadeStart_ = 0; ///< s, the base offsets fade in from here
  double lastTime_ = 0;      ///< s, time of the previous frame
  bool hasTime_ = false;
  bool oneLegJointPerRound_ = false; ///< B-Human's rule, in the normal stand with oneLegJointPerRound
  EnergySavingState afterReset_ = EnergySavingState::off;
  EnergySavingPosture posture_ = EnergySavingPosture::none; ///< of the current run
  bool accuratePositions_ = false;                          ///< of the current run
  bool contactAtWorkStart_ = false; ///< ground contact when working began: a change resets

  double contactPendingSince_ = -1; ///< s, when the raw contact began to differ; < 0: it does not

  std::uint32_t computedFrame_ = 0; ///< FrameInfo of the last computed frame
  double computedTime_ = 0;
  bool computed_ = false;
};
} // namespace nao
