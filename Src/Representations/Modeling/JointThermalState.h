#pragma once
// How hot each joint's motor is and when it will reach the firmware's temperature statuses (NaoFacts.md §18) at the
// load it carries now: per joint a sum of thermal nodes with fixed time constants (winding seconds to housing tens of
// minutes) fitted online to the reported temperatures (JointThermalStateProvider, its README.md). The forecast assumes
// the present load (the RMS current since the load last changed) holds; the firmware's thresholds in °C are not
// public, so each one is a prior, a lower bound from the robot's own status, or learned from a status transition.
#include "Representations/Infrastructure/Joints.h"
#include "Representations/MotionControl/ForecastPosture.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <array>
#include <boost/serialization/array.hpp>
#include <cstdint>
#include <limits>

namespace nao
{
/// Where a status threshold (°C) comes from.
NAO_ENUM(ThermalThresholdSource, std::uint8_t,
         prior,      ///< the parameter's guess (not a firmware fact)
         lowerBound, ///< the robot reported a lower status at a higher estimate: raised to that estimate
         learned,    ///< the lowest estimate at which the robot reported a transition into this status
         taught      ///< learned in an earlier run of this robot (its overlay: `LogTool thermal --overlay`)
);

/// One temperature status (hot, very hot, critically hot) per joint: its threshold and when the joint gets there.
struct ThermalStatusForecast
{
  JointArray<float> thresholds; ///< °C, the temperature at which the status begins
  JointArray<ThermalThresholdSource> sources{};
  /// s, until the estimated temperature reaches the threshold at the present load: 0 when it is there, +∞ when the
  /// steady state stays below it (or the joint has no estimate yet)
  JointArray<float> times = filled(std::numeric_limits<float>::infinity());

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("thresholds", thresholds).unit(streams::Unit::degreesCelsius) &
        BOOST_SERIALIZATION_NVP(sources) & streams::field("times", times).unit(streams::Unit::seconds);
  }

  static JointArray<float> filled(float value)
  {
    JointArray<float> array;
    array.fill(value);
    return array;
  }
};

/// The forecast "if the robot took the named posture now" (ForecastPosture): a joint limp there (stiffness 0) draws no
/// current, every other joint keeps its present load. From the same fitted nodes and thresholds as the forecast at the
/// present load.
struct PostureThermalForecast
{
  PostureName name = PostureName::none; ///< none: no posture named, every time below is +∞
  JointArray<float> rmsCurrents{};      ///< A, the load assumed in the posture
  JointArray<float> steadyTemperatures; ///< °C, where each joint settles in the posture
  /// s, until statuses 1, 2, 3 begin in the posture: 0 when the joint is there, +∞ when it never gets there
  std::array<JointArray<float>, 3> reachTimes{filled(), filled(), filled()};
  /// s, until the joint is back below the thresholds of statuses 1, 2, 3: 0 when it is below, +∞ when it stays above
  std::array<JointArray<float>, 3> clearTimes{filled(), filled(), filled()};

  static JointArray<float> filled()
  {
    return ThermalStatusForecast::filled(std::numeric_limits<float>::infinity());
  }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& BOOST_SERIALIZATION_NVP(name) & streams::field("rmsCurrents", rmsCurrents).unit(Unit::amperes) &
        streams::field("steadyTemperatures", steadyTemperatures).unit(Unit::degreesCelsius) &
        streams::field("reachTimes", reachTimes).unit(Unit::seconds) &
        streams::field("clearTimes", clearTimes).unit(Unit::seconds);
  }
};

struct JointThermalState
{
  JointArray<bool> valid{};       ///< a plausible reading has started the joint's filter
  JointArray<float> temperatures; ///< °C, estimated temperature (what LoLA reports, without its 1 K steps)
  JointArray<float> temperatureStdDevs; ///< K, its standard deviation
  JointArray<float> rises; ///< K/A² (no unit in the table): steady-state rise per squared ampere, Σ g_i
  /// s, Σ g_i τ_i / Σ g_i: the mean time of the fitted step response (an effective time constant)
  JointArray<float> timeConstants;
  JointArray<float> ambients; ///< °C, T_amb: where the joint settles without current
  /// A, the present load: √(mean I²) since the load last changed (over the provider's loadWindow at least and its
  /// cycleWindow at most)
  JointArray<float> rmsCurrents;
  JointArray<float> loadWindows;        ///< s, how far back that mean reaches
  JointArray<float> steadyTemperatures; ///< °C, T_amb + Σ g_i·I² at the present load
  /// K, the standard deviation of the steady state (the fit's, and a quarter of the ripple): a threshold less than two
  /// of them above it might still be reached (+∞ for a joint without estimate)
  JointArray<float> steadyStdDevs = ThermalStatusForecast::filled(std::numeric_limits<float>::infinity());
  /// K, how far the temperature peaks above its course at the mean load within a cycle of the present load (the fast
  /// nodes' response to the load's swings); the statuses are forecast for the peaks
  JointArray<float> ripples{};
  /// s, standard deviation of the time to the next status not reached (+∞ when that is "never" but might be)
  JointArray<float> timeStdDevs = ThermalStatusForecast::filled(std::numeric_limits<float>::infinity());
  /// the forecast is not yet to be trusted: its standard deviation exceeds the provider's learningSpread of the
  /// time left, or a "never" that the steady state's uncertainty does not rule out (and every joint without estimate)
  JointArray<bool> learning = filledLearning();
  /// The fitted nodes (T = T_amb + Σ c_i, c_i → g_i·I² with time constant τ_i), enough to forecast any threshold
  /// (ThermalFilter.h, timeToReach); node 0 is the slowest, unused nodes are 0.
  static constexpr std::size_t maxNodes = 4;
  std::array<float, maxNodes> nodeTimeConstants{};     ///< s, τ_i
  std::array<JointArray<float>, maxNodes> nodeRises{}; ///< K, c_i: each node's share of T − T_amb
  std::array<JointArray<float>, maxNodes> nodeGains{}; ///< K/A² (no unit in the table), g_i
  ThermalStatusForecast hot;           ///< status 1: the firmware starts to reduce the stiffness
  ThermalStatusForecast veryHot;       ///< status 2: stiffness reduced by more than 30 %
  ThermalStatusForecast criticallyHot; ///< status 3: stiffness 0
  PostureThermalForecast posture;      ///< the same "if the robot took the named posture now"
  std::uint32_t rejectedReadings =
      0;                   ///< readings ignored since the start: NaN, implausible, or far off the model
  std::uint32_t steps = 0; ///< filter steps since the start (one joint per frame, in turn)
  /// status transitions that taught nothing since the start: a jump over a status, a status far off its prior
  /// threshold, or one that fell back before it was confirmed (flapping)
  std::uint32_t faultyStatusChanges = 0;

  static JointArray<bool> filledLearning()
  {
    JointArray<bool> array;
    array.fill(true);
    return array;
  }

  /// The forecast of status 1, 2 or 3.
  ThermalStatusForecast& forecast(int status)
  {
    return status == 1 ? hot : status == 2 ? veryHot : criticallyHot;
  }
  const ThermalStatusForecast& forecast(int status) const
  {
    return status == 1 ? hot : status == 2 ? veryHot : criticallyHot;
  }

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::Unit;
    ar& BOOST_SERIALIZATION_NVP(valid) &
        streams::field("temperatures", temperatures).unit(Unit::degreesCelsius) &
        streams::field("temperatureStdDevs", temperatureStdDevs).unit(Unit::kelvins) &
        BOOST_SERIALIZATION_NVP(rises) & streams::field("timeConstants", timeConstants).unit(Unit::seconds) &
        streams::field("ambients", ambients).unit(Unit::degreesCelsius) &
        streams::field("rmsCurrents", rmsCurrents).unit(Unit::amperes) &
        streams::field("loadWindows", loadWindows).unit(Unit::seconds) &
        streams::field("steadyTemperatures", steadyTemperatures).unit(Unit::degreesCelsius) &
        streams::field("steadyStdDevs", steadyStdDevs).unit(Unit::kelvins) &
        streams::field("ripples", ripples).unit(Unit::kelvins) &
        streams::field("timeStdDevs", timeStdDevs).unit(Unit::seconds) & BOOST_SERIALIZATION_NVP(learning) &
        streams::field("nodeTimeConstants", nodeTimeConstants).unit(Unit::seconds) &
        streams::field("nodeRises", nodeRises).unit(Unit::kelvins) & BOOST_SERIALIZATION_NVP(nodeGains) &
        BOOST_SERIALIZATION_NVP(hot) & BOOST_SERIALIZATION_NVP(veryHot) &
        BOOST_SERIALIZATION_NVP(criticallyHot) & BOOST_SERIALIZATION_NVP(posture) &
        BOOST_SERIALIZATION_NVP(rejectedReadings) & BOOST_SERIALIZATION_NVP(steps) &
        BOOST_SERIALIZATION_NVP(faultyStatusChanges);
  }
};
} // namespace nao
