#pragma once
// How far a periodic load (stepping, a keyframe loop) swings a joint's temperature above its course at the mean load
// (JointThermalStateProvider's README, "A periodic load"). The nodes' model is linear in I², so each node is its
// course at the mean plus its response r_i to the load's deviation from the mean: r_i' = r_i·e^(−Δt/τ_i) + (I² −
// mean)·(1 − e^(−Δt/τ_i)), followed for the nodes that settle within a short window (their swing follows a cycle;
// a slower one averages it). Each half cycle window keeps its highest swing Σ g_i·r_i above the swings' mean there (a
// mean that is not yet a whole cycle's shifts every swing alike, not the peak above their mean). Over the last five,
// this one included, a swing recurs as a cycle of up to a cycle window does, at least twice in two of them: the
// ripple is the highest where the second highest is at least half of it (the status begins at the highest peak that
// recurs), else the second highest (the highest was a one-off: a sit-down's peak, a stumble). Pure: no framework, no
// allocation.
#include "Tools/Thermal/ThermalNodes.h"
#include <algorithm>
#include <array>
#include <cmath>

namespace nao
{
class ThermalRipple
{
public:
  static constexpr int maxNodes = ThermalNodes::maxNodes;

  struct Settings
  {
    std::array<double, maxNodes> decays{};   ///< e^(−step/τ_i) of a node that swings, 0 for the others
    std::array<double, maxNodes> swinging{}; ///< 1 for a node that swings, 0 else
    double window = 30;                      ///< s, half a cycle window: each keeps its peak
  };

  /// The nodes with 0 < τ_i ≤ `settle` (s) swing; steps of `step` s; peaks over halves of cycle windows of `window` s.
  static Settings settings(const std::array<double, maxNodes>& timeConstants, double step, double settle,
                           double window)
  {
    Settings settings;
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      const bool swings = timeConstants[i] > 0 && timeConstants[i] <= settle;
      settings.swinging[i] = swings ? 1.0 : 0.0;
      settings.decays[i] = swings ? std::exp(-step / timeConstants[i]) : 0.0;
    }
    settings.window = window / 2;
    return settings;
  }

  /// Forgets every swing (a new load, or no fit yet); `time` (s) begins the first half cycle window.
  void restart(double time)
  {
    *this = ThermalRipple{};
    since_ = time;
  }

  /// One step at `time` (s) whose mean I² was `deviation` (A²) off the load's mean; `gains` the fit's g_i (K/A²).
  void add(double deviation, const double* gains, double time, const Settings& settings)
  {
    double swing = 0;
    for (std::size_t i = 0; i < maxNodes; ++i)
    {
      responses_[i] =
          settings.decays[i] * responses_[i] + (settings.swinging[i] - settings.decays[i]) * deviation;
      swing += gains[i] * responses_[i];
    }
    if (time - since_ >= settings.window)
    {
      kept_[nextKept_] = peak_ - sum_ / std::max(count_, 1);
      nextKept_ = nextKept_ + 1 == kept_.size() ? 0 : nextKept_ + 1;
      peak_ = sum_ = 0;
      count_ = 0;
      since_ = time;
    }
    peak_ = count_ == 0 ? swing : std::max(peak_, swing);
    sum_ += swing;
    ++count_;
  }

  /// A², node i's response r_i to the load's deviation (c_i less its course at the mean is g_i·r_i).
  double response(std::size_t i) const { return responses_[i]; }
  /// K, of the highest swings above the swings' mean of this half cycle window and the four before: the highest, or
  /// the second highest where the highest is more than twice it (a one-off); 0 at least.
  double ripple() const
  {
    double highest = count_ > 0 ? peak_ - sum_ / count_ : 0.0, second = 0;
    for (const double kept : kept_)
    {
      second = std::max(second, std::min(highest, kept));
      highest = std::max(highest, kept);
    }
    // Two peaks within a factor two are one swing that recurs, as large as the highest; a highest more than twice
    // the second is a one-off (a sit-down, a stumble) beside the swing that recurs, which is the second.
    return std::max(2 * second >= highest ? highest : second, 0.0);
  }

private:
  std::array<double, maxNodes> responses_{}; ///< A², r_i
  double peak_ = 0;                          ///< K, the highest swing in this half cycle window
  double sum_ = 0;                           ///< K, the swings' sum in this half cycle window
  int count_ = 0;                            ///< steps in this half cycle window
  std::array<double, 4> kept_{};             ///< K, the highest swing above their mean in the halves before
  std::size_t nextKept_ = 0;                 ///< where the next half's goes (the oldest)
  double since_ = 0;                         ///< s, when this half cycle window began
};
} // namespace nao
