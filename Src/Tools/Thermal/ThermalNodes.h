#pragma once
// A joint's thermal nodes at one moment and the forecast from them (README.md of this folder): T(t) = T_amb +
// Σ (g_i·L + (c_i − g_i·L)·e^(−t/τ_i)) at the load L, and the time until it first reaches a threshold. The time
// constants are τ_slowest / ratio^i with an integer ratio, so that every e^(−t/τ_i) is a whole power of z =
// e^(−t/τ_slowest): no exp while solving. Pure: no framework, no allocation.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace nao
{
/// A joint's model at one moment, enough to forecast: T(t) = T_amb + Σ (g_i·L + (c_i − g_i·L)·z^(m_i)), z =
/// e^(−t/τ_slowest), m_i = ratio^i (node 0 the slowest).
struct ThermalNodes
{
  static constexpr int maxNodes = 4;
  int nodes = 0;
  double slowest = 1.0;                 ///< s, τ of node 0
  std::array<int, maxNodes> powers{};   ///< m_i = τ_slowest / τ_i
  std::array<double, maxNodes> rises{}; ///< K, c_i
  std::array<double, maxNodes> gains{}; ///< K/A², g_i
  double ambient = 0;                   ///< °C

  double temperature() const
  {
    double sum = ambient;
    for (int i = 0; i < nodes; ++i)
      sum += rises[static_cast<std::size_t>(i)];
    return sum;
  }
  double gain() const
  {
    double sum = 0;
    for (int i = 0; i < nodes; ++i)
      sum += gains[static_cast<std::size_t>(i)];
    return sum;
  }
  /// s, Σ g_i τ_i / Σ g_i: the mean time of the step response (its area above the curve over the steady rise)
  double effectiveTimeConstant() const
  {
    double weighted = 0, sum = 0;
    for (int i = 0; i < nodes; ++i)
    {
      weighted += gains[static_cast<std::size_t>(i)] * slowest / powers[static_cast<std::size_t>(i)];
      sum += gains[static_cast<std::size_t>(i)];
    }
    return sum > 0 ? weighted / sum : slowest / powers[0];
  }
  /// °C, T(∞) at the load L (A²)
  double steady(double load) const { return ambient + gain() * load; }
  /// T at z = e^(−t/τ_slowest) at the load L (A²) and, in `slope`, dT/dz.
  double at(double z, double load, double& slope) const
  {
    double value = ambient;
    slope = 0;
    double power = z; // z^(m_i): m_0 = 1, each the previous to the ratio's power
    const int ratio = nodes > 1 ? powers[1] : 1;
    for (int i = 0; i < nodes; ++i)
    {
      const auto s = static_cast<std::size_t>(i);
      if (i > 0) power = integerPower(power, ratio);
      const double target = gains[s] * load;
      value += target + (rises[s] - target) * power;
      slope += (rises[s] - target) * powers[s] * power / z;
    }
    return value;
  }
  static double integerPower(double base, int exponent)
  {
    double result = 1;
    for (; exponent > 0; exponent >>= 1, base *= base)
      if (exponent & 1) result *= base;
    return result;
  }
};

namespace detail
{
/// Every node at or below its steady rise (the usual case under a steady load)?
inline bool everyNodeRises(const ThermalNodes& nodes, double load)
{
  bool rising = nodes.nodes > 0;
  for (int i = 0; i < nodes.nodes; ++i)
    rising =
        rising && nodes.gains[static_cast<std::size_t>(i)] * load >= nodes.rises[static_cast<std::size_t>(i)];
  return rising;
}

/// timesToReach where every node rises: T rises monotonically and is concave in z, so that Newton from z = 1
/// approaches the crossing from one side without overshooting, and a threshold above the steady state is never
/// reached.
inline void timesToReachRising(const ThermalNodes& nodes, double load, const double* thresholds,
                               double* times, int count)
{
  constexpr double infinity = std::numeric_limits<double>::infinity();
  const double now = nodes.temperature(), steady = nodes.steady(load);
  for (int k = 0; k < count; ++k)
  {
    const double threshold = thresholds[k];
    if (now >= threshold)
    {
      times[k] = 0.0;
      continue;
    }
    if (steady <= threshold)
    {
      times[k] = infinity;
      continue;
    }
    double z = 1.0, slope = 0;
    for (int iteration = 0; iteration < 30; ++iteration)
    {
      const double value = nodes.at(z, load, slope) - threshold; // < 0 all along
      if (!(slope < 0)) break;
      const double next = std::max(z - value / slope, 0.0);
      const bool converged = z - next < 1e-7 * z;
      z = next;
      if (converged) break;
    }
    times[k] = z > 0 ? -nodes.slowest * std::log(z) : infinity;
  }
}

/// T at z = 1, e^(−1/τ_slowest), its square, ... until every threshold is passed or cannot be reached any more.
struct ThermalScan
{
  static constexpr int maxScan = 18;
  std::array<double, maxScan> zs{}, values{};
  int scanned = 1;
};

inline ThermalScan scanThermalNodes(const ThermalNodes& nodes, double load, const double* thresholds,
                                    int count)
{
  constexpr double infinity = std::numeric_limits<double>::infinity();
  ThermalScan scan;
  double slope = 0;
  scan.zs[0] = 1.0;
  scan.values[0] = nodes.nodes > 0 ? nodes.at(1.0, load, slope) : -infinity;
  double highest = -infinity;
  for (int k = 0; k < count; ++k)
    highest = std::max(highest, thresholds[k]);
  double peak = scan.values[0];
  // From t on, no node exceeds the larger of its steady rise and its value at t: the scan ends as soon as that
  // bound stays below every threshold not reached yet.
  const auto reachable = [&](double z)
  {
    double bound = nodes.ambient, power = z;
    const int ratio = nodes.nodes > 1 ? nodes.powers[1] : 1;
    for (int i = 0; i < nodes.nodes; ++i)
    {
      const auto s = static_cast<std::size_t>(i);
      if (i > 0) power = ThermalNodes::integerPower(power, ratio);
      const double target = nodes.gains[s] * load;
      bound += std::max(target, target + (nodes.rises[s] - target) * power);
    }
    double lowest = infinity;
    for (int k = 0; k < count; ++k)
      if (thresholds[k] > peak) lowest = std::min(lowest, thresholds[k]);
    return bound >= lowest;
  };
  if (nodes.nodes > 0 && reachable(1.0))
    for (double z = std::exp(-1.0 / nodes.slowest);
         scan.scanned < ThermalScan::maxScan && z > 1e-13 && peak < highest; z *= z)
    {
      const auto index = static_cast<std::size_t>(scan.scanned);
      scan.zs[index] = z;
      scan.values[index] = nodes.at(z, load, slope);
      peak = std::max(peak, scan.values[index]);
      ++scan.scanned;
      if (!reachable(z)) break;
    }
  return scan;
}

/// The time to `threshold` from the scan: 0 when there, +∞ when the scan never passes it, else Newton inside the
/// bracket the scan found.
inline double bracketedTimeToReach(const ThermalNodes& nodes, double load, double threshold,
                                   const ThermalScan& scan)
{
  if (scan.values[0] >= threshold) return 0.0;
  int first = 1;
  while (first < scan.scanned && scan.values[static_cast<std::size_t>(first)] < threshold)
    ++first;
  if (first == scan.scanned) return std::numeric_limits<double>::infinity();
  // f(zHigh) < threshold <= f(zLow): start where the chord crosses, Newton kept inside the bracket.
  double zHigh = scan.zs[static_cast<std::size_t>(first - 1)],
         zLow = scan.zs[static_cast<std::size_t>(first)];
  const double fHigh = scan.values[static_cast<std::size_t>(first - 1)],
               fLow = scan.values[static_cast<std::size_t>(first)];
  double z = zHigh + (threshold - fHigh) * (zLow - zHigh) / (fLow - fHigh);
  double slope = 0;
  for (int iteration = 0; iteration < 8; ++iteration)
  {
    const double value = nodes.at(z, load, slope) - threshold;
    if (value >= 0)
      zLow = z;
    else
      zHigh = z;
    double next = slope != 0 ? z - value / slope : 0.5 * (zLow + zHigh);
    if (!(next > zLow && next < zHigh)) next = 0.5 * (zLow + zHigh);
    const bool converged = std::abs(next - z) < 1e-7 * z;
    z = next;
    if (converged) break;
  }
  return -nodes.slowest * std::log(z);
}
} // namespace detail

/// Times (s) until `nodes` at the load L (A²) first reach each of `count` thresholds (°C): 0 when there already, +∞
/// when they never do. One doubling scan t = 1, 2, 4, .. s up to 30 slow time constants (z squared each time: no
/// exp) serves all thresholds: it also finds a crossing on the way of a model heading below a threshold (a fast node
/// rising while a slow one falls). Within the bracket a safeguarded Newton in z (at most 8 iterations, to 10⁻⁷ of z)
/// finds each crossing; one log per threshold gives its time.
inline void timesToReach(const ThermalNodes& nodes, double load, const double* thresholds, double* times,
                         int count)
{
  if (detail::everyNodeRises(nodes, load))
    return detail::timesToReachRising(nodes, load, thresholds, times, count);
  const detail::ThermalScan scan = detail::scanThermalNodes(nodes, load, thresholds, count);
  for (int k = 0; k < count; ++k)
    times[k] = detail::bracketedTimeToReach(nodes, load, thresholds[k], scan);
}

/// The time (s) until `nodes` at the load L (A²) first reach `threshold` (°C) (timesToReach for one threshold).
inline double timeToReach(const ThermalNodes& nodes, double load, double threshold)
{
  double time = 0;
  timesToReach(nodes, load, &threshold, &time, 1);
  return time;
}
/// The earliest times (s) to `count` thresholds (°C) that a fit allows whose steady state at the load L (A²) has the
/// standard deviation `deviation` (K): timesToReach with every gain raised so that the steady state is two deviations
/// higher (the nodes as they are where the steady state is not above the ambient).
inline void earliestTimesToReach(const ThermalNodes& nodes, double load, double deviation,
                                 const double* thresholds, double* times, int count)
{
  ThermalNodes earliest = nodes;
  const double steady = nodes.steady(load);
  if (steady > nodes.ambient)
  {
    const double raise = 1.0 + 2.0 * deviation / (steady - nodes.ambient);
    for (double& gain : earliest.gains)
      gain *= raise;
  }
  timesToReach(earliest, load, thresholds, times, count);
}
/// The rule for a "never" to the first of `count` ascending thresholds (°C): where the steady state's standard deviation
/// `deviation` (K) does not rule it out (the steady state less than two deviations below that threshold), `times` (s)
/// become the earliest the fit allows (earliestTimesToReach) and it returns true (the forecast is still learning);
/// else `times` stay and it returns false.
inline bool earliestUnlessNeverRuledOut(const ThermalNodes& nodes, double load, double deviation,
                                        const double* thresholds, double* times, int count)
{
  if (!(thresholds[0] - nodes.steady(load) < 2.0 * deviation)) return false;
  earliestTimesToReach(nodes, load, deviation, thresholds, times, count);
  return true;
}
/// Times (s) until `nodes` at the load L (A²) are first below each of `count` thresholds (°C): 0 when below already,
/// +∞ when they stay at or above. T is linear in the nodes, so −T reaching −threshold is timesToReach on the negated
/// nodes.
inline void timesToFallBelow(const ThermalNodes& nodes, double load, const double* thresholds, double* times,
                             int count)
{
  ThermalNodes mirrored = nodes;
  mirrored.ambient = -nodes.ambient;
  for (std::size_t i = 0; i < static_cast<std::size_t>(ThermalNodes::maxNodes); ++i)
  {
    mirrored.rises[i] = -nodes.rises[i];
    mirrored.gains[i] = -nodes.gains[i];
  }
  constexpr int maxCount = 8;
  std::array<double, maxCount> negated{};
  count = std::min(count, maxCount);
  for (int k = 0; k < count; ++k)
    negated[static_cast<std::size_t>(k)] =
        -std::nextafter(thresholds[k], -std::numeric_limits<double>::infinity());
  timesToReach(mirrored, load, negated.data(), times, count);
}
} // namespace nao
