#pragma once
// One joint's thermal model and its extended Kalman filter (README.md of this folder): a first-order model
// dT/dt = (T_amb + k·I² − T)/τ, state and parameters estimated together on x = [T, ln k, ln(1/τ), T_amb]. The log
// parameters keep k and τ positive and make the priors relative ("within a factor 3"). Pure: no framework, no
// allocation; double precision, as the covariance spans 10⁻⁶..10³.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace nao
{
/// Where the filter starts and what it believes before any data (README.md, "Priors").
struct ThermalPrior
{
  double rise = 25.0;              ///< K/A², k: steady-state rise above ambient per squared ampere
  double riseFactor = 3.0;         ///< one standard deviation of k as a factor (ln k ± ln riseFactor)
  double timeConstant = 600.0;     ///< s, τ
  double timeConstantFactor = 3.0; ///< one standard deviation of τ as a factor
  double ambient = 25.0;           ///< °C, T_amb
  double ambientStdDev = 8.0;      ///< K
};

/// How much the model and the reading are trusted, and the bounds that keep the parameters physical.
struct ThermalNoise
{
  /// K², the reading: uniform 1 K steps (1/12) + sensor noise (0.4 K)²
  double measurementVariance = 1.0 / 12.0 + 0.16;
  double temperatureDrift = 3e-3; ///< K²/s, model error of T per second (the real plant is not first order)
  double logRiseDrift = 1e-6;     ///< 1/s, random walk of ln k per second (wear, gear friction)
  double logRateDrift = 1e-6;     ///< 1/s, random walk of ln(1/τ) per second
  double ambientDrift = 1e-4;     ///< K²/s, random walk of T_amb per second (the room, the robot's inside)
  double gate = 5.0;      ///< a reading further than gate standard deviations of the innovation is rejected
  int maxRejections = 10; ///< consecutive rejected readings after which the filter re-anchors on them
  double minRise = 0.5, maxRise = 500.0;                    ///< K/A², bounds of k
  double minTimeConstant = 10.0, maxTimeConstant = 20000.0; ///< s, bounds of τ
  double minAmbient = -10.0, maxAmbient = 60.0;             ///< °C, bounds of T_amb
};

class ThermalFilter
{
public:
  enum Index
  {
    temperatureIndex,
    logRiseIndex,
    logRateIndex,
    ambientIndex,
    stateSize
  };
  using Vector = std::array<double, stateSize>;
  using Matrix = std::array<Vector, stateSize>;

  bool initialised() const { return initialised_; }

  /// Starts at the reading `measured` (°C) with the prior's parameters. A robot is mostly switched on cold: its first
  /// reading is the best guess of its ambient, within one standard deviation of the prior's.
  void initialise(double measured, const ThermalPrior& prior, const ThermalNoise& noise)
  {
    const double ambient =
        std::clamp(measured, prior.ambient - prior.ambientStdDev, prior.ambient + prior.ambientStdDev);
    x_ = {measured, std::log(prior.rise), -std::log(prior.timeConstant), ambient};
    P_ = {};
    P_[temperatureIndex][temperatureIndex] = noise.measurementVariance;
    P_[logRiseIndex][logRiseIndex] = square(std::log(prior.riseFactor));
    P_[logRateIndex][logRateIndex] = square(std::log(prior.timeConstantFactor));
    P_[ambientIndex][ambientIndex] = square(prior.ambientStdDev);
    rejections_ = 0;
    initialised_ = true;
    refresh(noise);
  }

  /// The model over `dt` (s) at the mean squared current `meanSquaredCurrent` (A²) of that time.
  void predict(double dt, double meanSquaredCurrent, const ThermalNoise& noise)
  {
    const double k = rise_;
    const double a = rate_;
    const double e = std::exp(-a * dt);
    const double steady = x_[ambientIndex] + k * meanSquaredCurrent;
    const double t = x_[temperatureIndex];
    x_[temperatureIndex] = steady + (t - steady) * e;
    // F = identity except row 0: ∂T'/∂x.
    const Vector f = {e, k * meanSquaredCurrent * (1.0 - e), -a * dt * e * (t - steady), 1.0 - e};
    // P' = F P Fᵀ: only row and column 0 change.
    Vector fp{}; // row 0 of F·P
    for (int j = 0; j < stateSize; ++j)
      fp[j] = f[0] * P_[0][j] + f[1] * P_[1][j] + f[2] * P_[2][j] + f[3] * P_[3][j];
    const double p00 = fp[0] * f[0] + fp[1] * f[1] + fp[2] * f[2] + fp[3] * f[3];
    for (int j = 1; j < stateSize; ++j)
      P_[0][j] = P_[j][0] = fp[j];
    P_[0][0] = p00 + noise.temperatureDrift * dt;
    P_[1][1] += noise.logRiseDrift * dt;
    P_[2][2] += noise.logRateDrift * dt;
    P_[3][3] += noise.ambientDrift * dt;
  }

  /// The reading `measured` (°C). Returns false when it was rejected by the gate.
  bool correct(double measured, const ThermalNoise& noise)
  {
    const double innovation = measured - x_[temperatureIndex];
    double s = P_[0][0] + noise.measurementVariance;
    if (innovation * innovation > noise.gate * noise.gate * s)
    {
      if (++rejections_ <= noise.maxRejections) return false;
      // The readings have disagreed for a while: believe them, with the temperature's uncertainty widened.
      P_[0][0] += innovation * innovation;
      s = P_[0][0] + noise.measurementVariance;
    }
    rejections_ = 0;
    const Vector p0 = P_[0];
    const double inverse = 1.0 / s;
    for (int i = 0; i < stateSize; ++i)
    {
      const double gain = p0[i] * inverse;
      x_[i] += gain * innovation;
      for (int j = 0; j <= i; ++j)
        P_[i][j] = P_[j][i] = P_[i][j] - gain * p0[j];
    }
    x_[ambientIndex] = std::clamp(x_[ambientIndex], noise.minAmbient, noise.maxAmbient);
    refresh(noise);
    return true;
  }

  double temperature() const { return x_[temperatureIndex]; } ///< °C
  double temperatureVariance() const { return P_[0][0]; }     ///< K²
  double rise() const { return rise_; }                       ///< K/A²
  double timeConstant() const { return 1.0 / rate_; }         ///< s
  double ambient() const { return x_[ambientIndex]; }         ///< °C
  const Vector& state() const { return x_; }
  const Matrix& covariance() const { return P_; }

private:
  static double square(double v) { return v * v; }
  /// k and 1/τ from their logarithms, once per change, in single precision (exp is most of a step's cost; k and τ
  /// need no more than 7 digits), kept within the bounds (the rare bound sets the logarithm back).
  void refresh(const ThermalNoise& noise)
  {
    rise_ = std::exp(static_cast<float>(x_[logRiseIndex]));
    rate_ = std::exp(static_cast<float>(x_[logRateIndex]));
    if (rise_ < noise.minRise || rise_ > noise.maxRise)
    {
      rise_ = std::clamp(rise_, noise.minRise, noise.maxRise);
      x_[logRiseIndex] = std::log(rise_);
    }
    if (rate_ * noise.maxTimeConstant < 1.0 || rate_ * noise.minTimeConstant > 1.0)
    {
      rate_ = std::clamp(rate_, 1.0 / noise.maxTimeConstant, 1.0 / noise.minTimeConstant);
      x_[logRateIndex] = std::log(rate_);
    }
  }

  Vector x_{};
  Matrix P_{};
  double rise_ = 0; ///< K/A², exp(x_[logRiseIndex])
  double rate_ = 1; ///< 1/s, exp(x_[logRateIndex])
  int rejections_ = 0;
  bool initialised_ = false;
};

/// Time (s) until a first-order model at temperature `now` (°C) with steady state `steady` (°C) and time constant
/// `timeConstant` (s) reaches `threshold` (°C): 0 when it is there already, +∞ when the steady state stays below.
inline double timeToReach(double now, double steady, double timeConstant, double threshold)
{
  if (now >= threshold) return 0.0;
  if (steady <= threshold) return std::numeric_limits<double>::infinity();
  return timeConstant * std::log(static_cast<float>((steady - now) / (steady - threshold))); // s: 7 digits do
}
} // namespace nao
