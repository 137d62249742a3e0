#pragma once

// A parameter with a unit, an allowed range and a one-line doc, usable in any Boost.Serialization serialize():
//   ar & nao::streams::field("maxGearStep", maxGearStep).unit(Unit::degrees).range(0.0, 5.0).doc("...");
// Binary archives see a plain nvp and store the SI value; the TOML archives convert to and from the file
// unit and check the range (given in file units, as people read them). The doc reaches the field lists
// (FieldListArchive: debug channel, GUI, DebugClient, README parameter tables); no archive stores it.

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include <boost/serialization/nvp.hpp>
#include <boost/serialization/wrapper.hpp>

#include "Tools/Streams/TypeTraits.h"

namespace nao::streams
{
/// The unit a value has in a FILE and wherever tools show it (CSV headers, dumps, the debug channel), the one
/// table of units: every field declares its unit here, and every output takes its symbol from unitSymbol().
/// The first group differs from what code holds (code holds the SI counterpart: rad, rad/s, A, s, m,
/// fraction) and is converted at load and save. The second group is what code holds, for fields shown as held
/// (representations, logs): no conversion.
enum class Unit
{
  none, ///< dimensionless: counts, flags, states, 0..1 fractions (stiffness)
  degrees,
  degreesPerSecond,
  milliamperes,
  milliseconds,
  millimeters,
  percent,
  // as held, no conversion:
  radians,
  radiansPerSecond,
  amperes,
  seconds,
  nanoseconds,
  meters,
  metersPerSecondSquared,
  kilograms,
  newtons,
  newtonMeters,
  degreesCelsius,
  kelvins,
  joules,
};

/// Display string of a unit: "deg", "mA", "ms", "A", "°C", ... ("" for none).
constexpr std::string_view unitSymbol(Unit unit)
{
  switch (unit)
  {
  case Unit::none:
    return "";
  case Unit::degrees:
    return "deg";
  case Unit::degreesPerSecond:
    return "deg/s";
  case Unit::milliamperes:
    return "mA";
  case Unit::milliseconds:
    return "ms";
  case Unit::millimeters:
    return "mm";
  case Unit::percent:
    return "%";
  case Unit::radians:
    return "rad";
  case Unit::radiansPerSecond:
    return "rad/s";
  case Unit::amperes:
    return "A";
  case Unit::seconds:
    return "s";
  case Unit::nanoseconds:
    return "ns";
  case Unit::meters:
    return "m";
  case Unit::metersPerSecondSquared:
    return "m/s²";
  case Unit::kilograms:
    return "kg";
  case Unit::newtons:
    return "N";
  case Unit::newtonMeters:
    return "N·m";
  case Unit::degreesCelsius:
    return "°C";
  case Unit::kelvins:
    return "K";
  case Unit::joules:
    return "J";
  }
  return "";
}

/// How every output labels a value with its unit: "currents.LKneePitch [A]"; no brackets without a unit.
inline std::string labelWithUnit(std::string_view name, std::string_view symbol)
{
  std::string label(name);
  if (!symbol.empty()) label.append(" [").append(symbol).append("]");
  return label;
}

/// Whether file and code values differ for this unit (the first group of Unit).
constexpr bool convertsValues(Unit unit)
{
  return unit == Unit::degrees || unit == Unit::degreesPerSecond || unit == Unit::milliamperes ||
         unit == Unit::milliseconds || unit == Unit::millimeters || unit == Unit::percent;
}

/// File value (e.g. degrees) -> code value (e.g. rad).
constexpr double fileToCode(double fileValue, Unit unit)
{
  switch (unit)
  {
  case Unit::degrees:
  case Unit::degreesPerSecond:
    return fileValue * (std::numbers::pi / 180.0);
  case Unit::milliamperes:
  case Unit::milliseconds:
  case Unit::millimeters:
    return fileValue / 1000.0;
  case Unit::percent:
    return fileValue / 100.0;
  default: // as held
    break;
  }
  return fileValue;
}

/// Code value (e.g. rad) -> file value (e.g. degrees); the inverse of fileToCode up to rounding.
constexpr double codeToFile(double codeValue, Unit unit)
{
  switch (unit)
  {
  case Unit::degrees:
  case Unit::degreesPerSecond:
    return codeValue / (std::numbers::pi / 180.0);
  case Unit::milliamperes:
  case Unit::milliseconds:
  case Unit::millimeters:
    return codeValue * 1000.0;
  case Unit::percent:
    return codeValue * 100.0;
  default: // as held
    break;
  }
  return codeValue;
}

/// How a value is written in a file: its unit and the allowed range in that unit (NaN bounds: no range), and
/// what it does (one line for people, empty when undocumented; a string literal, never owned).
struct ValueSpec
{
  Unit unit = Unit::none;
  double min = std::numeric_limits<double>::quiet_NaN();
  double max = std::numeric_limits<double>::quiet_NaN();
  std::string_view doc;

  bool hasRange() const { return !std::isnan(min) && !std::isnan(max); }
  /// NaN is never in range.
  bool inRange(double fileValue) const { return !hasRange() || (fileValue >= min && fileValue <= max); }
};

/// A Boost.Serialization wrapper (like nvp) carrying a file unit, a range and a doc. Made by field(); apply
/// unit(), range() and doc() to the temporary. For arrays and vectors, all three apply to every element.
template<class T>
class Field : public boost::serialization::wrapper_traits<const Field<T>>
{
public:
  Field(const char* name, T& value) : name_(name), value_(&value) {}

  const Field unit(Unit fileUnit) const
  {
    if (convertsValues(fileUnit) && !std::is_floating_point_v<ScalarOf<T>>)
      throw std::logic_error(std::string("field '") + name_ +
                             "': a converted unit needs floating-point values");
    Field copy = *this;
    copy.spec_.unit = fileUnit;
    return copy;
  }

  /// Allowed values in FILE units, bounds included.
  const Field range(double min, double max) const
  {
    if (!std::is_arithmetic_v<ScalarOf<T>> || std::is_same_v<ScalarOf<T>, bool>)
      throw std::logic_error(std::string("field '") + name_ + "': a range needs numeric values");
    if (!(min <= max)) throw std::logic_error(std::string("field '") + name_ + "': range needs min <= max");
    Field copy = *this;
    copy.spec_.min = min;
    copy.spec_.max = max;
    return copy;
  }

  /// What the value does, one line for people (units belong to unit()). `text` must outlive the field: a
  /// string literal.
  const Field doc(const char* text) const
  {
    Field copy = *this;
    copy.spec_.doc = text;
    return copy;
  }

  const char* name() const { return name_; }
  T& value() const { return *value_; }
  const ValueSpec& spec() const { return spec_; }

  /// Archives that know nothing of units (binary) store the raw SI value under the name.
  template<class Archive>
  void serialize(Archive& archive, const unsigned /*version*/) const
  {
    archive& boost::serialization::make_nvp(name_, *value_);
  }

private:
  const char* name_;
  T* value_;
  ValueSpec spec_;
};

/// Returned const like boost::serialization::make_nvp so that `ar & field(...)` binds for loading archives.
template<class T>
const Field<T> field(const char* name, T& value)
{
  return Field<T>(name, value);
}
} // namespace nao::streams
