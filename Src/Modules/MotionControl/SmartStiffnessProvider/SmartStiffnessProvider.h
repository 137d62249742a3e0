#pragma once
// NAOqi's Smart Stiffness (NAOqi 2.8) as a stage of the joint request: CollisionFreeJointRequest with each
// joint's stiffness limited to what holding the static posture needs = StiffnessJointRequest. The user's
// stiffness always caps the result (final = min(user, needed)); the frame the request or a joint moves, every
// joint gets the user's stiffness back, as while a fall or a takeover holds the motion; a joint whose current or
// tracking error rose under its limit gets it back until its request moves (the guard). SmartStiffness shows what it did. Rules and reasons: README.md of this folder.
#include "Framework/Module.h"
#include "Modules/MotionControl/Common/MotionSourceHolds.h"
#include "Modules/MotionControl/SmartStiffnessProvider/MotorTorqueLimits.h"
#include "Modules/MotionControl/SmartStiffnessProvider/SmartStiffnessParameters.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointTorques.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/MotionControl/SmartStiffness.h"
#include "Representations/Sensing/JointSensorData.h"

namespace nao
{
class SmartStiffnessProvider
    : public Module<
          SmartStiffnessProvider,
          // FallDownState, SitDown, FallProtection: whether the request is the motion source's posture
          Requires<CollisionFreeJointRequest, JointSensorData, JointTorques, FrameInfo, FallDownState,
                   SitDown, FallProtection>,
          // last frame's: the final request the motors got (what a sag is measured to), and which joints the
          // heat adjustment behind is searching (their stiffness stays the user's)
          Uses<JointRequest, EnergySaving>, Provides<StiffnessJointRequest, SmartStiffness>,
          Parameters<SmartStiffnessParameters>, Loads<MotorTorqueLimits>>
{
public:
  explicit SmartStiffnessProvider(const ModuleContext& context);
  void update(StiffnessJointRequest& request, SmartStiffness& smartStiffness);

private:
  /// What this frame's inputs say about motion.
  struct FrameMotion
  {
    bool valid = false;        ///< the frame's time step and every angle, request and torque are usable
    bool requestMoved = false; ///< the request left where it last rested by more than requestThreshold
    bool jointsMoving = false; ///< a joint moved faster than maxJointSpeed
  };

  /// The frame's work: status_ (stiffnesses and why).
  void computeFrame();
  /// The request history, motion and validity of this frame; the reference and last measurement move on.
  FrameMotion observeFrame(double now, float dt);
  /// The stage's state (and since when the posture is static); true when it limits the stiffness.
  bool updateState(const FrameMotion& motion, double now);
  /// Each joint's torque limit under its temperature status, when a status changed.
  void updateMaxTorques();
  /// Each joint's needed stiffness and the stiffness sent on: min(user, needed) where the stage limits.
  void computeStiffnesses(bool active, bool checkPinned, double now);
  void updateSag(bool active);
  /// Whether the joint is pinned at its limit this frame (active, releasePinnedJoints); `computed`: its needed
  /// stiffness.
  bool updatePinned(std::size_t joint, double now, float computed);
  /// The guard, after this frame's stiffnesses: references of joints whose limit begins, and the rule.
  void updateGuard(double now, float dt, bool valid);
  void guardEvent(std::size_t joint, SmartStiffnessGuardRule rule, double now);

  static constexpr std::size_t historySize = 8; ///< ≥ the largest sagDelayFrames

  SmartStiffness status_;
  std::array<JointArray<float>, 4> inverseMaxTorques_; ///< 1/(N·m) per TemperatureStatus and joint
  std::array<JointArray<float>, 4> maxTorques_;        ///< N·m per TemperatureStatus and joint
  JointArray<float> inverseMaxTorque_;                 ///< 1/(N·m) per joint under lastStatus_
  JointArray<TemperatureStatus> lastStatus_;           ///< the statuses inverseMaxTorque_ is for
  JointArray<float> reference_;    ///< rad, the request where it last rested (NaN: none yet)
  JointArray<float> lastMeasured_; ///< rad, last frame's measured angles (NaN: none)
  JointArray<float> sagAtStart_;   ///< rad, measured − old request when the stage became active
  std::array<JointArray<float>, historySize> requestHistory_; ///< rad, final requests of the last frames
  std::size_t historyCount_ = 0;                              ///< valid entries in requestHistory_
  std::size_t historyNext_ = 0;                               ///< where the next entry goes
  double staticSince_ = 0; ///< s, FrameInfo time the posture was last not static
  double lastTime_ = 0;    ///< s, time of the previous frame
  bool hasTime_ = false;
  bool wasActive_ = false;
  bool pinnedChecked_ = false;       ///< last frame checked for pinned joints
  JointArray<double> pinnedSince_;   ///< s, since when the motor works at its limit (< 0: it does not)
  JointArray<double> releasedSince_; ///< s, since when a pinned joint has the user's stiffness
  JointArray<float> currentMean_;    ///< A, |current| filtered over currentFilterTime
  JointArray<bool> limited_{};       ///< the stiffness sent on was below the user's last frame
  JointArray<double>
      aboveSince_; ///< s, since when a limited joint's current is above its reference (< 0: not)
};
} // namespace nao
