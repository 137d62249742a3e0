#pragma once
// The range of a joint's load over the last one to two cycle windows, as means of whole short windows (LoadWindow.h):
// a short-window mean inside it, widened by the change ratio, is a phase of a motion seen before (a loop whose phases
// outlast the short window), not a new load. A mean counts once the short window holds none of its blocks, so that
// a change does not hide behind the means it passes on its way. Two buckets of a cycle window each keep their lowest
// and highest mean; the older is dropped when the newer fills. Fixed size, no allocation. Pure: no framework.
#include <algorithm>
#include <limits>

namespace nao
{
class LoadRange
{
public:
  /// The full short window's mean (A²) after each block: every `shortBlocks`-th is a whole short window's, which
  /// counts one such window later; `longBlocks` blocks fill a bucket.
  void add(double shortMean, int shortBlocks, int longBlocks)
  {
    if (skip_-- > 0) return;
    skip_ = shortBlocks - 1;
    if (pending_ >= 0) hold(pending_, std::max(1, longBlocks / shortBlocks));
    pending_ = std::max(shortMean, 0.0);
  }

  /// Whether `mean` (A²) lies more than `ratio` outside every mean held (each plus `floor`, A²); true while none is
  /// held.
  bool leaves(double mean, double ratio, double floor) const
  {
    const double low = std::min(newer_.low, older_.low), high = std::max(newer_.high, older_.high);
    if (low > high) return true;
    return mean + floor > ratio * (high + floor) || low + floor > ratio * (mean + floor);
  }

private:
  struct Bucket
  {
    double low = std::numeric_limits<double>::infinity();   ///< A²
    double high = -std::numeric_limits<double>::infinity(); ///< A²
  };

  void hold(double mean, int bucketMeans)
  {
    if (filled_ >= bucketMeans)
    {
      older_ = newer_;
      newer_ = Bucket{};
      filled_ = 0;
    }
    ++filled_;
    newer_.low = std::min(newer_.low, mean);
    newer_.high = std::max(newer_.high, mean);
  }

  Bucket newer_, older_;
  int filled_ = 0;      ///< means in the newer bucket
  int skip_ = 0;        ///< calls until the next whole short window's mean
  double pending_ = -1; ///< A², the last whole short window's mean, held one short window later (−1: none)
};
} // namespace nao
