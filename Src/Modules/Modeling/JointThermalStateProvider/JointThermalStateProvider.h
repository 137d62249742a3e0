#pragma once
// Per joint a sum of thermal nodes with fixed time constants fitted online (a linear Kalman filter on [c_i, g_i,
// T_amb]) to the temperatures LoLA reports, and the time to each firmware temperature status at the present load
// (the mean I² since the load last changed, 10 to 60 s: whole cycles of a repeated motion); a reported status
// transition, once confirmed, teaches its threshold. The same for the posture
// the motion side names (ForecastPosture: "if the robot sat down now"; limp joints draw nothing, the others keep their
// load). Cheap: every frame adds each joint's I² to its window, and one joint's filter steps, in turn (each every 25
// frames, 0.3 s). No allocation after construction. README.md of this folder: the model, the filter, the priors, the
// figures.
#include "Framework/Module.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateParameters.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Thermal/LoadWindow.h"
#include "Tools/Thermal/ThermalFilter.h"
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

private:
  void onParametersChanged() override { configured_ = false; }
  void configure();
  void learnThresholds(std::size_t j, TemperatureStatus status, double time);
  void confirmThreshold(std::size_t j, double time);
  void step(std::size_t j, double time, const JointSensorData& sensors, JointThermalState& state);
  void writeJoint(std::size_t j, JointThermalState& state) const;
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
  };

  bool configured_ = false;
  ThermalPrior prior_;
  ThermalNoise noise_;
  LoadWindow::Settings loadSettings_; ///< loadWindow and cycleWindow in steps
  std::array<JointModel, numOfJoints> joints_{};
  // What every frame touches, side by side (one vector loop): I² since each joint's last step, and the statuses.
  std::array<float, numOfJoints> squaredCurrentSums_{}; ///< A²
  std::array<std::int32_t, numOfJoints> samples_{};     ///< frames in squaredCurrentSums_
  JointArray<TemperatureStatus> statuses_{};            ///< the last status reported
  bool seenStatus_ = false;
  ForecastPosture posture_; ///< the named posture of this frame
  std::size_t next_ = 0;    ///< the joint whose filter steps next
  std::uint32_t steps_ = 0;
  std::uint32_t rejectedReadings_ = 0;
  std::uint32_t faultyStatusChanges_ = 0;
  std::array<float, 3> priors_{}; ///< °C, the prior thresholds of statuses 1, 2, 3
  bool thresholdsSet_ = false;
};
} // namespace nao
