#pragma once
// How many frames in a row a reading repeated the previous frame's exactly: a noisy sensor never does for long, a
// stuck or dead one always does.
#include <array>
#include <cstddef>

namespace nao
{
template<std::size_t N>
class RepeatCounter
{
public:
  /// Counts `reading` against the last one; returns the repeats in a row (0: it changed).
  int update(const std::array<float, N>& reading)
  {
    repeats_ = seen_ && reading == last_ ? repeats_ + 1 : 0;
    recent_ = (recent_ << 1) | (repeats_ > 0 ? 1u : 0u);
    last_ = reading;
    seen_ = true;
    return repeats_;
  }
  int repeats() const { return repeats_; }
  /// Of the last `frames` (≤ 32) frames, how many repeated their previous one.
  int recentRepeats(int frames) const
  {
    const unsigned mask = frames >= 32 ? ~0u : (1u << frames) - 1u;
    return __builtin_popcount(recent_ & mask);
  }

private:
  std::array<float, N> last_{};
  bool seen_ = false;
  int repeats_ = 0;
  unsigned recent_ = 0; ///< bit i: the frame i frames ago repeated its previous one
};
} // namespace nao
