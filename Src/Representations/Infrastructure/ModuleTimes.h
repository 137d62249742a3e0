#pragma once
// How long each module of the motion thread took. Filled by the framework after all modules ran, so modules
// may only USE it (last frame's value). Median and max are over the last complete window of frames.
#include "Tools/Containers/FixedString.h"
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <cstdint>

namespace nao
{
struct ModuleTime
{
  /// Module name, or "(framework, body send)" for the frame loop's own overhead including the answer to the
  /// body.
  FixedString<47> name;
  std::uint32_t lastNs = 0;   ///< ns, this frame
  std::uint32_t medianNs = 0; ///< ns, median over the last complete window
  std::uint32_t maxNs = 0;    ///< ns, maximum over the last complete window

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(name) & streams::field("lastNs", lastNs).unit(streams::Unit::nanoseconds) &
        streams::field("medianNs", medianNs).unit(streams::Unit::nanoseconds) &
        streams::field("maxNs", maxNs).unit(streams::Unit::nanoseconds);
  }
};

struct ModuleTimes
{
  static constexpr std::size_t capacity = 64;
  std::array<ModuleTime, capacity> modules{}; ///< the first `count` entries are valid
  std::uint16_t count = 0;                    ///< number of valid entries
  std::uint16_t windowFrames = 0;             ///< frames in the statistics window
  std::uint32_t frameNs = 0;                  ///< ns, whole frame from body packet to answer, this frame

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& BOOST_SERIALIZATION_NVP(modules) & BOOST_SERIALIZATION_NVP(count) &
        BOOST_SERIALIZATION_NVP(windowFrames) &
        streams::field("frameNs", frameNs).unit(streams::Unit::nanoseconds);
  }
};
} // namespace nao
