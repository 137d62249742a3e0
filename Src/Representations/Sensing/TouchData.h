#pragma once
// LoLA's 14 touch sensors and buttons (key `Touch`, 0 or 1 each, order ../shared/data/nao-v6/lola.md §5): the
// chest button, the head's three touch pads, the foot bumpers and the hands' touch pads. Raw, not debounced: the
// module that acts on a press debounces it (SitDownProvider).
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <boost/serialization/nvp.hpp>
#include <cstddef>

namespace nao
{
struct TouchData
{
  static constexpr std::size_t count = 14;
  static constexpr std::size_t chestButton = 0;   ///< ChestBoard/Button (lola.md §5)
  static constexpr float pressedThreshold = 0.5f; ///< a value at or above this is pressed (HULKs, lola.md §2)

  /// LoLA order: 0 ChestBoard/Button, 1..3 Head/Touch/Front, Middle, Rear, 4..5 LFoot/Bumper/Left, Right,
  /// 6..8 LHand/Touch/Back, Left, Right, 9..10 RFoot/Bumper/Left, Right, 11..13 RHand/Touch/Back, Left, Right.
  std::array<float, count> values{};

  bool pressed(std::size_t index) const { return values[index] >= pressedThreshold; }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("values", values);
  }
};
} // namespace nao
