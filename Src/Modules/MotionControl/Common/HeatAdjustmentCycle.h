#pragma once
// What every heat adjustment does around its rounds, after B-Human's EnergySavingProvider: the states (off ->
// waiting -> working -> resetState), ground contact, which joints the request lets it adjust, base offsets, when a
// round is due, the caps and resets after it, the fades, and the output within the joint ranges. How a round moves
// the offsets is a HeatAdjustmentRounds: ours (LeastCurrentRounds, EnergySavingProvider) or B-Human's released
// rules (BHumanRounds, BHumanEnergySavingProvider). Rules and why: EnergySavingProvider/README.md.
#include "Framework/InputView.h"
#include "Framework/Module.h"
#include "Modules/MotionControl/Common/HeatAdjustmentParameters.h"
#include "Modules/MotionControl/Common/MotionSourceHolds.h"
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

#include <cstdint>

namespace nao
{
/// What a heat adjustment reads every frame, declared once: the Requires<> of both modules (HeatAdjustmentModule)
/// and what the cycle and the rounds read, through HeatAdjustmentInputs. An input added here reaches all of them.
using HeatAdjustmentRequires =
    Requires<StiffnessJointRequest, JointSensorData, FilteredCurrent, RobotModel, JointLimits,
             InertialSensorData, FsrSensorData, FrameInfo, EnergySavingRequest, JointTorques, FallDownState,
             SitDown, FallProtection>;

/// This frame's inputs of a heat adjustment: the module's view of HeatAdjustmentRequires (get<T>()), and one value
/// computed from them.
struct HeatAdjustmentInputs : InputView<HeatAdjustmentRequires::List>
{
  /// The request is the motion source's posture (motionSourceHolds: no fall, no takeover by the sit-down or the
  /// protective fall); false: reset, then off, whatever EnergySavingRequest asks.
  bool sourceHolds = true;
};

/// What a round reads and may change.
struct RoundContext
{
  const HeatAdjustmentInputs& in;
  EnergySaving& status;                 ///< counters and emergencySteps may change
  JointArray<float>& adjustments;       ///< rad, the rounds' offsets (the base offsets not included)
  const JointArray<float>& baseOffsets; ///< rad, the base offsets applied now
  const JointArray<bool>& enabled;      ///< the request lets the stage adjust the joint
  const JointArray<bool>& fadingOut;    ///< an arm joint whose offset fades back to 0 from the cap
  const JointArray<bool>& held;         ///< the guard holds the joint (measuring, or held at best or zero)
  EnergySavingPosture posture;          ///< of the current run
  const JointArray<int>& signs;         ///< the posture's emergency-step sign table
  /// rad, the offsets (base + adjustment) the guard's step bound leaves open: a change beyond is undone
  const JointArray<float>& lowest;
  const JointArray<float>& highest;
};

/// How a round moves the offsets: the part in which heat adjustments differ, as the cycle calls it during run().
/// A module's rounds implement it through RoundsWithParameters (HeatAdjustmentModule.h), which hands them the
/// module's parameters with every call.
class HeatAdjustmentRounds
{
public:
  virtual ~HeatAdjustmentRounds() = default;
  /// A new start from off: nothing of an earlier run counts.
  virtual void clear() = 0;
  /// Every change of state; `working`: each joint starts afresh.
  virtual void enterState(EnergySavingState state) = 0;
  /// The joint is adjusted again (after an arm motion, or faded back from the cap): it starts afresh.
  virtual void restartJoint(std::size_t joint) = 0;
  /// The guard's step bound undid the joint's last change (JointGuard::checkStep): its offset goes back, and the
  /// way it went is barred (RoundContext::lowest, highest).
  virtual void stepUndone(std::size_t) {}
  /// The joint whose push moves load onto the joint on purpose (a hand-over), -1: none.
  virtual int pushedBy(std::size_t) const { return -1; }
  /// Every frame, before anything else.
  virtual void everyFrame(const HeatAdjustmentInputs&) {}
  /// One adjustment round (every adjustWaitTime while working).
  virtual void round(RoundContext& context) = 0;
  /// One round of accuratePositions (legs follow the reading to the request).
  virtual void accuratePositionsRound(RoundContext& context) = 0;
  /// The joint's rounds compare currents now (EnergySaving::searching, with the cycle's own conditions).
  virtual bool searching(std::size_t joint) const = 0;
};

/// Which way accuratePositions' emergency step goes.
enum class EmergencyStep : std::uint8_t
{
  up,             ///< B-Human's: always by +maxGearStepLegs
  towardsRequest, ///< ours: in the direction of request − reading
};

/// The accuratePositions round of both rounds (B-Human's rule, EnergySavingProvider/README.md): each adjusted leg joint
/// whose reading is more than minGearStep from the request steps towards it, by maxGearStepLegs when farther than
/// that, else by accurateFineStepFraction × minGearStep; every stepsBeforeEmergencyStep-th round an emergency step
/// of maxGearStepLegs instead, the way `emergency` says.
void stepLegsTowardsRequest(RoundContext& context, const HeatAdjustmentParameters& parameters,
                            EmergencyStep emergency);

class HeatAdjustmentCycle
{
public:
  /// Keeps neither the parameters nor the rounds: each run() gets the module's, as they are this frame (a live
  /// edit replaces the parameters).
  explicit HeatAdjustmentCycle(const HeatAdjustmentParameters& parameters);

  /// One frame: state, rounds, fades and the output.
  void run(const HeatAdjustmentInputs& in, const HeatAdjustmentParameters& parameters,
           HeatAdjustmentRounds& rounds);

  /// The final request: exactly the incoming one while off, else its stiffnesses and this frame's angles (the
  /// last good one where the incoming angle is not finite).
  void answer(const StiffnessJointRequest& input, JointRequest& request) const;
  const EnergySaving& status() const { return status_; }

private:
  /// run()'s arguments, handed to each step that reads them: the cycle keeps nothing of a frame's inputs, the
  /// module's parameters or its rounds (a live edit replaces the parameters between two frames).
  struct Frame
  {
    const HeatAdjustmentInputs& in;
    const HeatAdjustmentParameters& parameters;
    HeatAdjustmentRounds& rounds;
  };

  void updateGroundContact(const Frame& frame, double now);
  void updateEnabledJoints(const Frame& frame);
  /// The state's answer to the request: a start from off, a reset (not requested, taken over, another mode, another
  /// ground contact), or off after a reset under way.
  void followRequest(const Frame& frame, double now);
  /// What the state does this frame: the wait before working, a round every adjustWaitTime, the reset's fade.
  void advanceState(const Frame& frame, double now);
  /// The status' time in state, and each joint's guard state, reference and whether it is being searched.
  void updateStatus(const Frame& frame, double now);
  void enterState(const Frame& frame, EnergySavingState state, double now);
  void startWaiting(const Frame& frame, double now); ///< a fresh start from off
  void startReset(const Frame& frame, EnergySavingResetReason reason, EnergySavingState after, double now);
  void takeBaseOffsets(const Frame& frame);
  void runRound(const Frame& frame);
  void capOffsetsAndCheckReset(const Frame& frame, double now);
  bool centerOfMassInWindow(const Frame& frame) const;
  void fadeDisabledJoints(const Frame& frame, float dt);
  void fadeReset(const Frame& frame, double now);
  float appliedBase(const Frame& frame, std::size_t joint) const;
  void clearOffsets(const Frame& frame);
  void composeOutput(const Frame& frame);
  /// The guard is on and the rounds save (not accuratePositions).
  bool guarding(const Frame& frame) const;
  /// The guard's step bound watches the joint (working, a reference).
  bool bounded(const Frame& frame, std::size_t joint) const;
  /// At a round, before it changes anything: where each joint's step bound starts the round.
  void startStepRound(const Frame& frame);
  /// Every frame: each bounded joint's step bound; what took a joint above its bound is barred and goes back.
  void checkSteps(const Frame& frame);
  /// `joint` rose above its bound (to `current`, A) without a change of its own: the changes that loaded it go back.
  void undoLoading(const Frame& frame, std::size_t joint, float current, double now);
  /// After the rounds: each bounded joint goes back within the offsets its step bound leaves open.
  void keepWithinBounds(const Frame& frame);
  /// Per joint the offsets (rad, base + adjustment) its step bound leaves open (±inf: all).
  void openOffsets(const Frame& frame, JointArray<float>& lowest, JointArray<float>& highest) const;
  /// Per frame: a joint whose request left the posture its reference belongs to measures again; held joints fade
  /// to the offset the guard holds them at.
  void updateGuards(const Frame& frame, float dt);
  /// In a round: references of the joints whose offset has been zero for a current window and that have settled;
  /// true while the stand's legs still settle and when the base offsets were taken now (the round moves nothing).
  bool takeReferences(const Frame& frame, double now);
  void guardRound(const Frame& frame, double now);
  void guardEvent(std::size_t joint, HeatGuardRule rule, float current, double now);
  bool active(const Frame& frame) const; ///< requested, and some joint may be adjusted

  EnergySaving status_;           ///< state and offsets as provided
  JointArray<float> adjustments_; ///< rad, offsets from rounds (B-Human's offsets, base not included)
  JointArray<float> baseOffsets_; ///< rad, measured − requested at the start (B-Human's jointBaseOffset)
  JointArray<float> resetFromAdjustments_; ///< rad, adjustments when the reset began
  JointArray<float> resetFromBase_;        ///< rad, applied base offsets when the reset began
  JointArray<float> output_;               ///< rad, last output angles (what the motors were asked for)
  JointArray<bool> enabled_{};             ///< joints the request lets this frame's rounds adjust
  JointArray<bool> fadingOut_{}; ///< an arm joint whose offset hit the cap fades to 0 before it goes on
  JointArray<JointGuard> guards_;
  JointArray<bool> held_{};      ///< the guard holds the joint (what RoundContext::held shows the rounds)
  JointArray<double> zeroSince_; ///< s, since when the joint's offset has been exactly 0 (< 0: it is not)
  bool baseOffsetsDue_ = false;  ///< normal stand with the guard: base offsets once the references are taken

  double stateStart_ = 0;    ///< s, FrameInfo time the state began
  double lastRound_ = 0;     ///< s, time of the last round (or of entering working)
  double baseFadeStart_ = 0; ///< s, the base offsets fade in from here
  double lastTime_ = 0;      ///< s, time of the previous frame
  bool hasTime_ = false;
  EnergySavingState afterReset_ = EnergySavingState::off;
  EnergySavingPosture posture_ = EnergySavingPosture::none; ///< of the current run
  bool accuratePositions_ = false;                          ///< of the current run
  bool contactAtWorkStart_ = false; ///< ground contact when working began: a change resets
  double contactPendingSince_ = -1; ///< s, when the raw contact began to differ; < 0: it does not
};
} // namespace nao
