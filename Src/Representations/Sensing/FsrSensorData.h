#pragma once
// Force sensitive resistors under the soles: 4 per foot, LoLA order (Docs/NaoFacts.md §5), positions in
// NaoFacts.md §12.
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <cstddef>

namespace nao
{
enum class Foot : std::uint8_t
{
  left,
  right
};

struct FsrFoot
{
  std::array<float, 4> readings{}; ///< kg per sensor: FrontLeft, FrontRight, RearLeft, RearRight
  float totalWeight = 0.f;         ///< kg, sum of the four readings
  std::array<float, 2>
      centerOfPressure{};   ///< m, (x, y) in the ankle frame on the sole plane; 0 when unloaded
  bool hasPressure = false; ///< total above the contact threshold

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("readings", readings).unit(streams::Unit::kilograms) &
        streams::field("totalWeight", totalWeight).unit(streams::Unit::kilograms) &
        streams::field("centerOfPressure", centerOfPressure).unit(streams::Unit::meters) &
        BOOST_SERIALIZATION_NVP(hasPressure);
  }
};

struct FsrSensorData
{
  FsrFoot left;  ///< LoLA FSR indices 0..3
  FsrFoot right; ///< LoLA FSR indices 4..7

  FsrFoot& operator[](Foot foot) { return foot == Foot::left ? left : right; }
  const FsrFoot& operator[](Foot foot) const { return foot == Foot::left ? left : right; }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(left) & BOOST_SERIALIZATION_NVP(right);
  }
};
} // namespace nao
