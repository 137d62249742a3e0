#pragma once
// The thermal filter and load window as they were before the per-frame cost was cut (issue 47 item 4), kept verbatim
// (renamed into nao::reference) as the reference JointThermalForecastStalenessTests runs the
// old order of computation on: the filter's loops over all 9 places, the covariance's full quadratic forms, the
// window's modulo (its rule of a new load follows the module's: a loop's phases seen before are no new load, with the
// module's LoadRange). Test code only.
#include "Tools/Thermal/LoadRange.h"
#include "Tools/Thermal/ThermalFilter.h" // ThermalPrior, ThermalNoise, ThermalNodes
#include <algorithm>
#include <array>
#include <cmath>

namespace nao::reference
{
class OldThermalFilter
{
public:
  static constexpr int maxNodes = ThermalNodes::maxNodes;
  static constexpr int maxState = 2 * maxNodes + 1;
  using Vector = std::array<double, maxState>;
  using Matrix = std::array<Vector, maxState>;
  /// Fixed places in the state, whatever the number of nodes: c_i at i, g_i at maxNodes + i, T_amb last. A node
  /// not used has its state and covariance 0 and stays so, so that every loop has a size known at compile time.
  static constexpr std::size_t gainIndex = maxNodes, ambientIndex = 2 * maxNodes;

  bool initialised() const { return initialised_; }

  /// The nodes' time constants: fastestTimeConstant · ratio^i, node 0 the slowest.
  void configure(const ThermalNoise& noise)
  {
    n_ = std::clamp(noise.nodes, 1, maxNodes);
    const int ratio = std::max(noise.ratio, 2);
    int power = 1;
    powers_.fill(1);
    for (int i = 0; i < n_; ++i, power *= ratio)
      powers_[static_cast<std::size_t>(i)] = power;
    slowest_ = noise.fastestTimeConstant * powers_[static_cast<std::size_t>(n_ - 1)];
    for (std::size_t i = 0; i < maxNodes; ++i)
      used_[i] = static_cast<int>(i) < n_ ? 1.0 : 0.0;
    cachedDt_ = -1;
  }

  /// Starts at the reading `measured` (°C): every node's rise 0 ± startRiseStdDev/√n (a warm robot's nodes above
  /// its ambient), the gains at the prior's shares n : n−1 : .. : 1 (the slowest most) with standard deviations in
  /// the same proportion, T_amb at the reading clamped to the prior's one sigma (a robot is mostly switched on cold);
  /// then the reading corrects that.
  void initialise(double measured, const ThermalPrior& prior, const ThermalNoise& noise)
  {
    configure(noise);
    x_ = {};
    P_ = {};
    const double nodeVariance = prior.startRiseStdDev * prior.startRiseStdDev / n_;
    for (int i = 0; i < n_; ++i)
    {
      const auto c = static_cast<std::size_t>(i), g = gainIndex + c;
      const double share = 2.0 * (n_ - i) / (n_ * (n_ + 1));
      x_[g] = prior.rise * share;
      P_[c][c] = nodeVariance;
      const double deviation = prior.riseStdDev * (n_ - i) / n_; // the fast nodes hold the smaller rises
      P_[g][g] = deviation * deviation;
    }
    x_[ambientIndex] =
        std::clamp(measured, prior.ambient - prior.ambientStdDev, prior.ambient + prior.ambientStdDev);
    P_[ambientIndex][ambientIndex] = prior.ambientStdDev * prior.ambientStdDev;
    rejections_ = 0;
    initialised_ = true;
    update(measured, noise);
  }

  /// The model over `dt` (s) at the mean squared current `meanSquaredCurrent` (A²) of that time: P' = F P Fᵀ + Q,
  /// F the identity but for c_i' = a_i c_i + b_i g_i, so O(n²).
  void predict(double dt, double meanSquaredCurrent, const ThermalNoise& noise)
  {
    if (std::abs(dt - cachedDt_) > 1e-6 * dt) // steps of a joint are 0.3 s apart up to the clock's rounding
    {
      const double z = std::exp(-dt / slowest_);
      for (std::size_t i = 0; i < maxNodes; ++i)
        decays_[i] = used_[i] * ThermalNodes::integerPower(z, powers_[i]);
      cachedDt_ = dt;
    }
    std::array<double, maxNodes> b{};
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      b[i] = (used_[i] - decays_[i]) * meanSquaredCurrent;
      x_[i] = decays_[i] * x_[i] + b[i] * x_[gainIndex + i];
    }
    // Rows c_i of F·P (the rows g_i are not changed, so in place), then columns c_j of (F·P)·Fᵀ.
    for (std::size_t i = 0; i < maxNodes; ++i)
      for (std::size_t k = 0; k < maxState; ++k)
        P_[i][k] = decays_[i] * P_[i][k] + b[i] * P_[gainIndex + i][k];
    for (std::size_t k = 0; k < maxState; ++k)
      for (std::size_t j = 0; j < maxNodes; ++j)
        P_[k][j] = decays_[j] * P_[k][j] + b[j] * P_[k][gainIndex + j];
    const double nodeDrift = noise.temperatureDrift * dt / n_, gainDrift = noise.riseDrift * dt;
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      P_[i][i] += used_[i] * nodeDrift;
      P_[gainIndex + i][gainIndex + i] += used_[i] * gainDrift;
    }
    P_[ambientIndex][ambientIndex] += noise.ambientDrift * dt;
  }

  /// The reading `measured` (°C). Returns false when it was rejected by the gate.
  bool correct(double measured, const ThermalNoise& noise)
  {
    const double innovation = measured - temperature();
    const double s = temperatureVariance() + noise.measurementVariance;
    if (innovation * innovation > noise.gate * noise.gate * s)
    {
      if (++rejections_ <= noise.maxRejections) return false;
      // The readings have disagreed for a while: believe them, the fastest node's uncertainty widened.
      const auto fastest = static_cast<std::size_t>(n_ - 1);
      P_[fastest][fastest] += innovation * innovation;
    }
    rejections_ = 0;
    update(measured, noise);
    return true;
  }

  double temperature() const ///< °C, T_amb + Σ c_i
  {
    double sum = x_[ambientIndex];
    for (std::size_t i = 0; i < maxNodes; ++i)
      sum += x_[i];
    return sum;
  }
  double temperatureVariance() const ///< K², of T = hᵀx with h = [1..1, 0..0, 1]
  {
    double sum = 0;
    for (std::size_t r : measuredPlaces)
      for (std::size_t c : measuredPlaces)
        sum += P_[r][c];
    return sum;
  }
  double ambient() const { return x_[ambientIndex]; } ///< °C
  /// The same nodes' time constants as `other`'s: a state of one means the same in the other.
  bool sameBasis(const OldThermalFilter& other) const
  {
    return n_ == other.n_ && powers_ == other.powers_ && slowest_ == other.slowest_;
  }
  /// The model now, for a forecast.
  ThermalNodes model() const
  {
    ThermalNodes model;
    model.nodes = n_;
    model.slowest = slowest_;
    model.powers = powers_;
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      model.rises[i] = x_[i];
      model.gains[i] = x_[gainIndex + i];
    }
    model.ambient = ambient();
    return model;
  }
  /// K², the variance of the temperature predicted `time` s ahead at the load L (A²): hᵀPh with h = [z^m_i ..,
  /// L·(1 − z^m_i) .., 1].
  double forecastVariance(double time, double load) const
  {
    Vector h{};
    const double z = std::exp(-time / slowest_);
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      const double decay = used_[i] * ThermalNodes::integerPower(z, powers_[i]);
      h[i] = decay;
      h[gainIndex + i] = load * (used_[i] - decay);
    }
    h[ambientIndex] = 1.0;
    double sum = 0;
    for (std::size_t r = 0; r < maxState; ++r)
    {
      double row = 0;
      for (std::size_t c = 0; c < maxState; ++c)
        row += P_[r][c] * h[c];
      sum += h[r] * row;
    }
    return std::max(sum, 0.0);
  }
  const Vector& state() const { return x_; }
  const Matrix& covariance() const { return P_; }

private:
  /// The places where h = 1: the nodes and T_amb (a node not used adds 0).
  static_assert(maxNodes == 4, "measuredPlaces and update() name the nodes one by one");
  static constexpr std::array<std::size_t, maxNodes + 1> measuredPlaces = {0, 1, 2, 3, ambientIndex};

  /// The Kalman update with y = hᵀx + v: u = P h, s = hᵀu + R, x += u·ν/s, P −= u uᵀ/s; then c_i ≥ 0, g_i ≥ 0
  /// and T_amb within its bounds (projection onto the physical set).
  void update(double measured, const ThermalNoise& noise)
  {
    Vector u{};
    for (std::size_t r = 0; r < maxState; ++r)
      u[r] = P_[r][0] + P_[r][1] + P_[r][2] + P_[r][3] + P_[r][ambientIndex];
    const double s = u[0] + u[1] + u[2] + u[3] + u[ambientIndex] + noise.measurementVariance;
    const double innovation = measured - temperature();
    const double inverse = 1.0 / s;
    for (std::size_t r = 0; r < maxState; ++r)
    {
      const double gain = u[r] * inverse;
      x_[r] += gain * innovation;
      for (std::size_t c = 0; c < maxState; ++c)
        P_[r][c] -= gain * u[c];
    }
    for (int i = 0; i < n_; ++i)
    {
      const auto c = static_cast<std::size_t>(i), g = gainIndex + c;
      if (x_[c] < 0) constrain(c, 0.0); // a node is never below the ambient: its heat only flows in from I²
      if (x_[g] < 0)
        constrain(g, 0.0);
      else if (x_[g] > noise.maxRise)
        constrain(g, noise.maxRise);
    }
    if (x_[ambientIndex] < noise.minAmbient)
      constrain(ambientIndex, noise.minAmbient);
    else if (x_[ambientIndex] > noise.maxAmbient)
      constrain(ambientIndex, noise.maxAmbient);
  }

  /// Projects the estimate onto x_k = `bound` in the covariance's metric (Simon & Chia's estimate projection:
  /// x −= P e (x_k − bound)/P_kk), so that the states correlated with x_k follow and the temperature stays where
  /// the readings put it. P is kept: the bound is an inequality, and a gain held at it early (the first seconds
  /// of a load show only the fast nodes) must stay free to leave it when the slow response shows.
  void constrain(std::size_t k, double bound)
  {
    const double variance = P_[k][k];
    const double excess = x_[k] - bound;
    if (variance > 1e-12)
      for (std::size_t r = 0; r < maxState; ++r)
        x_[r] -= P_[r][k] / variance * excess;
    x_[k] = bound;
  }

  Vector x_{};
  Matrix P_{};
  int n_ = 1;
  std::array<int, maxNodes> powers_{1, 1, 1, 1};
  std::array<double, maxNodes> used_{}; ///< 1 for a node in use, 0 else
  double slowest_ = 10.0;
  double cachedDt_ = -1;
  std::array<double, maxNodes> decays_{};
  int rejections_ = 0;
  bool initialised_ = false;
};

class OldLoadWindow
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
  void clear() { *this = OldLoadWindow{}; }
  /// One block's mean I² (A²), newest.
  void add(double squaredCurrent, const Settings& settings)
  {
    const float value = static_cast<float>(squaredCurrent);
    ring_[static_cast<std::size_t>(next_)] = value;
    next_ = (next_ + 1) % ring;
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

    if (shortCount_ < settings.shortBlocks) return;
    const double recentMean = shortSum_ / shortCount_;
    if (count_ > shortCount_)
    {
      const double recent = recentMean + settings.changeFloor;
      const double held = sum_ / count_ + settings.changeFloor;
      if ((recent > settings.changeRatio * held || held > settings.changeRatio * recent) &&
          range_.leaves(recentMean, settings.changeRatio, settings.changeFloor))
      {
        count_ = shortCount_;
        sum_ = shortSum_;
        sinceChange_ = 0;
        ++changes_;
      }
    }
    range_.add(recentMean, settings.shortBlocks, settings.longBlocks); // a loop's phases seen before
  }

  /// How often the load changed (the window started again): the ripple rule restarts there.
  unsigned changes() const { return changes_; }

  /// A², the present load (0 before the first block).
  double load() const { return count_ > 0 ? std::max(sum_ / count_, 0.0) : 0.0; }
  /// Blocks the present load is the mean of.
  int blocks() const { return count_; }

private:
  static constexpr int ring = maxBlocks + 1; ///< one more: the block leaving a full window is still there

  /// The block `steps` before the newest (0: the newest).
  double back(int steps) const
  {
    return ring_[static_cast<std::size_t>((next_ - 1 - steps + 2 * ring) % ring)];
  }

  std::array<float, ring> ring_{};
  int next_ = 0;        ///< where the next block goes
  int held_ = 0;        ///< blocks in the ring
  int shortCount_ = 0;  ///< blocks in the short window
  int count_ = 0;       ///< blocks in the load's window
  int sinceChange_ = 0; ///< blocks since the load last changed (or since the start)
  double shortSum_ = 0; ///< A²
  double sum_ = 0;      ///< A²
  unsigned changes_ = 0;
  LoadRange range_;
};
} // namespace nao::reference
