#pragma once
// When this motion frame happened. Filled by the body before any module runs.
#include "Tools/Streams/Field.h"
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
struct FrameInfo
{
  double time = 0.0;             ///< s, time of the body packet since the body started
  std::uint32_t frameNumber = 0; ///< count of body packets since start
  /// Body packets lost since start (LoLA frames the process was too late for).
  std::uint32_t missedFrames = 0;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("time", time).unit(streams::Unit::seconds) & BOOST_SERIALIZATION_NVP(frameNumber) &
        BOOST_SERIALIZATION_NVP(missedFrames);
  }
};
} // namespace nao
