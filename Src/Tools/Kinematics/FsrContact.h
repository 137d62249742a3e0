#pragma once
// How the weight is shared between the soles, from the 8 force sensitive resistors (FSRs) under them, with a
// stated fallback when the readings contradict gravity. The result feeds computeStandingTorques().
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/Model.h"
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Streams/Enum.h"

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao::kinematics
{
/// LoLA's FSR order (lola.md section 5): left FrontLeft, FrontRight, RearLeft, RearRight, then the same
/// right.
inline constexpr std::size_t fsrCount = 8;

NAO_ENUM(
    ContactModel, std::uint8_t,
    fsr, ///< per-sole share and centre of pressure as the FSRs measure them, scaled to the robot's weight
    comProjection, ///< FSRs unusable (broken, NaN, implausible total) but the robot is taken to stand: the
                   ///< weight is split by where the CoM projects (along gravity) between the sole origins,
                   ///< CoPs at those origins (then moved under the CoM by balanceSoleWrenches)
    noContact,     ///< FSRs read (almost) nothing: the robot is lifted; fixed torso, gravity torques only
);

/// FSR positions (m): (x, y) in the sole frame of their foot, LoLA order.
struct FsrLayout
{
  std::array<Eigen::Vector2d, fsrCount> positions;
};

/// The layout from the URDF's FSR frames (LFsrFL_frame ... RFsrRR_frame) relative to the sole links.
/// Throws ModelError if a frame is missing or not rigidly attached to its sole.
FsrLayout naoFsrLayout(const Model& model, const FeetSupport& feet);

/// Thresholds that decide when the FSRs contradict gravity (kg are what LoLA reports per sensor).
struct FsrContactParameters
{
  double minimumReading = -0.1; ///< kg; a reading below this (or NaN) marks the sensor broken
  double maximumReading = 10.0; ///< kg; a reading above this marks the sensor broken (range is 0..25 N)
  double liftedFraction = 0.15; ///< total / robot mass below this: lifted, ContactModel::noContact
  double minimumPlausibleFraction = 0.4; ///< total / robot mass below this (not lifted): comProjection
  double maximumPlausibleFraction = 2.5; ///< total / robot mass above this: comProjection
  double minimumSoleFraction = 0.02;     ///< a sole with a smaller share gets its CoP at the sole origin
};

struct ContactEstimate
{
  ContactModel model = ContactModel::noContact;
  SoleLoads soles{SoleLoad{0.0, Eigen::Vector2d::Zero()}, SoleLoad{0.0, Eigen::Vector2d::Zero()}};
  std::array<double, 2> normalForce{}; ///< N per sole (left, right) along -gravity: share * weight
  double fsrTotal = 0.0;               ///< kg, sum of the readings (NaN if one is NaN)
};

/// Needs the body poses and the centre of mass of the current configuration (e.g. updateBodyPoses and
/// updateCenterOfMass) for the comProjection fallback; gravity in m/s^2 in the base frame.
ContactEstimate estimateContact(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                const FeetSupport& feet, const FsrLayout& layout,
                                std::span<const float, fsrCount> readingsKg,
                                const FsrContactParameters& parameters);

/// The static torques for an estimate: gravity torques with a fixed torso for noContact, otherwise
/// computeStandingTorques with the estimated sole loads.
void computeTorquesFromContactEstimate(const Model& model, Data& data, const JointVector& q,
                                       const Eigen::Vector3d& gravity, const FeetSupport& feet,
                                       const ContactEstimate& estimate, TorqueVector tau,
                                       SoleWrenches* wrenches = nullptr);
} // namespace nao::kinematics
