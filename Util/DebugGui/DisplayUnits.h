#pragma once
// The units the GUI shows: the file units people read (mA, °, °/s, °C), the same in every table and plot. A
// representation's field holds its code unit (A, rad, rad/s, Field.h's second group); the GUI converts once, here,
// with Field.h's table (codeToFile), so a joint table cell and a plot's point of the same sample agree.
#include "Tools/Streams/Field.h"
#include <string>

namespace nao::gui
{
struct DisplayUnit
{
  std::string symbol; ///< as shown: "mA", "°", "°C"; "" for none
  double scale = 1;   ///< shown value = field value × scale
  /// The smallest span of a y axis in this unit: sensor noise alone never fills a plot's height (a 2 A rise stays
  /// visible next to 10 mA of noise once the window holds only the noise).
  double floor = 0;
};

/// How a field of unit `fieldUnit` ("A", "rad", "deg", "°C", ...) is shown.
inline DisplayUnit displayUnit(const std::string& fieldUnit)
{
  using streams::Unit;
  const auto converted = [](Unit fileUnit, const char* symbol, double floor) {
    return DisplayUnit{symbol, streams::codeToFile(1.0, fileUnit), floor};
  };
  if (fieldUnit == "A") return converted(Unit::milliamperes, "mA", 500);
  if (fieldUnit == "mA") return {"mA", 1, 500};
  if (fieldUnit == "rad" || fieldUnit == "rad/s")
    return converted(fieldUnit == "rad" ? Unit::degrees : Unit::degreesPerSecond,
                     fieldUnit == "rad" ? "°" : "°/s", 10);
  if (fieldUnit == "deg") return {"°", 1, 10};
  if (fieldUnit == "deg/s") return {"°/s", 1, 10};
  if (fieldUnit == "°C") return {"°C", 1, 5};
  return {fieldUnit, 1, 0};
}
} // namespace nao::gui
