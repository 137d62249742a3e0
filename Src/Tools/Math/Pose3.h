#pragma once
// A rigid transform as plain numbers (serializable, copyable without allocation): rotation matrix row-major
// and translation, in float. This is the form representations store and logs carry; math::Pose (Pose.h) is
// the one to compute with. Conversions to Eigen live with the code that computes them.
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>

namespace nao
{
struct Pose3
{
  std::array<float, 9> rotation{1, 0, 0, 0, 1,
                                0, 0, 0, 1}; ///< row-major 3x3, maps child frame to parent frame
  std::array<float, 3> translation{};        ///< m, child origin in the parent frame

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(rotation) &
        streams::field("translation", translation).unit(streams::Unit::meters);
  }
};
} // namespace nao
