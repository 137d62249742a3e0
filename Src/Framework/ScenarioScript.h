#pragma once
// The [Script] table of a scenario file: named postures, timed keyframes between them, and events for the
// simulator. The ScenarioPlayer module plays the keyframes (it declares Loads<ScenarioScript>); the simulator
// starts in `start` and applies the events. One file, one truth.
//
//   [Script]
//   start = "stand"                 # posture the simulator starts in
//   loopFrom = -1                   # keyframe the script loops back to after the last; -1: no loop
//   batteryCharge = 0.102           # optional, 0..1: the simulated battery's charge at the start (default:
//                                   # Config/Sim/motors.toml's initialCharge); it runs down at the rate its
//                                   # current allows
//   [[Script.poses]]
//   name = "stand"
//   angles = { HeadYaw = 0.0, ... } # degrees, all 25 joints
//   [[Script.keyframes]]
//   pose = "stand"
//   duration = 1.0                  # s to reach it from the previous keyframe (or use speed)
//   speed = 0.0                     # fraction of each joint's maximum speed; > 0 overrides duration
//   hold = 2.0                      # s to stay
//   stiffness = 1.0                 # 0..1, all joints
//   energySaving = "stand"          # while held: off, stand, highStand, any, accuratePositions
//   jitter = 0.02                   # degrees: while held, the leg requests wobble by up to this, as a
//                                   # balancer's feedback does (0: still)
//   [[Script.events]]
//   time = 120.0                    # s since start
//   kind = "pickUp"                 # pickUp | putDown | push | pressButton | drainBattery
//   force = [0.0, 0.0, 0.0]         # N in the world frame (push)
//   duration = 0.1                  # s (push: how long; pressButton: how long the chest button is held;
//                                   # drainBattery: the time in which the charge falls to 0)
//   [[Script.events]]               # or: a line of the simulator's control channel (Util/Simulator/App/README.md,
//   time = 3.0                      # "Events into a running simulation"), applied at the first frame at or after
//   kind = "control"                # `time`; only these three keys, in any order among the events. Kept apart
//   line = "push 45 0 0 for 0.1 at torso" # in `controls`, sorted by time; the simulator checks the line at its start.
//   [[Script.targets]]              # optional: task-space targets for TaskSpaceMotionProvider
//   time = 2.0                      # s since start, from when on the target holds
//   task = "rightHand"              # leftHand | rightHand (wrist) | lookAt | rightFoot (sole; left foot supports)
//                                   # | stiffestAgainst (point: the direction of an expected push)
//   point = [150.0, -100.0, 250.0]  # mm in the left sole's frame: x forward, y left, z up
//   active = true                   # false takes the task out of the stack
#include "Framework/ConfigFiles.h"
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
struct ScriptPose
{
  std::string name;
  JointArray<float> angles; ///< rad (degrees in the file)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("name", name);
    ar& streams::field("angles", angles).unit(streams::Unit::degrees).range(-180.0, 180.0);
  }
};

/// What the motion source asks of the heat adjustment while a keyframe is held (EnergySavingRequest).
NAO_ENUM(
    KeyframeEnergySaving, std::uint8_t,
    off,               ///< no adjustment
    stand,             ///< B-Human's normal stand: base offsets, stand sign table
    highStand,         ///< knees stretched: high-stand sign table
    any,               ///< another static posture: legs above 300 mA only
    accuratePositions, ///< make the measured angles reach the requested ones (calibration), not save energy
);

struct ScriptKeyframe
{
  std::string pose;
  float duration = 1.f; ///< s from the previous keyframe's posture to this one
  /// Fraction of each joint's maximum speed; > 0 derives the duration from the largest move.
  float speed = 0.f;
  float hold = 0.f;      ///< s to stay in the posture
  float stiffness = 1.f; ///< 0..1 for all joints
  /// While held; never during the transition.
  KeyframeEnergySaving energySaving = KeyframeEnergySaving::off;
  float jitter = 0.f; ///< rad (degrees in the file): amplitude of the leg requests' wobble while held

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("pose", pose) & streams::field("duration", duration).range(0.0, 3600.0);
    ar& streams::field("speed", speed).range(0.0, 1.0) & streams::field("hold", hold).range(0.0, 86400.0);
    ar& streams::field("stiffness", stiffness).range(0.0, 1.0) & streams::field("energySaving", energySaving);
    ar& streams::field("jitter", jitter).unit(streams::Unit::degrees).range(0.0, 5.0);
  }
};

NAO_ENUM(ScriptEventKind, std::uint8_t,
         pickUp,       ///< lift the torso until the feet leave the ground
         putDown,      ///< lower it back and let go
         push,         ///< a force on the torso for a while
         pressButton,  ///< the chest button reads pressed for `duration` s
         drainBattery, ///< the battery's charge falls linearly to 0 within `duration` s
);

struct ScriptEvent
{
  float time = 0.f; ///< s since the start
  ScriptEventKind kind = ScriptEventKind::push;
  std::array<float, 3> force{}; ///< N, world frame (push)
  float duration = 0.1f;        ///< s (push, pressButton, drainBattery: see ScriptEventKind)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("time", time).range(0.0, 1e6) & streams::field("kind", kind);
    ar& streams::field("force", force).range(-500.0, 500.0) &
        streams::field("duration", duration).range(0.0, 60.0);
  }
};

/// A `kind = "control"` event: a control-channel line for the simulator, which parses it (Src/ does not know the
/// simulator's commands).
struct ScriptControlEvent
{
  double time = 0;  ///< s since the start (double: a frame's time, exactly as the simulator reported it)
  std::string line; ///< "push 45 0 0 for 0.1 at torso"
  bool operator==(const ScriptControlEvent&) const = default;
};

/// A task of TaskSpaceMotionProvider a script can aim (TaskSpaceMotionProvider/README.md).
NAO_ENUM(
    ScriptTask, std::uint8_t,
    leftHand,        ///< the left wrist's position
    rightHand,       ///< the right wrist's position
    lookAt,          ///< the point the head looks at
    rightFoot,       ///< the right sole's position; the centre of mass goes over the left foot first
    stiffestAgainst, ///< the direction of an expected push (point: any length); arms with a target stiffen
);

struct ScriptTarget
{
  float time = 0.f; ///< s since the start, from when on the target holds (until the next of its task)
  ScriptTask task = ScriptTask::leftHand;
  std::array<float, 3> point{}; ///< m (mm in the file), in the left sole's frame
  bool active = true;           ///< false: the task leaves the stack

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("time", time).range(0.0, 1e6) & streams::field("task", task);
    ar& streams::field("point", point).unit(streams::Unit::millimeters).range(-5000.0, 5000.0);
    ar& streams::field("active", active);
  }
};

struct ScenarioScript
{
  std::string start; ///< name of the posture the simulator starts in
  int loopFrom = -1; ///< keyframe index to loop back to after the last; -1: stay in the last posture
  /// 0..1, the simulated battery's charge at the start; < 0: the simulator's own (motors.toml initialCharge). An
  /// optional key, read by load() beside serialize(), so that the scenarios without it stay as they are.
  float batteryCharge = -1.f;
  std::vector<ScriptPose> poses;
  std::vector<ScriptKeyframe> keyframes;
  std::vector<ScriptEvent> events;
  /// Optional key, read by load() beside serialize() (as batteryCharge), in time order.
  std::vector<ScriptTarget> targets;
  /// The `kind = "control"` entries of [[Script.events]], taken out before the archive reads `events`, sorted by time.
  std::vector<ScriptControlEvent> controls;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("start", start) & streams::field("loopFrom", loopFrom).range(-1, 1000);
    ar& boost::serialization::make_nvp("poses", poses) &
        boost::serialization::make_nvp("keyframes", keyframes) &
        boost::serialization::make_nvp("events", events);
  }

  /// The [Script] table of a scenario file, checked (known pose names, loop index, event order). Throws
  /// streams::ConfigError / std::runtime_error naming file, line and key.
  static ScenarioScript load(const std::filesystem::path& scenarioFile);
  /// The same for Loads<ScenarioScript>: the [Script] of the scenario the process runs.
  static ScenarioScript load(const ConfigFiles& files);
  const ScriptPose& pose(const std::string& name) const;

  /// s each keyframe's transition takes: its duration, or for a speed-timed one 1.5 × the largest move / (speed ×
  /// that joint's velocity limit), since smoothstep peaks at 1.5 times its mean speed. velocityLimits in rad/s, per
  /// joint (≤ 0: unlimited, the joint does not count).
  std::vector<float> transitionTimes(const JointArray<double>& velocityLimits) const;
  /// s from the start until everything scripted has happened: the last event has ended, the last target has been
  /// given and the keyframes have played once, up to reaching the last keyframe's posture (whose hold is open-ended) or, with a loop, through
  /// the last hold.
  double scriptedEnd(const std::vector<float>& transitionTimes) const;
};

/// The task-space targets of the scenario a process runs (Loads<ScenarioTargets>): its [[Script.targets]], or none
/// for a scenario without them or a module graph made in code (tests), so that a module loading them runs anywhere.
struct ScenarioTargets
{
  std::vector<ScriptTarget> targets;
  /// Throws as ScenarioScript::load.
  static ScenarioTargets load(const ConfigFiles& files);
};
} // namespace nao
