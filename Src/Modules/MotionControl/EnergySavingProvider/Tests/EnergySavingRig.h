#pragma once
// A test rig for EnergySavingProvider (and BHumanEnergySavingProvider, B-Human's rounds on the same cycle) on
// ModuleHarness: the module alone with its blackboard and its parameters from Config/, FilteredCurrent from the real
// FilteredCurrentProvider (a harness of its own), and every other input from `inputs()`: what the sensors measure,
// what the motion source asks for, the robot model's numbers. A test writes `inputs`, runs frames and reads the
// outputs. An optional plant turns each frame's output into the next frame's measured angles and currents. The rig
// gives the module the rules' numbers (`rule` below) at its start, so that the tests compute with them and not with
// whatever the file is tuned to; EnergySavingSafetyTests checks the file's own numbers. What needs the real
// framework (the stage set `off`, the stage behind real modules) uses ScriptedBody and ScriptedProviders.cpp.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include "Modules/Sensing/FilteredCurrentProvider/FilteredCurrentProvider.h"
#include "Platform/Body.h"
#include <cmath>
#include <memory>
#include <numbers>
#include <string>

namespace nao::energytest
{
inline constexpr float degree = std::numbers::pi_v<float> / 180.f;
inline constexpr double frameTime = 0.012; ///< s per frame, as LoLA

/// A number of the file in degrees as the module gets it in rad (the parameter loader's conversion).
constexpr float deg(double degrees)
{
  return static_cast<float>(degrees * (std::numbers::pi / 180.0));
}
/// A number of the file in ms or mA as the module gets it in s or A.
constexpr float milli(double value)
{
  return static_cast<float>(value / 1000.0);
}

/// The rules' numbers in the units of Config/Modules/EnergySavingProvider.toml: B-Human's, and ours where the
/// module's README states them. EnergySavingRig sets every one of them explicitly.
namespace rule
{
inline constexpr double motionChangeWaitTime = 100;           ///< ms
inline constexpr double adjustWaitTime = 250;                 ///< ms
inline constexpr double bHumanAdjustWaitTime = 500;           ///< ms, B-Human's
inline constexpr double resetTime = 3000;                     ///< ms
inline constexpr double baseOffsetFadeInTime = 60;            ///< ms
inline constexpr double maxBaseOffset = 3;                    ///< degrees
inline constexpr double legCurrentThreshold = 100;            ///< mA
inline constexpr double legCurrentThresholdLargeOffset = 300; ///< mA
inline constexpr double armCurrentThreshold = 30;             ///< mA
inline constexpr double largeOffset = 1.5;                    ///< degrees
inline constexpr double maxOffset = 3;                        ///< degrees
inline constexpr int largeOffsetJointsForReset = 4;
inline constexpr int stepsBeforeEmergencyStep = 10;
inline constexpr double maxGearStepLegs = 0.2;      ///< degrees
inline constexpr double maxGearStepArms = 0.458366; ///< degrees
inline constexpr double minGearStep = 0.0286479;    ///< degrees
inline constexpr double accurateFineStepFraction = 0.5;
inline constexpr double agreementBand = 0.088; ///< degrees
inline constexpr double minSearchStepFraction = 0.125;
inline constexpr double loadDirectionTorque = 0.05; ///< N·m
inline constexpr double searchCurrentTolerance = 5; ///< mA
inline constexpr int stalledRoundsToSettle = 4;
inline constexpr int handOverRounds = 7;
inline constexpr int pusherAboveRounds = 3;
inline constexpr double maxSag = 0.5;                             ///< degrees
inline constexpr double groundContactWeight = 1;                  ///< kg
inline constexpr double groundContactDebounceTime = 100;          ///< ms
inline constexpr std::array<double, 2> centerOfMassMin{-20, -50}; ///< mm
inline constexpr std::array<double, 2> centerOfMassMax{50, 50};   ///< mm
} // namespace rule

inline constexpr float rad = 1e-6f; ///< tolerance of the tests' angle comparisons, rad
/// rad: the rules' steps as the module gets them
inline constexpr float maxLeg = deg(rule::maxGearStepLegs), maxArm = deg(rule::maxGearStepArms),
                       m = deg(rule::minGearStep);

/// What the module gets besides FilteredCurrent: the sensors and the inputs its providers would deliver.
struct Inputs
{
  StiffnessJointRequest request; ///< the request coming into the stage (rad)
  JointArray<float> measured;    ///< rad
  JointArray<float> currents;    ///< A
  float leftFootWeight = 2.65f;  ///< kg
  float rightFootWeight = 2.65f; ///< kg
  std::array<float, 3> centerOfMass{0.003f, 0.f,
                                    -0.05f};          ///< m, torso frame (the stand's, from the robot model)
  std::array<float, 3> leftSole{0.f, 0.05f, -0.3f};   ///< m, torso frame
  std::array<float, 3> rightSole{0.f, -0.05f, -0.3f}; ///< m, torso frame
  std::array<float, 2> torsoAngles{0.f, 0.f};         ///< rad, IMU roll and pitch
  JointLimits limits;   ///< rad, ±π (hands 0..1) unless a test narrows a joint
  JointTorques torques; ///< N·m, the robot model's static torques (invalid unless a test sets them)
  EnergySavingRequest energySaving;
  FallDownState fall;        ///< upright unless a test lets the robot fall
  SitDown sitDown;           ///< passThrough unless a test sits the robot down
  FallProtection protection; ///< passThrough unless a test protects a fall
};
Inputs& inputs();
/// inputs() to the stand with measured == requested, no current, ground contact, adjustment requested, limits ±π
/// (hands 0..1).
void resetInputs();

/// B-Human's stand (StandPoseParameters' defaults), stiffness 1.
StiffnessJointRequest standRequest();
/// Requests adjustment of all limbs in `posture`.
EnergySavingRequest requestAll(EnergySavingPosture posture);

/// Turns the final request into measured angles and currents for the next frame.
class Plant
{
public:
  virtual ~Plant() = default;
  virtual void respond(const JointRequest& request, Inputs& inputs) = 0;
};

/// Currents whose magnitude falls by `perFrame` every frame from where heat() set them: every round sees a
/// lower filtered current than the round before, so the search for the least current goes on the way it
/// started, by the same step (its "lower" rule), wherever that leads. Other joints keep inputs().currents.
class FallingCurrents : public Plant
{
public:
  float perFrame = 0.0002f; ///< A (4.2 mA per 250 ms round)
  /// `joint` draws `amperes` now and a little less every frame.
  void heat(Joint joint, float amperes);
  void respond(const JointRequest& request, Inputs& inputs) override;

private:
  JointArray<bool> falling_{};
};

/// Sensors from inputs(): frame n has frameNumber n and time n × frameTime, the angles and currents, the foot
/// weights and the torso angles of inputs(): the rig's, and the real framework's body in the tests that need one.
class ScriptedBody : public Body
{
public:
  bool waitForSensors(BodySensors& sensors) override;
  void send(const JointRequest&) override {}
  const char* name() const override { return "Scripted"; }

private:
  std::uint32_t frame_ = 0;
};

struct RigOptions
{
  bool ruleNumbers = true; ///< set every number of `rule` (false: the file's numbers)
  /// The stage's provider: ours, or B-Human's released rounds ("BHumanEnergySavingProvider", which gets the
  /// numbers of `rule` the two share, with B-Human's adjustWaitTime).
  std::string module = "EnergySavingProvider";
  /// The guard ("do no harm"; EnergySavingGuardTests): off, so that the other tests see the rounds alone.
  bool guard = false;
};

class EnergySavingRig
{
public:
  /// Resets inputs() (resetInputs()).
  explicit EnergySavingRig(RigOptions options = {});
  ~EnergySavingRig();

  /// One motion frame: the sensors and inputs() to the module's inputs, FilteredCurrentProvider, the module, and the
  /// plant (if any) on its output.
  void frame();
  void runFor(double seconds); ///< frames covering `seconds`
  /// Frames until `done()` holds (true) or `maxSeconds` passed (false).
  template<class Done>
  bool runUntil(Done done, double maxSeconds)
  {
    for (double start = time(); time() - start < maxSeconds;)
    {
      frame();
      if (done()) return true;
    }
    return false;
  }
  /// Frames until the state becomes `state` (or maxSeconds passed).
  bool runUntilState(EnergySavingState state, double maxSeconds = 10.0);
  /// Frames until the next adjustment round has run (EnergySaving::rounds grew).
  bool runUntilNextRound(double maxSeconds = 2.0);
  /// Sets `joint`'s current to `amperes` and runs the next round: with rounds 250 ms apart, the round's 240
  /// ms current window holds nothing else (call it right after a round).
  bool roundAt(Joint joint, float amperes);

  double time() const { return frameInfo_.time; }
  const EnergySaving& energy() const;
  EnergySavingState state() const { return energy().state; }
  const JointRequest& output() const;
  /// rad, output - incoming request of `joint`.
  float offset(Joint joint) const { return output().angles[joint] - inputs().request.angles[joint]; }
  /// Live parameter edit, as the debug channel does it (units of the file; it applies at the next frame);
  /// throws streams::ConfigError on error.
  void setParameter(const std::string& keyPath, const std::string& value);
  void setParameter(const std::string& keyPath, double value);
  void setParameter(const std::string& keyPath, int value);
  /// Every number of `rule` the module has, explicitly.
  void setRuleNumbers();

  Plant* plant = nullptr; ///< none: the sensors keep what the test sets

  class Stage; ///< the harness of the module under test

private:
  std::string module_;
  bool guard_ = false;
  std::unique_ptr<Stage> stage_;
  ModuleHarness<FilteredCurrentProvider> filter_;
  ScriptedBody body_;
  FrameInfo frameInfo_; ///< this frame's sensors, from body_
  JointSensorData joints_;
  FsrSensorData fsr_;
  InertialSensorData inertial_;
  BatteryData battery_;
  TouchData touch_;
  UnreadableReadings unreadable_;
  BodySensors sensors_{frameInfo_, joints_, fsr_, inertial_, battery_, touch_, unreadable_};
};
} // namespace nao::energytest
