#pragma once
// The 25 joints in LoLA order (NaoFacts.md §4) and the four limbs they form. There is no RHipYawPitch: index 7
// drives the one hip-yaw-pitch motor of both legs. Joint-indexed data uses JointArray, indexed by Joint; limb-indexed
// data LimbArray, indexed by Limb; which joints a limb has is limbJoints, asked through isJointOf().
#include "Tools/Containers/EnumArray.h"
#include "Tools/Streams/Enum.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <numbers>
#include <string_view>

namespace nao
{
/// In LoLA order and spelled as LoLA's documentation spells them (NaoFacts.md §4, checked by JointsTests): the
/// names in files, logs and tools are these.
NAO_ENUM(Joint, std::uint8_t,
         HeadYaw,        ///< 0
         HeadPitch,      ///< 1
         LShoulderPitch, ///< 2
         LShoulderRoll,  ///< 3
         LElbowYaw,      ///< 4
         LElbowRoll,     ///< 5
         LWristYaw,      ///< 6
         LHipYawPitch,   ///< 7
         LHipRoll,       ///< 8
         LHipPitch,      ///< 9
         LKneePitch,     ///< 10
         LAnklePitch,    ///< 11
         LAnkleRoll,     ///< 12
         RHipRoll,       ///< 13
         RHipPitch,      ///< 14
         RKneePitch,     ///< 15
         RAnklePitch,    ///< 16
         RAnkleRoll,     ///< 17
         RShoulderPitch, ///< 18
         RShoulderRoll,  ///< 19
         RElbowYaw,      ///< 20
         RElbowRoll,     ///< 21
         RWristYaw,      ///< 22
         LHand,          ///< 23
         RHand           ///< 24
);
inline constexpr std::size_t numOfJoints = streams::enumCount<Joint>;
static_assert(numOfJoints == 25, "LoLA's joint arrays have 25 entries (NaoFacts.md §4)");

/// The joint names in LoLA order: Joint's own names (streams::enumNamesOf<Joint>), under the name that the code
/// indexing them by position uses.
inline constexpr const auto& jointNames = streams::enumNamesOf<Joint>;

constexpr std::string_view name(Joint joint)
{
  return streams::enumName(joint);
}
constexpr std::size_t index(Joint joint)
{
  return static_cast<std::size_t>(joint);
}
constexpr Joint jointAt(std::size_t i)
{
  return static_cast<Joint>(i);
}

/// A value per joint, indexed by Joint. Written in config files as a table keyed by joint name.
template<class T>
using JointArray = EnumArray<Joint, T, numOfJoints>;

/// A posture written in degrees (one per joint, in Joint order; Hands 0..57.3 for closed..open), in radians: the
/// default of a pose parameter reads as the file does.
inline JointArray<float> jointAnglesFromDegrees(const std::array<double, numOfJoints>& degrees)
{
  JointArray<float> angles;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    angles[j] = static_cast<float>(degrees[j] * std::numbers::pi / 180.0);
  return angles;
}

/// The limbs, each named by its side; the head is none.
NAO_ENUM(Limb, std::uint8_t, leftArm, rightArm, leftLeg, rightLeg);
inline constexpr std::size_t numOfLimbs = streams::enumCount<Limb>;

constexpr Limb limbAt(std::size_t i)
{
  return static_cast<Limb>(i);
}

/// A value per limb, indexed by Limb; named by limb in logs and tools.
template<class T>
using LimbArray = EnumArray<Limb, T, numOfLimbs>;

/// The joints of each limb from the torso out, the hands included. Both legs have LHipYawPitch: its one motor turns
/// both hips (RHipYawPitch mimics it and is no LoLA joint). HeadYaw and HeadPitch belong to no limb.
inline constexpr LimbArray<std::array<Joint, 6>> limbJoints{{{
    {{Joint::LShoulderPitch, Joint::LShoulderRoll, Joint::LElbowYaw, Joint::LElbowRoll, Joint::LWristYaw,
      Joint::LHand}},
    {{Joint::RShoulderPitch, Joint::RShoulderRoll, Joint::RElbowYaw, Joint::RElbowRoll, Joint::RWristYaw,
      Joint::RHand}},
    {{Joint::LHipYawPitch, Joint::LHipRoll, Joint::LHipPitch, Joint::LKneePitch, Joint::LAnklePitch,
      Joint::LAnkleRoll}},
    {{Joint::LHipYawPitch, Joint::RHipRoll, Joint::RHipPitch, Joint::RKneePitch, Joint::RAnklePitch,
      Joint::RAnkleRoll}},
}}};

/// Per joint, bit l set when it is one of limb l's joints: limbJoints inverted at compile time.
inline constexpr JointArray<std::uint8_t> limbsOfJoint = []
{
  JointArray<std::uint8_t> limbs{};
  for (std::size_t l = 0; l < numOfLimbs; ++l)
    for (const Joint j : limbJoints[l])
      limbs[j] = static_cast<std::uint8_t>(limbs[j] | (1u << l));
  return limbs;
}();

/// Whether `joint` is one of `limb`'s joints (limbJoints): the one question every check of a joint's limb asks.
constexpr bool isJointOf(Joint joint, Limb limb)
{
  return (limbsOfJoint[joint] >> static_cast<unsigned>(limb) & 1u) != 0;
}
constexpr bool isLegJoint(Joint j)
{
  return isJointOf(j, Limb::leftLeg) || isJointOf(j, Limb::rightLeg);
}
constexpr bool isArmJoint(Joint j)
{
  return isJointOf(j, Limb::leftArm) || isJointOf(j, Limb::rightArm);
}
constexpr bool isHeadJoint(Joint j)
{
  return !isLegJoint(j) && !isArmJoint(j);
}
} // namespace nao
