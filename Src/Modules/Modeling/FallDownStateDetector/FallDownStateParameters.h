#pragma once
// Every number of FallDownStateDetector: upright, staggering, falling (direction), fallen (side) and lifted, from
// InertialData and the FSRs. Tilt: the torso's angle from upright. The defaults are declared here;
// Config/Modules/FallDownStateDetector.toml holds only values that differ. Code holds rad, rad/s, kg and s; the file
// holds degrees, deg/s, kg and s. How each number was chosen: README.md of this folder.
#include "Tools/Streams/Field.h"
#include <numbers>

namespace nao
{
struct FallDownStateParameters
{
  static constexpr float degree = std::numbers::pi_v<float> / 180.f;

  float uprightTilt = 10.f * degree;
  float staggerTilt = 15.f * degree;
  float staggerRate = 40.f * degree;
  float uprightTime = 0.5f;
  float fallingTilt = 40.f * degree;
  float minFallingTilt = 20.f * degree;
  float minFallingRate = 30.f * degree;
  float lookahead = 0.2f;
  float fallenTilt = 55.f * degree;
  float stillRate = 30.f * degree;
  float fallenTime = 0.3f;
  float standUpTime = 1.f;
  float liftedWeight = 0.5f; // the robot weighs 5.3 kg; the FSRs' noise is about 0.01 kg
  float liftedTime = 0.2f;
  float landedTime = 0.1f;
  // The independent witnesses of a fall (README.md, "Witnesses"): physical limits of a robot that stands, not fitted.
  float edgeLoadShare = 0.9f;
  float edgeFreeShare = 0.7f;
  float edgeRiseTime = 1.f;
  float unloadedShare = 0.5f;
  float witnessAccelerationDrop = 1.5f;
  float witnessLowTime = 0.09f; // longer than simulated stepping's dips (6 frames of 12 ms at most)
  float blindFallTime = 0.15f;
  float minWitnessLoad = 0.5f;
  float gravity = 9.81f;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    serializeTilt(ar);
    serializeLifted(ar);
    serializeWitnesses(ar);
  }

  /// Upright, staggering, falling and fallen, from the tilt and its rate.
  template<class Archive>
  void serializeTilt(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("uprightTilt", uprightTilt)
        .unit(Unit::degrees)
        .range(1.0, 45.0)
        .doc("below this tilt (and slower than staggerRate for uprightTime) the robot is upright again");
    ar& field("staggerTilt", staggerTilt)
        .unit(Unit::degrees)
        .range(1.0, 60.0)
        .doc("above this tilt the robot staggers");
    ar& field("staggerRate", staggerRate)
        .unit(Unit::degreesPerSecond)
        .range(1.0, 1000.0)
        .doc("a tilt growing faster than this is staggering too");
    ar& field("uprightTime", uprightTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("upright and slow this long before staggering ends");
    ar& field("fallingTilt", fallingTilt)
        .unit(Unit::degrees)
        .range(5.0, 90.0)
        .doc("a fall is certain when the tilt predicted lookahead ahead passes this ...");
    ar& field("minFallingTilt", minFallingTilt)
        .unit(Unit::degrees)
        .range(1.0, 90.0)
        .doc("... while the tilt is above this ...");
    ar& field("minFallingRate", minFallingRate)
        .unit(Unit::degreesPerSecond)
        .range(0.0, 1000.0)
        .doc("... and grows faster than this");
    ar& field("lookahead", lookahead)
        .unit(Unit::seconds)
        .range(0.0, 2.0)
        .doc("the tilt is predicted this far ahead at its present rate");
    ar& field("fallenTilt", fallenTilt)
        .unit(Unit::degrees)
        .range(10.0, 90.0)
        .doc("above this tilt, still for fallenTime, the robot lies");
    ar& field("stillRate", stillRate)
        .unit(Unit::degreesPerSecond)
        .range(1.0, 1000.0)
        .doc("an angular speed below this is still");
    ar& field("fallenTime", fallenTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("lying still this long is fallen");
    ar& field("standUpTime", standUpTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("a fallen robot below uprightTilt this long is upright again");
  }

  /// Lifted and landed, from the feet's load.
  template<class Archive>
  void serializeLifted(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("liftedWeight", liftedWeight)
        .unit(Unit::kilograms)
        .range(0.0, 5.0)
        .doc("both feet together carrying less than this are unloaded");
    ar& field("liftedTime", liftedTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("feet unloaded this long, the torso below staggerTilt: lifted");
    ar& field("landedTime", landedTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("feet loaded this long: a lifted robot stands again");
  }

  /// The independent witnesses of a fall the tilt alone cannot confirm.
  template<class Archive>
  void serializeWitnesses(Archive& ar)
  {
    using streams::field;
    using streams::Unit;
    ar& field("edgeLoadShare", edgeLoadShare)
        .range(0.5, 1.0)
        .doc("witness: a foot with this share of its load on the pair of FSRs of the edge the torso leans "
             "over (front, rear, outer) ...");
    ar& field("edgeFreeShare", edgeFreeShare)
        .range(0.0, 1.0)
        .doc("... which carried less than this share ...");
    ar& field("edgeRiseTime", edgeRiseTime)
        .unit(Unit::seconds)
        .range(0.0, 10.0)
        .doc("... within this long (the load moved onto it: a posture that rests on an edge is no change)");
    ar& field("minWitnessLoad", minWitnessLoad)
        .unit(Unit::kilograms)
        .range(0.0, 10.0)
        .doc("a foot's edges count if it carries at least this");
    ar& field("unloadedShare", unloadedShare)
        .range(0.0, 1.0)
        .doc("witness: both feet together carry less than this share of the robot's weight");
    ar& field("witnessAccelerationDrop", witnessAccelerationDrop)
        .unit(Unit::metersPerSecondSquared)
        .range(0.1, 9.0)
        .doc("witness: the accelerometer's norm this far below g (a body tipping about its sole's edge) ...");
    ar& field("witnessLowTime", witnessLowTime)
        .unit(Unit::seconds)
        .range(0.0, 2.0)
        .doc("... for this long (simulated stepping dips for 6 frames at most)");
    ar& field("blindFallTime", blindFallTime)
        .unit(Unit::seconds)
        .range(0.0, 5.0)
        .doc("without a trusted gyroscope, that dip for this long is a fall (its direction from the edge "
             "that took the load)");
    ar& field("gravity", gravity).unit(Unit::metersPerSecondSquared).range(9.7, 9.9).doc("g");
  }
};
} // namespace nao
