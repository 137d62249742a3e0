#pragma once
// SitDownProvider's parameters: the chest button's and the low battery's sit-down. The defaults are declared here;
// Config/Modules/SitDownProvider.toml holds only values that differ. Code holds rad, s and fractions; the file holds
// degrees, ms and percent.
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Field.h"
#include <numbers>

namespace nao
{
struct SitDownParameters
{
  // clang-format off
  // A deep crouch: knee 120° and ankle -67°, each 1° short of its range's end (121.04°, -68.15°, NaoFacts.md §15), so
  // that limp legs can fold only onto their stops; hip -60°, the torso 7° forward, so that a limp hip folds it forward
  // onto the thighs, over the feet, never backward; arms hanging (shoulders 80°). README.md: why not sit.toml's sit.
  JointArray<float> sitAngles = jointAnglesFromDegrees({0, 0,
                                                        80, 8, 0, -5, -90,
                                                        0, 0, -60, 120, -67, 0,
                                                        0, -60, 120, -67, 0,
                                                        80, -8, 0, 5, 90,
                                                        0, 0});
  // clang-format on
  // A finger's press through the chest's cap lasts at least minPressTime (100 ms); a 60 ms reading is a glitch.
  float sitStiffness = 0.6f;       ///< the sit keyframe's stiffness in sit.toml
  float sitDownTime = 3.f;         ///< s, the sit keyframe's duration in sit.toml
  float settleTime = 0.5f;         ///< s
  float limpTime = 0.3f;           ///< s
  float standUpTime = 3.f;         ///< s
  float debounceTime = 0.05f;      ///< s
  float minPressTime = 0.1f;       ///< s
  float lowBatteryCharge = 0.1f;   ///< fraction of full charge
  float lowBatteryTime = 5.f;      ///< s
  float batteryHysteresis = 0.05f; ///< fraction of full charge

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("sitAngles", sitAngles)
        .unit(Unit::degrees)
        .range(-180.0, 180.0)
        .doc("the sitting posture; Hands 0..57.3 = closed..open (0..1 rad in code)");
    ar& field("sitStiffness", sitStiffness)
        .range(0.0, 1.0)
        .doc("stiffness of every joint while sitting down, until it goes limp");
    ar& field("sitDownTime", sitDownTime)
        .unit(Unit::milliseconds)
        .range(100.0, 20000.0)
        .doc("time from where the joints are to the sitting posture (smoothstep)");
    ar& field("settleTime", settleTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0)
        .doc("the posture is held this long before the stiffness goes down");
    ar& field("limpTime", limpTime)
        .unit(Unit::milliseconds)
        .range(0.0, 5000.0)
        .doc("time the stiffness takes from sitStiffness to 0 (linear)");
    ar& field("standUpTime", standUpTime)
        .unit(Unit::milliseconds)
        .range(100.0, 20000.0)
        .doc("time from the measured posture to the motion source's request (smoothstep)");
    ar& field("debounceTime", debounceTime)
        .unit(Unit::milliseconds)
        .range(0.0, 1000.0)
        .doc("the chest button counts as pressed (or released) once it reads so this long without a break");
    ar& field("minPressTime", minPressTime)
        .unit(Unit::milliseconds)
        .range(0.0, 2000.0)
        .doc("a press lasts at least this long from its debounced start to its debounced release (a shorter "
             "reading is a glitch); it counts at its release");
    ar& field("lowBatteryCharge", lowBatteryCharge)
        .unit(Unit::percent)
        .range(0.0, 100.0)
        .doc("below this charge (as SensorHealth believes it), while not charging, for lowBatteryTime, the "
             "robot "
             "sits down once and warns (SitDown.lowBattery)");
    ar& field("lowBatteryTime", lowBatteryTime)
        .unit(Unit::milliseconds)
        .range(0.0, 600000.0)
        .doc("the charge stays below lowBatteryCharge this long before the robot sits down: never one frame");
    ar& field("batteryHysteresis", batteryHysteresis)
        .unit(Unit::percent)
        .range(0.0, 100.0)
        .doc("the low-battery sit-down is armed again above lowBatteryCharge + this, or while charging");
  }
};
} // namespace nao
