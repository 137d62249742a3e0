#pragma once

// Decimal text for numbers that reads back bit-exactly, as short as possible, so that saved files stay
// readable ("0.1", not "0.10000000000000001") and load(save(x)) == x.

#include <cmath>
#include <concepts>
#include <string>

#include "Tools/Streams/Field.h"

namespace nao::streams
{
/// Shortest decimal that parses back to exactly this double: "0.1", "30", "1e-07", "inf", "-inf", "nan".
std::string formatShortest(double value);
/// Shortest decimal that parses back (as float) to exactly this float.
std::string formatShortest(float value);
/// The double nearest to value printed with `digits` significant decimal digits (1..17).
double roundToSignificantDigits(double value, int digits);

/// The file value to write for a code value: the number with the fewest significant digits that loads back
/// (through fileToCode and the conversion to T) to exactly codeValue. Falls back to the plain conversion
/// when none does, which then loads back within a few units in the last place.
template<std::floating_point T>
double fileValueFor(T codeValue, Unit unit)
{
  const double plain = codeToFile(static_cast<double>(codeValue), unit);
  if (!std::isfinite(plain)) return plain;
  for (int digits = 1; digits <= 17; ++digits)
  {
    const double candidate = roundToSignificantDigits(plain, digits);
    const double loaded = fileToCode(candidate, unit);
    if (std::isfinite(loaded) && static_cast<T>(loaded) == codeValue) return candidate;
  }
  return plain;
}
} // namespace nao::streams
