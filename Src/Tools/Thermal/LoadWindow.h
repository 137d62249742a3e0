#pragma once
// The present load of one joint (JointThermalStateProvider's README, "The present load"): the mean I² since the load
// last changed, over a short window at least and a long one at most, in blocks of one filter step each. A short-window
// mean that differs from the load's by more than a ratio (both lifted by a floor) is a new load, unless it lies within
// that ratio of the short means seen over the last one to two long windows (LoadRange.h: a loop's phase seen before):
// the window starts again from the short one. Two running sums over one ring; fixed size, no allocation. Pure: no
// framework.
#include "Tools/Thermal/LoadRange.h"
#include <algorithm>
#include <array>

namespace nao
{
class LoadWindow
{
public:
  static constexpr int maxBlocks = 200; ///< the longest window

  struct Settings
  {
    int shortBlocks = 33;      ///< at least this many blocks (1 .. longBlocks)
    int longBlocks = 200;      ///< at most this many (.. maxBlocks)
    double changeRatio = 2;    ///< short and load mean this many times apart: a new load
    double changeFloor = 0.01; ///< A², added to both before they are compared
  };

  /// Forgets every block.
  void clear() { *this = LoadWindow{}; }
  /// One block's mean I² (A²), newest.
  void add(double squaredCurrent, const Settings& settings)
  {
    const float value = static_cast<float>(squaredCurrent);
    ring_[static_cast<std::size_t>(next_)] = value;
    next_ = next_ + 1 == ring ? 0 : next_ + 1; // no division: a wrap, bitwise the same as % ring
    held_ = std::min(held_ + 1, ring);

    shortSum_ += value;
    if (shortCount_ == settings.shortBlocks)
      shortSum_ -= back(settings.shortBlocks); // the block that left the short window
    else
      ++shortCount_;
    // Every block since the load changed, at least the short window, at most the long one. It grows by one block at
    // a time, so a block either extends it or also drops its oldest.
    sinceChange_ = std::min(sinceChange_ + 1, settings.longBlocks);
    const int window = std::min(std::max(settings.shortBlocks, sinceChange_), held_);
    sum_ += value;
    if (window == count_)
      sum_ -= back(window);
    else
      count_ = window;

    double mean = sum_ / count_; // count_ ≥ 1 here
    if (shortCount_ < settings.shortBlocks)
    {
      load_ = std::max(mean, 0.0);
      return;
    }
    const double recentMean = shortSum_ / shortCount_;
    if (count_ > shortCount_)
    {
      const double recent = recentMean + settings.changeFloor;
      const double held = mean + settings.changeFloor;
      if ((recent > settings.changeRatio * held || held > settings.changeRatio * recent) &&
          range_.leaves(recentMean, settings.changeRatio, settings.changeFloor))
      {
        count_ = shortCount_;
        sum_ = shortSum_;
        sinceChange_ = 0;
        ++changes_;
        mean = recentMean;
      }
    }
    range_.add(recentMean, settings.shortBlocks, settings.longBlocks);
    load_ = std::max(mean, 0.0);
  }

  /// A², the present load (0 before the first block); kept by add(), so that reading it divides nothing.
  double load() const { return load_; }
  /// Blocks the present load is the mean of.
  int blocks() const { return count_; }
  /// How often the load changed (the window started again) since the start or clear().
  unsigned changes() const { return changes_; }

private:
  static constexpr int ring = maxBlocks + 1; ///< one more: the block leaving a full window is still there

  /// The block `steps` before the newest (0: the newest).
  double back(int steps) const
  {
    const int index = next_ - 1 - steps; // steps ≤ maxBlocks: index ≥ −ring, one wrap (no division)
    return ring_[static_cast<std::size_t>(index < 0 ? index + ring : index)];
  }

  std::array<float, ring> ring_{};
  int next_ = 0;        ///< where the next block goes
  int held_ = 0;        ///< blocks in the ring
  int shortCount_ = 0;  ///< blocks in the short window
  int count_ = 0;       ///< blocks in the load's window
  int sinceChange_ = 0; ///< blocks since the load last changed (or since the start)
  double shortSum_ = 0; ///< A²
  double sum_ = 0;      ///< A²
  double load_ = 0;     ///< A², sum_ / count_ (not below 0)
  unsigned changes_ = 0;
  LoadRange range_; ///< the means of the full short windows
};
} // namespace nao
