#pragma once
// The present load of one joint (JointThermalStateProvider's README, "The present load"): the mean I² since the load
// last changed, over a short window at least and a long one at most, in blocks of one filter step each. A short-window
// mean that differs from the load's by more than a ratio (both lifted by a floor) is a new load, unless it lies within
// that ratio of the short means seen over the last one to two long windows (LoadRange.h: a loop's phase seen before):
// the window starts again from the short one. A load that moves steadily (the last `trendMeans` whole short windows'
// means monotone, the newest off the oldest by more than a ratio: a sagging or warming joint, which no loop of phases
// shorter than two short windows shows) keeps only its newest two short windows, so that the present load lags it by
// one short window rather than half the long one. Two running sums over one ring; fixed size, no allocation. Pure: no
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
  /// Whole short windows in a row whose means move one way before the load counts as moving: a loop whose phases are
  /// shorter than two short windows never shows four (JointThermalLoadTests).
  static constexpr int trendMeans = 4;

  struct Settings
  {
    int shortBlocks = 33;      ///< at least this many blocks (1 .. longBlocks)
    int longBlocks = 200;      ///< at most this many (.. maxBlocks)
    double changeRatio = 2;    ///< short and load mean this many times apart: a new load
    double changeFloor = 0.01; ///< A², added to both before they are compared
    double trendRatio =
        1.1; ///< the newest of trendMeans monotone means this many times off the oldest: moving
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
    const bool wholeClosed = closeWholeMean(value, settings);

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
    if (wholeClosed && moving(settings)) mean = keepNewest(settings.shortBlocks);
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

  /// Adds the block to the short window being filled; true where that closed it (its mean is the newest whole one).
  bool closeWholeMean(float value, const Settings& settings)
  {
    wholeSum_ += value;
    if (++wholeCount_ < settings.shortBlocks) return false;
    wholeMeans_[static_cast<std::size_t>(nextWhole_)] = wholeSum_ / wholeCount_;
    nextWhole_ = nextWhole_ + 1 == trendMeans ? 0 : nextWhole_ + 1;
    wholeSum_ = 0;
    wholeCount_ = 0;
    return true;
  }
  /// Whether the last trendMeans whole means lie in the load's window, move one way, and by more than trendRatio.
  bool moving(const Settings& settings) const
  {
    if (count_ < trendMeans * settings.shortBlocks) return false;
    int rising = 0, falling = 0;
    for (int i = 0; i + 1 < trendMeans; ++i) // oldest to newest
    {
      const double older = wholeMean(i), newer = wholeMean(i + 1);
      rising += newer > older ? 1 : 0;
      falling += newer < older ? 1 : 0;
    }
    const double oldest = wholeMean(0) + settings.changeFloor;
    const double newest = wholeMean(trendMeans - 1) + settings.changeFloor;
    return (rising == trendMeans - 1 && newest > settings.trendRatio * oldest) ||
           (falling == trendMeans - 1 && oldest > settings.trendRatio * newest);
  }
  /// The i-th of the last trendMeans whole means, oldest first.
  double wholeMean(int i) const
  {
    return wholeMeans_[static_cast<std::size_t>((nextWhole_ + i) % trendMeans)];
  }
  /// The window starts again from the newest two whole short windows (which end at this block); their mean.
  double keepNewest(int shortBlocks)
  {
    count_ = sinceChange_ = 2 * shortBlocks;
    sum_ = (wholeMean(trendMeans - 1) + wholeMean(trendMeans - 2)) * shortBlocks;
    return sum_ / count_;
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
  LoadRange range_;                             ///< the means of the full short windows
  std::array<double, trendMeans> wholeMeans_{}; ///< A², the last whole short windows' means (a ring)
  int nextWhole_ = 0;                           ///< where the next whole mean goes (the oldest)
  double wholeSum_ = 0;                         ///< A², of the short window being filled
  int wholeCount_ = 0;                          ///< its blocks
};
} // namespace nao
