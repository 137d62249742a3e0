#pragma once
// StaticTorqueProvider's parameters (Config/Modules/StaticTorqueProvider.toml states only what differs from these
// defaults): when the FSRs are believed, and which code computes the torques. FSR readings are kg per sensor, as
// LoLA reports them.
#include "Tools/Kinematics/Evaluators.h"
#include "Tools/Streams/Field.h"

namespace nao
{
struct StaticTorqueParameters
{
  float minimumReading = -0.1f;
  float maximumReading = 10.f;
  // Lifted: the torques are gravity's with the torso held fixed.
  float liftedFraction = 0.15f;
  // Outside the plausible fractions (and not lifted) the weight is split between the soles by the centre-of-mass
  // projection instead of the FSRs.
  float minimumPlausibleFraction = 0.4f;
  float maximumPlausibleFraction = 2.5f;
  float minimumSoleFraction = 0.02f;
  float gravity = 9.81f;
  float anglesAgreement = 0.15f;
  kinematics::KinematicsBackend backend = kinematics::KinematicsBackend::automatic;
  bool allowAvx2 = true;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("minimumReading", minimumReading)
        .range(-5.0, 0.0)
        .doc("kg; an FSR reading below this (or NaN) marks the sensor broken");
    ar& field("maximumReading", maximumReading)
        .range(1.0, 100.0)
        .doc("kg; an FSR reading above this marks the sensor broken (its range is 0..25 N)");
    ar& field("liftedFraction", liftedFraction)
        .range(0.0, 1.0)
        .doc("FSR total / robot mass below this: lifted (no contact)");
    ar& field("minimumPlausibleFraction", minimumPlausibleFraction)
        .range(0.0, 1.0)
        .doc("FSR total / robot mass below this, not lifted: centre-of-mass projection fallback");
    ar& field("maximumPlausibleFraction", maximumPlausibleFraction)
        .range(1.0, 10.0)
        .doc("FSR total / robot mass above this: centre-of-mass projection fallback");
    ar& field("minimumSoleFraction", minimumSoleFraction)
        .range(0.0, 0.5)
        .doc("a sole carrying less gets its centre of pressure at the sole origin");
    ar& field("gravity", gravity).range(9.0, 10.0).doc("m/s²; gravitational acceleration");
    ar& field("anglesAgreement", anglesAgreement)
        .unit(Unit::radians)
        .range(0.01, 1.0)
        .doc("LoLA's Angles give gravity while they agree this well with the filter's (each axis); else the "
             "filter's");
    ar& field("backend", backend).doc("JIT, Eigen, or automatic: the JIT where it runs");
    ar& field("allowAvx2", allowAvx2)
        .doc("false: the JIT's SSE4.1 code, as on the NAO V6's Atom (for comparisons)");
  }
};
} // namespace nao
