#include "Tools/Kinematics/FsrContact.h"

#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/ModelError.h"

#include <algorithm>
#include <cmath>

namespace nao::kinematics
{
namespace
{
constexpr std::array<std::string_view, fsrCount> naoFsrFrames{"LFsrFL_frame", "LFsrFR_frame", "LFsrRL_frame",
                                                              "LFsrRR_frame", "RFsrFL_frame", "RFsrFR_frame",
                                                              "RFsrRL_frame", "RFsrRR_frame"};
constexpr std::size_t fsrsPerSole = 4;

/// Share of the weight on the left sole from where the CoM lies between the two sole origins, seen along
/// gravity.
double leftShareFromCenterOfMass(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                 const FeetSupport& feet)
{
  const Eigen::Vector3d left = linkPose(model, data, feet.leftSole).translation;
  const Eigen::Vector3d right = linkPose(model, data, feet.rightSole).translation;
  const Eigen::Vector3d down = gravity.squaredNorm() > 0.0 ? gravity.normalized() : Eigen::Vector3d(0, 0, -1);
  const auto horizontal = [&](const Eigen::Vector3d& v) -> Eigen::Vector3d { return v - v.dot(down) * down; };
  const Eigen::Vector3d span = horizontal(left - right);
  if (span.squaredNorm() < 1e-12) return 0.5;
  return std::clamp(horizontal(data.centerOfMass - right).dot(span) / span.squaredNorm(), 0.0, 1.0);
}

ContactEstimate fromCenterOfMass(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                 const FeetSupport& feet)
{
  ContactEstimate estimate;
  estimate.model = ContactModel::comProjection;
  const double left = leftShareFromCenterOfMass(model, data, gravity, feet);
  estimate.soles[0].weightFraction = left;
  estimate.soles[1].weightFraction = 1.0 - left;
  return estimate;
}
} // namespace

FsrLayout naoFsrLayout(const Model& model, const FeetSupport& feet)
{
  FsrLayout layout;
  for (std::size_t i = 0; i < fsrCount; ++i)
  {
    const Link& sole = model.link(i < fsrsPerSole ? feet.leftSole : feet.rightSole);
    const Link& fsr = model.link(model.linkIndex(naoFsrFrames[i]));
    if (fsr.body != sole.body)
      throw ModelError("FSR frame '" + fsr.name + "' is not rigidly attached to the sole '" + sole.name +
                       "'");
    layout.positions[i] = (sole.placement.inverse() * fsr.placement.translation).head<2>();
  }
  return layout;
}

ContactEstimate estimateContact(const Model& model, const Data& data, const Eigen::Vector3d& gravity,
                                const FeetSupport& feet, const FsrLayout& layout,
                                std::span<const float, fsrCount> readingsKg,
                                const FsrContactParameters& parameters)
{
  double total = 0.0;
  bool broken = false;
  std::array<double, fsrCount> readings{};
  for (std::size_t i = 0; i < fsrCount; ++i)
  {
    const double reading = readingsKg[i];
    total += reading;
    broken = broken || !(reading >= parameters.minimumReading && reading <= parameters.maximumReading);
    readings[i] = std::max(reading, 0.0);
  }
  const double weight = model.totalMass() * gravity.norm(); // N
  const double fraction = total / model.totalMass();
  ContactEstimate estimate;
  if (!broken && fraction < parameters.liftedFraction)
    estimate.model = ContactModel::noContact;
  else if (broken || fraction < parameters.minimumPlausibleFraction ||
           fraction > parameters.maximumPlausibleFraction)
    estimate = fromCenterOfMass(model, data, gravity, feet);
  else
  {
    estimate.model = ContactModel::fsr;
    const double clampedTotal = std::max(total, 1e-9);
    for (std::size_t foot = 0; foot < 2; ++foot)
    {
      double sum = 0.0;
      Eigen::Vector2d moment = Eigen::Vector2d::Zero();
      for (std::size_t i = foot * fsrsPerSole; i < (foot + 1) * fsrsPerSole; ++i)
      {
        sum += readings[i];
        moment += readings[i] * layout.positions[i];
      }
      SoleLoad& sole = estimate.soles[foot];
      sole.weightFraction = sum / clampedTotal;
      sole.centerOfPressure = sole.weightFraction >= parameters.minimumSoleFraction
                                  ? Eigen::Vector2d(moment / sum)
                                  : Eigen::Vector2d::Zero();
    }
  }
  estimate.fsrTotal = total;
  for (std::size_t foot = 0; foot < 2; ++foot)
    estimate.normalForce[foot] = estimate.soles[foot].weightFraction * weight;
  return estimate;
}

void computeTorquesFromContactEstimate(const Model& model, Data& data, const JointVector& q,
                                       const Eigen::Vector3d& gravity, const FeetSupport& feet,
                                       const ContactEstimate& estimate, TorqueVector tau,
                                       SoleWrenches* wrenches)
{
  if (estimate.model == ContactModel::noContact)
  {
    computeGravityTorques(model, data, q, gravity, tau);
    if (wrenches) *wrenches = {ContactWrench{feet.leftSole}, ContactWrench{feet.rightSole}};
  }
  else
    computeStandingTorques(model, data, q, gravity, feet, estimate.soles, tau, wrenches);
}
} // namespace nao::kinematics
