#pragma once
// The 25 joints in LoLA order (NaoFacts.md §4) and the four limbs they form. There is no RHipYawPitch: index 7
// drives the one hip-yaw-pitch motor of both legs. Joint-indexed data uses JointArray, indexed by Joint; limb-indexed
// data LimbArray, indexed by Limb; which joints a limb has is limbJoints, asked through isJointOf().
#include "Tools/Containers/EnumArray.h"
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace nao
{
enum class Joint : std::uint8_t
{
  HeadYaw,
  HeadPitch,
  LShoulderPitch,
  LShoulderRoll,
  LElbowYaw,
  LElbowRoll,
  LWristYaw,
  LHipYawPitch,
  LHipRoll,
  LHipPitch,
  LKneePitch,
  LAnklePitch,
  LAnkleRoll,
  RHipRoll,
  RHipPitch,
  RKneePitch,
  RAnklePitch,
  RAnkleRoll,
  RShoulderPitch,
  RShoulderRoll,
  RElbowYaw,
  RElbowRoll,
  RWristYaw,
  LHand,
  RHand,
};
inline constexpr std::size_t numOfJoints = 25;

/// The one table of joint names, in LoLA order.
inline constexpr std::array<std::string_view, numOfJoints> jointNames = {
    "HeadYaw",    "HeadPitch",   "LShoulderPitch", "LShoulderRoll",  "LElbowYaw",
    "LElbowRoll", "LWristYaw",   "LHipYawPitch",   "LHipRoll",       "LHipPitch",
    "LKneePitch", "LAnklePitch", "LAnkleRoll",     "RHipRoll",       "RHipPitch",
    "RKneePitch", "RAnklePitch", "RAnkleRoll",     "RShoulderPitch", "RShoulderRoll",
    "RElbowYaw",  "RElbowRoll",  "RWristYaw",      "LHand",          "RHand"};

/// Found by argument-dependent lookup: lets config files and tools name joints instead of numbering them.
inline std::span<const std::string_view> enumNames(Joint)
{
  return jointNames;
}
constexpr std::string_view name(Joint joint)
{
  return jointNames[static_cast<std::size_t>(joint)];
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

/// The limbs, each named by its side; the head is none.
enum class Limb : std::uint8_t
{
  leftArm,
  rightArm,
  leftLeg,
  rightLeg,
};
inline constexpr std::size_t numOfLimbs = 4;
inline constexpr std::array<std::string_view, numOfLimbs> limbNames = {"leftArm", "rightArm", "leftLeg",
                                                                       "rightLeg"};
inline std::span<const std::string_view> enumNames(Limb)
{
  return limbNames;
}

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
