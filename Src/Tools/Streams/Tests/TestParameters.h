#pragma once

// A realistic parameter struct for the Streams tests: nested tables, fixed and growing arrays, an enum,
// a named (per-joint) array, an array of tables, and fields stored in degrees, mA, ms, mm and percent.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>

#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"

namespace streams_test
{
using nao::streams::field;
using nao::streams::Unit;

NAO_ENUM(GaitMode, std::uint8_t, stand, walk, kick);

/// Stands in for the framework's JointArray: one value per named joint, written as a table keyed by name.
template<class T>
struct TestJointArray
{
  static constexpr std::size_t size() { return 4; }
  static std::span<const std::string_view> names()
  {
    static constexpr std::array<std::string_view, 4> jointNames{"HeadYaw", "HeadPitch", "LShoulderRoll",
                                                                "LKneePitch"};
    return jointNames;
  }
  T& operator[](std::size_t index) { return values[index]; }
  const T& operator[](std::size_t index) const { return values[index]; }
  bool operator==(const TestJointArray&) const = default;

  /// Binary archives know nothing of names and store the plain array.
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(values);
  }

  std::array<T, 4> values{};
};

struct WalkParameters
{
  double maxSpeed = 0.2;                         ///< m/s
  float stepHeight = 0.02f;                      ///< m (mm in files)
  std::array<double, 2> stepDuration{0.25, 0.3}; ///< s (ms in files)

  bool operator==(const WalkParameters&) const = default;

  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(maxSpeed);
    archive& field("stepHeight", stepHeight).unit(Unit::millimeters).range(5.0, 40.0);
    archive& field("stepDuration", stepDuration).unit(Unit::milliseconds).range(100.0, 1000.0);
  }
};

struct Keyframe
{
  double time = 0.0;             ///< s
  std::array<float, 3> angles{}; ///< rad (degrees in files)

  bool operator==(const Keyframe&) const = default;

  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(time);
    archive& field("angles", angles).unit(Unit::degrees).range(-120.0, 120.0);
  }
};

struct TestParameters
{
  bool enabled = false;
  std::int32_t cycles = 0;
  std::uint8_t priority = 0;
  std::string name;
  GaitMode mode = GaitMode::stand;
  double maxGearStep = 0.0;  ///< rad (degrees in files, 0..5)
  float currentLimit = 0.0f; ///< A (mA in files)
  double holdTime = 0.0;     ///< s (ms in files)
  double dutyCycle = 0.0;    ///< fraction (percent in files)
  std::vector<int> sensorIds;
  std::vector<GaitMode> sequence;
  WalkParameters walk;
  TestJointArray<double> thresholds; ///< rad (degrees in files)
  std::vector<Keyframe> poses;

  bool operator==(const TestParameters&) const = default;

  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/)
  {
    archive& BOOST_SERIALIZATION_NVP(enabled) & BOOST_SERIALIZATION_NVP(cycles) &
        BOOST_SERIALIZATION_NVP(priority);
    archive& BOOST_SERIALIZATION_NVP(name) & BOOST_SERIALIZATION_NVP(mode);
    archive& field("maxGearStep", maxGearStep).unit(Unit::degrees).range(0.0, 5.0);
    archive& field("currentLimit", currentLimit).unit(Unit::milliamperes).range(0.0, 1500.0);
    archive& field("holdTime", holdTime).unit(Unit::milliseconds);
    archive& field("dutyCycle", dutyCycle).unit(Unit::percent).range(0.0, 100.0);
    archive& BOOST_SERIALIZATION_NVP(sensorIds) & BOOST_SERIALIZATION_NVP(sequence);
    archive& BOOST_SERIALIZATION_NVP(walk);
    archive& field("thresholds", thresholds).unit(Unit::degrees);
    archive& BOOST_SERIALIZATION_NVP(poses);
  }
};

/// A valid file for TestParameters; the line numbers are what the error tests expect.
inline const std::string validToml = "enabled = true\n"                             // 1
                                     "cycles = 3\n"                                 // 2
                                     "priority = 7\n"                               // 3
                                     "name = \"standing\"\n"                        // 4
                                     "mode = \"walk\"\n"                            // 5
                                     "maxGearStep = 2.5\n"                          // 6
                                     "currentLimit = 250\n"                         // 7
                                     "holdTime = 12.5\n"                            // 8
                                     "dutyCycle = 40\n"                             // 9
                                     "sensorIds = [1, 2, 3]\n"                      // 10
                                     "sequence = [\"stand\", \"walk\", \"kick\"]\n" // 11
                                     "\n"                                           // 12
                                     "[walk]\n"                                     // 13
                                     "maxSpeed = 0.25\n"                            // 14
                                     "stepHeight = 15\n"                            // 15
                                     "stepDuration = [250, 300.5]\n"                // 16
                                     "\n"                                           // 17
                                     "[thresholds]\n"                               // 18
                                     "HeadYaw = 1.0\n"                              // 19
                                     "HeadPitch = 2\n"                              // 20
                                     "LShoulderRoll = 0.5\n"                        // 21
                                     "LKneePitch = 4\n"                             // 22
                                     "\n"                                           // 23
                                     "[[poses]]\n"                                  // 24
                                     "time = 0.5\n"                                 // 25
                                     "angles = [0, 45, -90]\n"                      // 26
                                     "\n"                                           // 27
                                     "[[poses]]\n"                                  // 28
                                     "time = 1.5\n"                                 // 29
                                     "angles = [10, 20, 30]\n";                     // 30

/// text with its 1-based line `line` replaced (an empty replacement keeps an empty line).
inline std::string replaceLine(const std::string& text, int line, std::string_view replacement)
{
  std::size_t begin = 0;
  for (int current = 1; current < line; ++current)
    begin = text.find('\n', begin) + 1;
  const std::size_t end = text.find('\n', begin);
  return text.substr(0, begin) + std::string(replacement) + text.substr(end);
}
} // namespace streams_test
