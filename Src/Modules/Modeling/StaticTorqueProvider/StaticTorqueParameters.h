#pragma once
// StaticTorqueProvider's parameters (Config/Modules/StaticTorqueProvider.toml): when the FSRs are believed,
// and which code computes the torques.
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct StaticTorqueParameters
{
  float minimumReading = -0.1f; ///< kg; a reading below this (or NaN) marks the sensor broken
  float maximumReading = 10.f;  ///< kg; above this the sensor is broken (its range is 0..25 N)
  float liftedFraction = 0.15f; ///< FSR total / robot mass below this: lifted (no contact)
  /// FSR total / robot mass below this, not lifted: centre-of-mass projection fallback.
  float minimumPlausibleFraction = 0.4f;
  float maximumPlausibleFraction = 2.5f; ///< FSR total / robot mass above this: CoM-projection fallback
  float minimumSoleFraction = 0.02f; ///< a sole carrying less gets its centre of pressure at the sole origin
  float gravity = 9.81f;             ///< m/s²
  /// JIT, Eigen, or automatic: the JIT where it runs.
  kinematics::KinematicsBackend backend = kinematics::KinematicsBackend::automatic;
  bool allowAvx2 = true; ///< false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("minimumReading", minimumReading).range(-5.0, 0.0);
    ar& streams::field("maximumReading", maximumReading).range(1.0, 100.0);
    ar& streams::field("liftedFraction", liftedFraction).range(0.0, 1.0);
    ar& streams::field("minimumPlausibleFraction", minimumPlausibleFraction).range(0.0, 1.0);
    ar& streams::field("maximumPlausibleFraction", maximumPlausibleFraction).range(1.0, 10.0);
    ar& streams::field("minimumSoleFraction", minimumSoleFraction).range(0.0, 0.5);
    ar& streams::field("gravity", gravity).range(9.0, 10.0);
    ar& streams::field("backend", backend) & streams::field("allowAvx2", allowAvx2);
  }
};
} // namespace nao
