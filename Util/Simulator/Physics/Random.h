#pragma once
// A seeded random number generator for the simulated robot: the same seed gives the same robot and the same
// noise on every machine. xoshiro256** (Blackman and Vigna, public domain algorithm) seeded through
// splitmix64; normal variates by the Marsaglia polar method. Hand-written rather than std::mt19937 with
// std::normal_distribution because the standard leaves the distributions' algorithms to the library, so the
// same seed could give another robot with another standard library.
#include <cmath>
#include <cstdint>

namespace nao::sim
{
class Random
{
public:
  explicit Random(std::uint64_t seed = 1)
  {
    std::uint64_t mix = seed;
    for (std::uint64_t& word : state_)
      word = splitMix(mix);
  }

  /// A generator for an independent purpose (e.g. "noise" versus "parameters") from the same seed, so that
  /// drawing one more value for one purpose does not change the other's sequence.
  static Random stream(std::uint64_t seed, std::uint64_t purpose)
  {
    std::uint64_t mix = seed ^ (purpose * 0xD1B54A32D192ED03ull);
    return Random(splitMix(mix));
  }

  std::uint64_t next()
  {
    const std::uint64_t result = rotate(state_[1] * 5, 7) * 9;
    const std::uint64_t shifted = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= shifted;
    state_[3] = rotate(state_[3], 45);
    return result;
  }

  /// Uniform in [0, 1), 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in [low, high).
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  /// Standard normal (mean 0, standard deviation 1).
  double normal()
  {
    if (haveSpare_)
    {
      haveSpare_ = false;
      return spare_;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do
    {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double scale = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * scale;
    haveSpare_ = true;
    return u * scale;
  }
  double normal(double mean, double deviation) { return mean + deviation * normal(); }

private:
  static std::uint64_t rotate(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitMix(std::uint64_t& x)
  {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  std::uint64_t state_[4]{};
  double spare_ = 0.0;
  bool haveSpare_ = false;
};
} // namespace nao::sim
