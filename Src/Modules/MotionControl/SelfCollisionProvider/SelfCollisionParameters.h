#pragma once
// SelfCollisionProvider's parameters (Config/Modules/SelfCollisionProvider.toml). Code holds m, rad and
// fractions; the file holds mm and degrees.
#include "Tools/Streams/Field.h"

#include <numbers>

namespace nao
{
/// Which chains are kept out of the rest of the body (NAOqi's setCollisionProtectionEnabled chain names). A chain
/// is protected when its own switch or a group containing it is on ("Arms" = LArm and RArm).
struct SelfCollisionProtection
{
  bool Arms = true;
  bool LArm = false;
  bool RArm = false;
  bool LLeg = true;
  bool RLeg = true;
  bool Head = true;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    ar& field("Arms", Arms).doc("protects both arms (LArm and RArm)");
    ar& field("LArm", LArm).doc("protects the left arm");
    ar& field("RArm", RArm).doc("protects the right arm");
    ar& field("LLeg", LLeg).doc("protects the left leg");
    ar& field("RLeg", RLeg).doc("protects the right leg");
    ar& field("Head", Head).doc("protects the head");
  }
};

struct SelfCollisionParameters
{
  static constexpr double degree = std::numbers::pi / 180.0;

  SelfCollisionProtection protection;
  // Below the closest pair of the stand (hand to hip, 13 mm), so that the stand passes unchanged.
  double activationDistance = 0.01;
  double safetyDistance = 0.005;
  // 1 lets a pair reach d_safe in one frame if the linear prediction held; smaller values leave room for the
  // prediction's error on curved paths.
  double damping = 0.5;
  // Keeps the linear prediction valid. 8° per 12 ms frame = 11.6 rad/s, above the NAO's fastest joint.
  double maxStep = 8.0 * degree;
  // A limp joint cannot move away, so it is no variable of the QP (the stiff chains move instead, seed 001).
  double limpStiffness = 0.05;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("protection", protection).doc("which chains are kept out of the rest of the body");
    ar& field("activationDistance", activationDistance)
        .unit(Unit::millimeters)
        .range(1.0, 200.0)
        .doc("a protected pair closer than this, at the last request or the new one, becomes a constraint");
    ar& field("safetyDistance", safetyDistance)
        .unit(Unit::millimeters)
        .range(0.0, 50.0)
        .doc("the distance the velocity damper converges to, d_safe");
    ar& field("damping", damping)
        .range(0.01, 1.0)
        .doc("fraction per frame of the gap to d_safe a pair may close (xi)");
    ar& field("maxStep", maxStep)
        .unit(Unit::degrees)
        .range(0.1, 30.0)
        .doc("per frame: a joint of a constrained chain moves at most this far from the last request");
    ar& field("limpStiffness", limpStiffness)
        .range(0.0, 1.0)
        .doc("a joint with a smaller requested stiffness is limp: its request passes unchanged");
  }
};
} // namespace nao
