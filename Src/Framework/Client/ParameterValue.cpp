#include "Framework/Client/ParameterValue.h"
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <numbers>

namespace nao::debug
{
namespace
{
struct UnitEntry
{
  std::string_view symbol;
  std::string_view quantity; ///< what it measures, for messages: "a time"
  double siFactor;           ///< one of this unit in SI (or in the quantity's unit of reference)
};

// The units of streams::Unit (Src/Tools/Streams/Field.h) and the common spellings people type for them.
constexpr std::array units{
    UnitEntry{"s", "a time", 1.0},
    UnitEntry{"ms", "a time", 1e-3},
    UnitEntry{"ns", "a time", 1e-9},
    UnitEntry{"rad", "an angle", 1.0},
    UnitEntry{"deg", "an angle", std::numbers::pi / 180.0},
    UnitEntry{"°", "an angle", std::numbers::pi / 180.0},
    UnitEntry{"rad/s", "an angular velocity", 1.0},
    UnitEntry{"deg/s", "an angular velocity", std::numbers::pi / 180.0},
    UnitEntry{"°/s", "an angular velocity", std::numbers::pi / 180.0},
    UnitEntry{"A", "a current", 1.0},
    UnitEntry{"mA", "a current", 1e-3},
    UnitEntry{"m", "a length", 1.0},
    UnitEntry{"cm", "a length", 1e-2},
    UnitEntry{"mm", "a length", 1e-3},
    UnitEntry{"%", "a fraction", 1e-2},
    UnitEntry{"m/s²", "an acceleration", 1.0},
    UnitEntry{"kg", "a mass", 1.0},
    UnitEntry{"N", "a force", 1.0},
    UnitEntry{"N·m", "a torque", 1.0},
    UnitEntry{"Nm", "a torque", 1.0},
    UnitEntry{"°C", "a temperature in °C", 1.0},
    UnitEntry{"K", "a temperature in K", 1.0},
    UnitEntry{"J", "an energy", 1.0},
};

const UnitEntry* findUnit(std::string_view symbol)
{
  for (const UnitEntry& unit : units)
    if (unit.symbol == symbol) return &unit;
  return nullptr;
}

std::string_view trimmed(std::string_view text)
{
  const auto first = text.find_first_not_of(" \t");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

/// 12 significant digits: 0.5 s in ms is 500, not 500.00000000000006.
std::string formatted(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", value);
  return text;
}

std::string knownUnits()
{
  std::string list;
  for (const UnitEntry& unit : units)
    list += (list.empty() ? "" : ", ") + std::string(unit.symbol);
  return list;
}
} // namespace

ParameterValue parameterValue(std::string_view typed, std::string_view fileUnit)
{
  ParameterValue result;
  const std::string_view text = trimmed(typed);
  result.text = std::string(text);
  double number = 0;
  const char* const end = text.data() + text.size();
  const auto [after, error] = std::from_chars(text.data(), end, number);
  // Not a number (a string, a boolean, an array): sent as typed, the robot validates it.
  if (error != std::errc() || text.empty()) return result;
  const std::string_view suffix = trimmed(std::string_view(after, static_cast<std::size_t>(end - after)));
  if (suffix.empty())
  {
    result.number = number;
    return result;
  }
  const std::string_view numberText(text.data(), static_cast<std::size_t>(after - text.data()));
  const UnitEntry* typedUnit = findUnit(suffix);
  if (!typedUnit)
  {
    result.error = "'" + std::string(text) + "': unknown unit '" + std::string(suffix) +
                   "' (units: " + knownUnits() + ")";
    return result;
  }
  const UnitEntry* unit = findUnit(fileUnit);
  if (fileUnit.empty() || !unit)
  {
    result.error = "'" + std::string(text) + "': this value has no unit" +
                   (fileUnit.empty() ? std::string() : " that converts (" + std::string(fileUnit) + ")") +
                   "; write the number alone";
    return result;
  }
  if (unit->quantity != typedUnit->quantity)
  {
    result.error = "'" + std::string(text) + "' is " + std::string(typedUnit->quantity) +
                   ", but this value is " + std::string(unit->quantity) + " in " + std::string(fileUnit) +
                   ": not converted";
    return result;
  }
  result.unitWritten = true;
  if (typedUnit == unit)
  {
    result.number = number;
    result.text = std::string(numberText);
    return result;
  }
  result.number = number * typedUnit->siFactor / unit->siFactor;
  result.text = formatted(*result.number);
  result.note = std::string(numberText) + " " + std::string(typedUnit->symbol) + " = " + result.text + " " +
                std::string(fileUnit);
  return result;
}

std::string shortTimeWarning(std::string_view label, const ParameterValue& value, std::string_view fileUnit,
                             double frameSeconds)
{
  const UnitEntry* unit = findUnit(fileUnit);
  if (value.unitWritten || !value.number || !unit || unit->quantity != "a time") return {};
  const double seconds = *value.number * unit->siFactor;
  if (!(seconds > 0 && seconds < frameSeconds)) return {};
  const std::string frame = formatted(frameSeconds / unit->siFactor) + " " + std::string(fileUnit);
  return std::string(label) + " = " + value.text + " " + std::string(fileUnit) +
         " is shorter than one motion frame (" + frame +
         "): it acts as a jump within one frame. A value in "
         "another unit takes the unit after the number, e.g. " +
         formatted(*value.number) + "s";
}
} // namespace nao::debug
