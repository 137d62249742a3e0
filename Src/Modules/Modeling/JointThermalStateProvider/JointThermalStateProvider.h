#pragma once
// Per joint a sum of thermal nodes with fixed time constants fitted online (a linear Kalman filter on [c_i, g_i,
// T_amb]) to the temperatures LoLA reports, and the time to each firmware temperature status at the present load
// (the mean I² since the load last changed, 10 to 60 s: whole cycles of a repeated motion; 20 to 40 s of a load that
// moves steadily); a reported status transition, once confirmed, teaches its threshold. The same for the posture the
// motion side names (ForecastPosture: "if the robot sat down now"; limp joints draw nothing, the others keep their
// load). No allocation after construction. README.md of this folder: the model, the filter, the priors, the figures.
//
// Cost (goal: at most 100 ns per 12 ms frame; JointThermalStateProviderBenchmark, Docs/Results/Benchmarks.md). Every
// frame adds each joint's I² to its window (one vector loop) and steps one joint's filter, in turn (each every 25
// frames, 0.3 s), writing its estimate: most of the cost. The forecast from the stepped joint's fit (three solves, the
// variances' quadratic forms, the posture's), ~65 ns, runs only in the joint's turn, every forecastEvery of its steps,
// and at once where the step changed more than the drift of the fit (the filter started, the load window started
// again on a new load, a threshold moved) or the parameters changed. Staleness: a forecast is the one a forecast at
// every step would have made at most forecastEvery − 1 steps (2.1 s) before, for times that are minutes long and a
// budget that decides in minutes; JointThermalForecastStalenessTests holds it against that order (and the estimate
// bit for bit) over a 10-minute stand.
#include "Framework/Module.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateParameters.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Thermal/LoadWindow.h"
#include "Tools/Thermal/ThermalFilter.h"
#include "Tools/Thermal/ThermalRipple.h"
#include <array>
#include <cstdint>

namespace nao
{
class JointThermalStateProvider
    : public Module<JointThermalStateProvider, Requires<FrameInfo, JointSensorData, ForecastPosture>,
                    Provides<JointThermalState>, Parameters<JointThermalStateParameters>>
{
public:
  using Module::Module;
  void update(JointThermalState& state);

  /// LoLA's frame (NaoFacts.md §19): a joint's filter steps every numOfJoints frames, 0.3 s.
  static constexpr double framePeriod = 0.012;
  static constexpr double stepPeriod = framePeriod * numOfJoints;
  /// A joint's forecast runs every forecastEvery of its steps (2.4 s; the header: cost and staleness). 1 is the old
  /// order; 8 takes the forecast's ~65 ns to ~8 ns per frame.
  static constexpr std::uint32_t forecastEvery = 8;

private:
  void onParametersChanged() override { configured_ = false; }
  void configure();
  void configurePriors(const JointThermalStateParameters& p);
  void configureBasis(const JointThermalStateParameters& p);
  /// Before thresholdsSet_ is set: the first configuration replaces every threshold.
  void configureThresholds(const JointThermalStateParameters& p);
  void learnThresholds(std::size_t j, TemperatureStatus status, double time);
  void confirmThreshold(std::size_t j, double time);
  /// Steps joint j's filter and writes its estimate; true where its forecast changed more than by drift.
  bool step(std::size_t j, double time, const JointSensorData& sensors, JointThermalState& state);
  void writeEstimate(std::size_t j, JointThermalState& state) const;
  void writeForecast(std::size_t j, JointThermalState& state) const;
  void writePosture(std::size_t j, const ThermalNodes& nodes, double load, JointThermalState& state) const;

  struct JointModel
  {
    ThermalFilter filter;
    double lastSquaredCurrent = 0;     ///< A², the mean I² of the last window with samples
    double lastStepTime = 0;           ///< s, FrameInfo time of the last step
    LoadWindow load;                   ///< the present load
    std::array<float, 3> thresholds{}; ///< °C, of statuses 1, 2, 3
    std::array<ThermalThresholdSource, 3> sources{};
    int pendingStatus = 0;   ///< a status risen into and not yet confirmed (0: none)
    float pendingEstimate{}; ///< °C, the estimate when it rose
    double pendingSince = 0; ///< s, FrameInfo time when it rose
    ThermalRipple ripple;    ///< the load's swing about its mean and its peaks
  };

  bool configured_ = false;
  ThermalPrior prior_;
  /// Where each joint's filter starts: prior_, or the fit and the ambient an earlier run kept (taughtNodeGains*,
  /// taughtAmbient). Read only when a joint starts: a joint already running keeps its fit when they change.
  std::array<ThermalPrior, numOfJoints> jointPriors_{};
  ThermalNoise noise_;
  /// s, τ_i of the basis (node 0 the slowest; 0: not used), and whether the output lacks them since configure()
  std::array<double, ThermalNodes::maxNodes> nodeTimeConstants_{};
  ThermalRipple::Settings rippleSettings_; ///< the nodes that swing (those that settle within loadWindow)
  bool timeConstantsDue_ = true;
  LoadWindow::Settings loadSettings_; ///< loadWindow and cycleWindow in steps
  std::array<JointModel, numOfJoints> joints_{};
  // What every frame touches, side by side (one vector loop): I² since each joint's last step, and the statuses.
  std::array<float, numOfJoints> squaredCurrentSums_{}; ///< A²
  std::array<std::int32_t, numOfJoints> samples_{};     ///< frames in squaredCurrentSums_
  JointArray<TemperatureStatus> statuses_{};            ///< the last status reported
  bool seenStatus_ = false;
  ForecastPosture posture_;                     ///< the named posture of this frame
  std::size_t next_ = 0;                        ///< the joint whose filter steps next
  std::array<bool, numOfJoints> forecastDue_{}; ///< forecast at the joint's next step whatever its turn
  std::uint32_t steps_ = 0;
  std::uint32_t rejectedReadings_ = 0;
  std::uint32_t faultyStatusChanges_ = 0;
  std::array<float, 3> priors_{}; ///< °C, the prior thresholds of statuses 1, 2, 3
  bool thresholdsSet_ = false;
};
} // namespace nao
