#pragma once
// A parameter value as a person types it for `DebugClient set` (and any client): a TOML value in the unit of the
// module's file, or a number with its unit written after it ("0.5s", "500 ms", "30deg"), converted to the file's
// unit when both measure the same thing (a time, an angle, ...) and refused otherwise.
#include <optional>
#include <string>
#include <string_view>

namespace nao::debug
{
struct ParameterValue
{
  std::string text; ///< what to send: the value in the file's unit (the typed text when it had no unit)
  std::string note; ///< "0.5 s = 500 ms" when a unit was converted, else empty
  bool unitWritten = false; ///< the typed value named its unit
  std::string error;        ///< why the value is refused (a unit that is unknown or measures something else)
  std::optional<double> number; ///< the value in the file's unit, when it is a plain number
};

/// `typed` for a field whose file unit is `fileUnit` (a streams::unitSymbol: "ms", "deg", "" for none).
ParameterValue parameterValue(std::string_view typed, std::string_view fileUnit);

/// A warning for a time (a field in s or ms) set without a unit, above 0 and below one motion frame of
/// `frameSeconds`: such a value is most likely meant in another unit ("transitionTime 0.5" meant as seconds is 0.5 ms, a posture jump in
/// one frame). Empty when there is nothing to warn of.
std::string shortTimeWarning(std::string_view label, const ParameterValue& value, std::string_view fileUnit,
                             double frameSeconds);
} // namespace nao::debug
