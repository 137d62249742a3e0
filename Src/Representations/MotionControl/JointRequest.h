#pragma once
// The joint request and its stages. A motion source (keyframes, walk, GUI sliders) provides
// MotionJointRequest; each safety stage requires the request before it and provides the next; JointRequest is
// what goes out in the LoLA answer (Position, Stiffness). A stage set `off` passes its input through
// unchanged.
//
//   MotionJointRequest -> SafeMotionJointRequest -> FallSafeJointRequest -> CollisionFreeJointRequest ->
//   (motion source)       (SitDownProvider)         (FallProtectionProvider)  (SelfCollisionProvider)
//   StiffnessJointRequest -> JointRequest
//   (SmartStiffnessProvider)  (EnergySavingProvider)
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Infrastructure/PassThroughFrom.h"
#include "Tools/Streams/Field.h"
#include <algorithm>
#include <cmath>

namespace nao
{
struct JointRequest
{
  JointArray<float> angles;      ///< rad, target angles (Hands: 0 closed .. 1 open)
  JointArray<float> stiffnesses; ///< 0..1, torque limit as a fraction of the motor's maximum; 0 = joint free

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("angles", angles).unit(streams::Unit::radians) & BOOST_SERIALIZATION_NVP(stiffnesses);
  }
};

/// `request` with every angle or stiffness that is not finite replaced by `fallback`'s (a stage's last output) and
/// every stiffness clamped to 0..1: how a stage takes the request before it, so that a bad value makes nothing jump.
inline JointRequest finiteRequest(const JointRequest& request, const JointRequest& fallback)
{
  JointRequest result;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    result.angles[j] = std::isfinite(request.angles[j]) ? request.angles[j] : fallback.angles[j];
    result.stiffnesses[j] = std::isfinite(request.stiffnesses[j])
                                ? std::clamp(request.stiffnesses[j], 0.f, 1.f)
                                : fallback.stiffnesses[j];
  }
  return result;
}

/// What the motion source wants.
struct MotionJointRequest : JointRequest
{
  using JointRequest::operator=;
  /// The source moves a fallen robot (its get-up, or a new motion after a fall): FallProtectionProvider hands it the
  /// joints of a robot that lies passive, and takes none over while this is set. Otherwise a fallen robot stays
  /// passive (stiffness 0) until it is upright again, as NAOqi keeps it until told to move.
  bool getUp = false;

  template<class Archive>
  void serialize(Archive& ar, const unsigned version)
  {
    JointRequest::serialize(ar, version);
    ar& BOOST_SERIALIZATION_NVP(getUp);
  }
};

/// The motion source's request, or the sit-down (and the stand-up) the chest button or a low battery asked for.
struct SafeMotionJointRequest : JointRequest
{
  using JointRequest::operator=;
};

/// The request before, or while a fall is certain the protective posture (head against the fall, arms out, low
/// stiffness).
struct FallSafeJointRequest : JointRequest
{
  using JointRequest::operator=;
};

/// The motion source's request with every protected chain kept out of the body.
struct CollisionFreeJointRequest : JointRequest
{
  using JointRequest::operator=;
};

/// The request with stiffness limited to what holding the posture needs.
struct StiffnessJointRequest : JointRequest
{
  using JointRequest::operator=;
};

template<>
struct PassThroughFrom<SafeMotionJointRequest>
{
  using type = MotionJointRequest;
};
template<>
struct PassThroughFrom<FallSafeJointRequest>
{
  using type = SafeMotionJointRequest;
};
template<>
struct PassThroughFrom<CollisionFreeJointRequest>
{
  using type = FallSafeJointRequest;
};
template<>
struct PassThroughFrom<StiffnessJointRequest>
{
  using type = CollisionFreeJointRequest;
};
template<>
struct PassThroughFrom<JointRequest>
{
  using type = StiffnessJointRequest;
};
} // namespace nao
