#pragma once
// One joint's thermal model and its linear Kalman filter (README.md of this folder; the rules:
// JointThermalStateProvider's README): the reported temperature is T = T_amb + Σ c_i, a sum of nodes with fixed,
// log-spaced time constants τ_i (a fixed-pole basis: a winding's seconds to a housing's tens of minutes), each driven
// by the measured I²:
//   c_i' = c_i·e^(−Δt/τ_i) + g_i·I²·(1 − e^(−Δt/τ_i)).
// State x = [c_1..c_n, g_1..g_n, T_amb]: linear in the state given I², so nothing is linearised. The time constants
// are τ_slowest / ratio^i with an integer ratio, so that every e^(−t/τ_i) is a whole power of z = e^(−t/τ_slowest):
// one exp per step, none while solving for the time to a threshold. Pure: no framework, no allocation; double
// precision (the covariance spans 10⁻⁶..10³).
#include "Tools/Thermal/ThermalNodes.h"
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace nao
{
/// Where the filter starts and what it believes before any data (JointThermalStateProvider's README, "Priors and
/// noise").
struct ThermalPrior
{
  /// K/A², Σ g_i: steady-state rise above ambient per squared ampere, split n : n−1 : .. : 1 from the slowest node
  double rise = 25.0;
  double riseStdDev =
      50.0; ///< K/A², one standard deviation of the slowest node's g_i (of node i: × (n − i)/n)
  double startRiseStdDev =
      10.0;                   ///< K, one standard deviation of the start's rise above ambient (a warm robot)
  double ambient = 25.0;      ///< °C, T_amb
  double ambientStdDev = 8.0; ///< K
  /// K/A², each node's g_i to start from (node 0 the slowest): a fit kept from an earlier run. All 0: the split of
  /// `rise` above. Else each at its value with the standard deviation taughtRiseStdDev · max(g_i, Σ g / n): a node
  /// the last fit held at 0 may not be 0 (neighbouring nodes trade their weights), so it keeps a share of the sum.
  std::array<double, ThermalNodes::maxNodes> gains{};
  double taughtRiseStdDev = 0.3; ///< a share of the taught gain
  /// `ambient` is this robot's, kept from an earlier run: T_amb starts there, not at the reading clamped to it (a
  /// reading above a known room is more likely a warm robot than a warmer room; the reading corrects both).
  bool ambientTaught = false;
};

/// The nodes' time constants and how much the model and the reading are trusted.
struct ThermalNoise
{
  int nodes = 4;                     ///< 1..maxNodes
  double fastestTimeConstant = 10.0; ///< s, τ of the fastest node
  int ratio = 6;                     ///< τ_i / τ_(i+1), a whole number ≥ 2
  /// K², the reading: uniform 1 K steps (1/12) + sensor noise (0.4 K)²
  double measurementVariance = 1.0 / 12.0 + 0.16;
  double temperatureDrift = 3e-4; ///< K²/s, process noise of the node sum (what the fixed poles miss)
  double riseDrift = 6.25e-4;     ///< K²/A⁴/s, random walk of each g_i (wear, friction)
  double ambientDrift = 1e-4;     ///< K²/s, random walk of T_amb (the room, the robot's inside)
  double gate = 5.0;      ///< a reading further than gate standard deviations of the innovation is rejected
  int maxRejections = 10; ///< consecutive rejected readings after which the filter re-anchors on them
  double maxRise = 500.0; ///< K/A², bound of each g_i (the lower bound is 0)
  double minAmbient = -10.0, maxAmbient = 60.0; ///< °C, bounds of T_amb
};

class ThermalFilter
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
  /// the same proportion, or at the prior's taught `gains` where it has any, T_amb at the reading clamped to the
  /// prior's one sigma (a robot is mostly switched on cold), or at a taught ambient; then the reading corrects that.
  void initialise(double measured, const ThermalPrior& prior, const ThermalNoise& noise)
  {
    configure(noise);
    x_ = {};
    P_ = {};
    const double nodeVariance = prior.startRiseStdDev * prior.startRiseStdDev / n_;
    double taught = 0; // Σ g_i taught, over the nodes in use
    for (int i = 0; i < n_; ++i)
      taught += std::max(0.0, prior.gains[static_cast<std::size_t>(i)]); // NaN: 0
    for (int i = 0; i < n_; ++i)
    {
      const auto c = static_cast<std::size_t>(i), g = gainIndex + c;
      P_[c][c] = nodeVariance;
      if (taught > 0)
      {
        x_[g] = std::min(std::max(0.0, prior.gains[c]), noise.maxRise);
        const double deviation = prior.taughtRiseStdDev * std::max(x_[g], taught / n_);
        P_[g][g] = deviation * deviation;
        continue;
      }
      const double share = 2.0 * (n_ - i) / (n_ * (n_ + 1));
      x_[g] = prior.rise * share;
      const double deviation = prior.riseStdDev * (n_ - i) / n_; // the fast nodes hold the smaller rises
      P_[g][g] = deviation * deviation;
    }
    x_[ambientIndex] = prior.ambientTaught ? prior.ambient
                                           : std::clamp(measured, prior.ambient - prior.ambientStdDev,
                                                        prior.ambient + prior.ambientStdDev);
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
    // Rows c_i of F·P (the rows g_i are not changed, so in place), then columns c_j of (F·P)·Fᵀ: in the rows c_i at
    // once, before they are stored, in the others after. (The rows run over the 8 places of c and g, then T_amb: the
    // compiler pairs 8, not 9. The columns are computed, not mirrored from the rows: P is symmetric only up to
    // rounding, and the forecast's solver can tell.)
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      Vector row;
      for (std::size_t k = 0; k < ambientIndex; ++k)
        row[k] = decays_[i] * P_[i][k] + b[i] * P_[gainIndex + i][k];
      row[ambientIndex] = decays_[i] * P_[i][ambientIndex] + b[i] * P_[gainIndex + i][ambientIndex];
      for (std::size_t j = 0; j < maxNodes; ++j)
        row[j] = decays_[j] * row[j] + b[j] * row[gainIndex + j];
      P_[i] = row;
    }
    for (std::size_t k = gainIndex; k < maxState; ++k)
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
    // u = P h serves the gate and the update (s = hᵀu + R is the innovation's variance).
    const double innovation = measured - temperature();
    const Vector u = covarianceTimesH();
    const double s = u[0] + u[1] + u[2] + u[3] + u[ambientIndex] + noise.measurementVariance;
    if (innovation * innovation > noise.gate * noise.gate * s)
    {
      if (++rejections_ <= noise.maxRejections) return false;
      // The readings have disagreed for a while: believe them, the fastest node's uncertainty widened.
      const auto fastest = static_cast<std::size_t>(n_ - 1);
      P_[fastest][fastest] += innovation * innovation;
      rejections_ = 0;
      update(measured, noise);
      return true;
    }
    rejections_ = 0;
    update(noise, u, s, innovation);
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
    // Row sums side by side, then their sum: no chain of 25 dependent additions.
    std::array<double, maxNodes + 1> rows{};
    for (std::size_t k = 0; k < rows.size(); ++k)
    {
      const Vector& row = P_[measuredPlaces[k]];
      rows[k] = row[0] + row[1] + row[2] + row[3] + row[ambientIndex];
    }
    return rows[0] + rows[1] + rows[2] + rows[3] + rows[4];
  }
  double ambient() const { return x_[ambientIndex]; } ///< °C
  /// The same nodes' time constants as `other`'s: a state of one means the same in the other.
  bool sameBasis(const ThermalFilter& other) const
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
  /// `time` +∞ (or beyond 700 slow time constants, where z underflows): the steady state, no exp.
  double forecastVariance(double time, double load) const
  {
    const double ratio = time / slowest_;
    return forecastVarianceAt(ratio < 700.0 ? std::exp(-ratio) : 0.0, load);
  }
  /// forecastVariance at z = e^(−time/τ_slowest) (0: the steady state), where the caller has z already.
  double forecastVarianceAt(double z, double load) const
  {
    Vector h{};
    double power = z; // z^(m_i): m_0 = 1, each the previous to the ratio's power (as ThermalNodes::at)
    const int ratio = n_ > 1 ? powers_[1] : 1;
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      if (i > 0) power = ThermalNodes::integerPower(power, ratio);
      const double decay = used_[i] * power;
      h[i] = decay;
      h[gainIndex + i] = load * (used_[i] - decay);
    }
    h[ambientIndex] = 1.0;
    // P h as a sum of P's rows (P is symmetric), one vector loop per row, then hᵀ(P h).
    Vector ph{};
    for (std::size_t r = 0; r < maxState; ++r)
    {
      for (std::size_t c = 0; c < ambientIndex; ++c)
        ph[c] += h[r] * P_[r][c];
      ph[ambientIndex] += h[r] * P_[r][ambientIndex];
    }
    std::array<double, 2> sums{};
    for (std::size_t c = 0; c < ambientIndex; c += 2)
    {
      sums[0] += h[c] * ph[c];
      sums[1] += h[c + 1] * ph[c + 1];
    }
    return std::max(sums[0] + sums[1] + h[ambientIndex] * ph[ambientIndex], 0.0);
  }
  const Vector& state() const { return x_; }
  const Matrix& covariance() const { return P_; }

private:
  /// The places where h = 1: the nodes and T_amb (a node not used adds 0).
  static_assert(maxNodes == 4, "measuredPlaces and update() name the nodes one by one");
  static constexpr std::array<std::size_t, maxNodes + 1> measuredPlaces = {0, 1, 2, 3, ambientIndex};

  Vector covarianceTimesH() const ///< P h
  {
    Vector u{};
    for (std::size_t r = 0; r < maxState; ++r)
      u[r] = P_[r][0] + P_[r][1] + P_[r][2] + P_[r][3] + P_[r][ambientIndex];
    return u;
  }
  /// The Kalman update with y = hᵀx + v: u = P h, s = hᵀu + R, x += u·ν/s, P −= u uᵀ/s; then c_i ≥ 0, g_i ≥ 0
  /// and T_amb within its bounds (projection onto the physical set).
  void update(double measured, const ThermalNoise& noise)
  {
    const Vector u = covarianceTimesH();
    update(noise, u, u[0] + u[1] + u[2] + u[3] + u[ambientIndex] + noise.measurementVariance,
           measured - temperature());
  }
  /// u = P h and s = hᵀu + R of the present P, `innovation` the reading less temperature(). (The loops run over the
  /// 8 places of c and g, then T_amb, so that the compiler pairs them: 9 it does not.)
  void update(const ThermalNoise& noise, const Vector u, double s, double innovation)
  {
    const double inverse = 1.0 / s;
    std::array<double, maxState> gains{};
    for (std::size_t r = 0; r < maxState; ++r)
      gains[r] = u[r] * inverse;
    for (std::size_t r = 0; r < ambientIndex; ++r)
      x_[r] += gains[r] * innovation;
    x_[ambientIndex] += gains[ambientIndex] * innovation;
    for (std::size_t r = 0; r < maxState; ++r)
    {
      Vector& row = P_[r];
      for (std::size_t c = 0; c < ambientIndex; ++c)
        row[c] -= gains[r] * u[c];
      row[ambientIndex] -= gains[r] * u[ambientIndex];
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
    {
      for (std::size_t r = 0; r < ambientIndex; ++r)
        x_[r] -= P_[r][k] / variance * excess;
      x_[ambientIndex] -= P_[ambientIndex][k] / variance * excess;
    }
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
} // namespace nao
