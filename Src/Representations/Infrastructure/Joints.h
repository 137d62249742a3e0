#pragma once
// The 25 joints in LoLA order (NaoFacts.md §4). There is no RHipYawPitch: index 7 drives the
// one hip-yaw-pitch motor of both legs. Joint-indexed data uses JointArray, indexed by Joint.
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
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

constexpr bool isLegJoint(Joint j)
{
  return j >= Joint::LHipYawPitch && j <= Joint::RAnkleRoll;
}
constexpr bool isArmJoint(Joint j)
{
  return (j >= Joint::LShoulderPitch && j <= Joint::LWristYaw) ||
         (j >= Joint::RShoulderPitch && j <= Joint::RWristYaw) || j == Joint::LHand || j == Joint::RHand;
}
constexpr bool isHeadJoint(Joint j)
{
  return j == Joint::HeadYaw || j == Joint::HeadPitch;
}

/// A value per joint, indexed by Joint. Written in config files as a table keyed by joint name.
template<class T>
struct JointArray
{
  std::array<T, numOfJoints> values{};

  constexpr T& operator[](Joint j) { return values[index(j)]; }
  constexpr const T& operator[](Joint j) const { return values[index(j)]; }
  constexpr T& operator[](std::size_t i) { return values[i]; }
  constexpr const T& operator[](std::size_t i) const { return values[i]; }
  static constexpr std::size_t size() { return numOfJoints; }
  static constexpr std::span<const std::string_view> names() { return jointNames; }
  auto begin() { return values.begin(); }
  auto end() { return values.end(); }
  auto begin() const { return values.begin(); }
  auto end() const { return values.end(); }
  void fill(const T& value) { values.fill(value); }
  bool operator==(const JointArray&) const = default;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& boost::serialization::make_nvp("values", values);
  }
};
} // namespace nao
