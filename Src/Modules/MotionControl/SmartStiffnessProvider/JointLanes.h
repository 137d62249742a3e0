#pragma once
// Four joints at a time for SmartStiffnessProvider's per-frame loops (GCC and Clang vector extensions: SSE on
// the NAO's Atom). GCC -O2 leaves these loops scalar (25 joints need a remainder, float reductions may not be
// reordered, and bool flags are control flow); in lanes the frame costs about half. 25 joints = 6 lanes of 4
// and one of a single joint (the others zero; stores write only that one).
#include "Representations/Infrastructure/Joints.h"
#include <cstdint>
#include <cstring>

namespace nao::lanes
{
using Floats = float __attribute__((vector_size(16)));
using Ints = std::int32_t __attribute__((vector_size(16)));
using Flags4 = std::uint8_t __attribute__((vector_size(4)));

static_assert(numOfJoints % 4 == 1, "six lanes of four and a last single joint");

/// Joints j..j+3.
struct Four
{
  static Floats load(const float* p, std::size_t j)
  {
    Floats v;
    std::memcpy(&v, p + j, sizeof v);
    return v;
  }
  static void store(float* p, std::size_t j, Floats v) { std::memcpy(p + j, &v, sizeof v); }
  /// -1 where the flag is set, 0 elsewhere.
  static Ints flags(const bool* p, std::size_t j)
  {
    Flags4 bytes;
    std::memcpy(&bytes, p + j, sizeof bytes);
    return __builtin_convertvector(bytes, Ints) != 0;
  }
};

/// Joint j alone in lane 0; lanes 1-3 hold 0 (a finite value that changes no maximum and no sum).
struct One
{
  static Floats load(const float* p, std::size_t j) { return Floats{p[j], 0.f, 0.f, 0.f}; }
  static void store(float* p, std::size_t j, Floats v) { p[j] = v[0]; }
  static Ints flags(const bool* p, std::size_t j) { return Ints{p[j] ? -1 : 0, 0, 0, 0}; }
};

/// body(j, Four{}) for j = 0, 4, ..., 20, then body(24, One{}).
template<class Body>
void forEachLane(Body&& body)
{
  for (std::size_t j = 0; j + 4 <= numOfJoints; j += 4)
    body(j, Four{});
  body(numOfJoints - 1, One{});
}

inline Floats abs(Floats v)
{
  return reinterpret_cast<Floats>(reinterpret_cast<Ints>(v) & 0x7fffffff);
}
/// The larger of each lane; a NaN in `value` keeps `largest` (as std::max(largest, value)).
inline Floats max(Floats largest, Floats value)
{
  return largest < value ? value : largest;
}
inline float largestLane(Floats v)
{
  const float a = v[0] < v[1] ? v[1] : v[0], b = v[2] < v[3] ? v[3] : v[2];
  return a < b ? b : a;
}
} // namespace nao::lanes
