#pragma once
// How well JointThermalStateProvider's forecast of the time to temperature status 1 holds on simulated robots: for
// every robot run of an ensemble (its log with JointThermalState and JointSensorData, its summary), the forecast made a
// few minutes after the posture is held against the time the plant really took, (a) with the thresholds as the robot
// ran them (the module's priors until the robot teaches them), (b) with each joint's threshold learned from an earlier
// run of the same robot, the forecast solved again from the module's logged nodes for that threshold less the logged
// ripple (as the module solves its own: a periodic load's peaks reach the threshold first); (c) the robot's budget as
// it logged it (ThermalBudget) against the plant's first joint at status 1. The simulator's plant is a different
// model (Config/Sim/motors.toml); nothing here feeds back into the module. Long form:
// Src/Modules/Modeling/JointThermalStateProvider/README.md.
#include "Tools/Thermal/ThermalFilter.h"
#include "Util/Simulator/Run/SimulationTypes.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace nao
{
/// s after the posture is held at which the forecasts are taken.
inline const std::vector<double> defaultForecastHorizons = {60.0, 120.0, 300.0};

/// One joint's forecast of one robot, made `horizon` s after the posture was held.
struct JointForecast
{
  std::uint64_t seed = 0;
  std::string preset;
  std::size_t joint = 0;
  double horizon = 0;   ///< s after the posture is held
  double actual = 0;    ///< s from the forecast to the plant's status 1; +∞: not within the run
  double remaining = 0; ///< s of the run left after the forecast
  double asRun = 0;     ///< s, the logged forecast (thresholds as the robot ran them); +∞: never
  double learned = 0;   ///< s, rescaled to the learned threshold; NaN: no threshold was learned for the joint
  double threshold = 0; ///< °C, the status-1 threshold the robot ran with at the forecast
  double learnedThreshold = 0; ///< °C, NaN: none
  double temperature = 0;      ///< °C, the estimate at the forecast
  double steady = 0;           ///< °C, T_amb + k·I² at the forecast
  double steadyStdDev = 0;     ///< K, its standard deviation (JointThermalState.steadyStdDevs)
  double timeConstant = 0;     ///< s, the effective τ (Σ g_i τ_i / Σ g_i) at the forecast
  double load = 0;             ///< A², the present load the forecast assumes
  double ripple = 0; ///< K, how far the load's swings peak above the course (JointThermalState.ripples)
  /// A², the mean I² the joint's reading showed from the forecast to its status 1 (to the end of the run where it
  /// stays below)
  double loadAfter = 0;
  /// A², the lowest and the highest running mean of I² over that interval (RunningLoad, heldLoadMemory)
  double loadLowest = 0, loadHighest = 0;
  bool learning = true; ///< the module flagged the forecast as not yet to be trusted
  /// the same for `learned`: the flag as run, or a "never" for the learned threshold that the steady state's
  /// deviation does not rule out (the module's rule; `learned` is then the earliest time the fit allows)
  bool learnedLearning = true;
  ThermalNodes nodes; ///< the module's fitted nodes at the forecast (for the learned threshold)
};

/// The robot's budget (ThermalBudget as it logged it: the least time to status 1 over its joints at their present
/// loads, what a coach reads) made `horizon` s after the posture was held, against the plant's first joint.
struct BudgetForecast
{
  std::uint64_t seed = 0;
  double horizon = 0;        ///< s after the posture is held
  bool alreadyThere = false; ///< a joint was at status 1 already (its budget 0): nothing left to forecast
  double actual = 0; ///< s from the forecast to the first joint's status 1 in the plant; +∞: none in the run
  double remaining = 0; ///< s of the run left after the forecast
  double asRun = 0;     ///< s, ThermalBudget::minutesLeft · 60; +∞: never
  bool learning = true; ///< ThermalBudget::learning: the limiting joint's forecast is not yet trusted
  std::size_t limitingJoint = 0;
  std::size_t firstJoint = 0; ///< the joint that reached status 1 first in the plant (where actual is finite)
};

/// One robot run: the forecasts of every joint that is still below status 1 at each horizon, the robot's budget at
/// each horizon (where its log holds ThermalBudget), and what the run taught.
struct RobotThermalForecast
{
  std::uint64_t seed = 0;
  std::string preset;
  double holdStart = 0, simulatedSeconds = 0;
  /// °C per joint: the estimate at which the robot reported status 1 (the module's learned threshold at the end of
  /// the run); NaN where the joint never reached status 1
  std::array<double, 25> learnedThresholds{};
  std::vector<JointForecast> forecasts;
  std::vector<BudgetForecast> budgets;
  std::uint64_t frames = 0; ///< log frames read that held FrameInfo, JointSensorData and JointThermalState
};

/// Sets `learned` and `learnedLearning` of `forecast` from its nodes, load, ripple, steadyStdDev, learning and
/// learnedThreshold, as the module solves its own: the time to the learned threshold less the ripple; a "never" the
/// steady state's deviation does not rule out (within two of it) is the earliest time the fit allows, flagged learning.
void solveForLearnedThreshold(JointForecast& forecast);

/// Reads `log` (a run's robot log holding FrameInfo, JointSensorData and JointThermalState) with its `summary` (the
/// plant's first status 1 per joint, hotAfter). `taught` holds per joint the status-1 threshold learned from an
/// earlier run of this robot (NaN: none); null: this run's own learned thresholds, i.e. what an identical earlier run
/// of the same robot (same seed: the same plant) would have taught. A joint without one takes the lowest the robot
/// learned on any joint; a robot that learned none has no forecast (b). Throws std::runtime_error when the log lacks
/// the representations.
RobotThermalForecast evaluateThermalForecast(const std::filesystem::path& log,
                                             const SimulationResult& summary,
                                             const std::vector<double>& horizons,
                                             const std::array<double, 25>* taught = nullptr);

/// The figures of one horizon over all robots of a configuration, for (a) or (b).
struct ForecastErrors
{
  double horizon = 0;
  std::size_t joints = 0;                    ///< joints that reach status 1 after the forecast within the run
  std::size_t forecasts = 0;                 ///< of them, with a forecast (b: a learned threshold)
  double actualMedian = 0;                   ///< s, median time the plant took
  double signedMedian = 0;                   ///< s, median of forecast − actual (∞ counts as +∞)
  double absoluteMedian = 0, absolute90 = 0; ///< s, of |forecast − actual|
  double relativeMedian = 0, relative90 = 0; ///< of |forecast − actual| / actual
  std::size_t neverWrongly = 0;              ///< reaching joints the forecast called never (+∞)
  /// joints that do not reach status 1 within the run although the forecast said they would (forecast < the run's
  /// remaining time)
  std::size_t soonWrongly = 0;
  std::size_t quietJoints = 0; ///< joints still below status 1 at the end, of those with a forecast
  std::size_t learning = 0; ///< of the reaching joints with a forecast, those the module flagged as learning
  double trustedMedian = 0, trusted90 = 0; ///< relativeMedian and relative90 over the others (NaN: none)
  /// of the reaching joints with a forecast, those whose load moved before status 1 (loadHeld is false)
  std::size_t moved = 0;
  double heldMedian = 0, held90 = 0; ///< relativeMedian and relative90 over the others (NaN: none)
  /// relativeMedian and relative90 over those neither learning nor moved (NaN: none): what a coach reads in black
  /// of a motion that goes on
  double trustedHeldMedian = 0, trustedHeld90 = 0;
};

/// The forecast assumes the present load holds (JointThermalStateProvider's README, "The present load"): it is judged
/// as a forecast of the motion it saw where the load until status 1 lies within this factor of that load (loadHeld).
/// 1.25: the error the goal allows (25 %), as a change of the rise the load drives. A load that moved by more is
/// another motion: the firmware softened another joint at its status 1, a plant that sags, a stage that found a hold.
constexpr double heldLoadFactor = 1.25;

/// s, the memory of the load the judge compares with the forecast's: twice the module's cycleWindow (60 s), so that
/// a load cycling within that stays within heldLoadFactor of its mean (a 50 % duty cycle of 0.04 and 2.25 A², a
/// period up to 48 s, from either phase: `ThermalForecastJudge` tests), and a phase of a minute or more shows.
constexpr double heldLoadMemory = 120.0;

/// The load after a forecast as a joint's slower heat sees it: the running mean of I² with an exponential memory,
/// starting at the load the forecast assumed; its lowest and highest value from the forecast on.
class RunningLoad
{
public:
  /// `start`: s, the forecast's time; `assumed`: A², its load; `memory`: s, the mean's time constant.
  RunningLoad(double start, double assumed, double memory);
  /// One reading's I² (A²) at `time` (s, not decreasing).
  void add(double time, double value);
  double lowest() const { return lowest_; }   ///< A², of the running mean
  double highest() const { return highest_; } ///< A², of the running mean
  /// A², the plain mean of the readings; NaN without any
  double mean() const { return count_ == 0 ? std::numeric_limits<double>::quiet_NaN() : sum_ / count_; }

private:
  double memory_, last_, running_, lowest_, highest_;
  double sum_ = 0, count_ = 0;
};

/// Whether the load the forecast assumed held until status 1: the mean I² of the whole interval and its running mean
/// (RunningLoad, heldLoadMemory) stayed within heldLoadFactor of it, all lifted by 0.01 A² so that a load near 0 that
/// stays near 0 held. The whole mean alone lets a load that rose and fell, or a burst just before status 1, average
/// out; the running mean alone lets a change pass that lasted less than its memory.
bool loadHeld(const JointForecast& forecast);

/// (a) when `learned` is false, (b) when true, for every horizon of `robots`.
std::vector<ForecastErrors> forecastErrors(const std::vector<RobotThermalForecast>& robots,
                                           const std::vector<double>& horizons, bool learned);

/// The figures of the robots' budgets at one horizon (with the thresholds as run: the budget the robot computed).
struct BudgetErrors
{
  double horizon = 0;
  std::size_t alreadyThere = 0; ///< robots with a joint at status 1 at the forecast: not judged
  std::size_t robots = 0;       ///< of the others, those whose first joint reaches status 1 within the run
  double actualMedian = 0;      ///< s, median time the plant took to its first joint's status 1
  double relativeMedian = 0, relative90 = 0; ///< of |budget − plant| / plant
  std::size_t neverWrongly = 0;              ///< reaching robots whose budget said never (+∞)
  std::size_t quietRobots = 0;               ///< robots none of whose joints reached status 1 within the run
  std::size_t soonWrongly = 0;               ///< of them, those whose budget ended within the run
  std::size_t learning = 0;                  ///< of the reaching robots, budgets flagged learning
  double trustedMedian = 0, trusted90 = 0;   ///< relativeMedian and relative90 over the others (NaN: none)
};

/// The budgets' figures for every horizon of `robots`.
std::vector<BudgetErrors> budgetErrors(const std::vector<RobotThermalForecast>& robots,
                                       const std::vector<double>& horizons);

/// Per seed, the status-1 thresholds (°C, NaN: none) its robot learned in a run.
using TaughtThresholds = std::map<std::uint64_t, std::array<double, 25>>;

/// The thresholds the robots of an evaluated ensemble learned, by seed.
TaughtThresholds taughtThresholds(const std::vector<RobotThermalForecast>& robots);

/// Every robot-<seed>/ of an ensemble folder (each with its log <scenario>.log, written with --robot-logs); with
/// `teacher` (another ensemble's thresholds by seed) each robot's thresholds (b) are those its seed learned there, a
/// robot missing there has none; without, each robot's own run teaches them.
std::vector<RobotThermalForecast> evaluateThermalEnsemble(const std::filesystem::path& folder,
                                                          const std::vector<double>& horizons,
                                                          const TaughtThresholds* teacher = nullptr);

/// Every joint's forecasts, one CSV row each (units in the header).
void writeThermalForecasts(const std::filesystem::path& file,
                           const std::vector<RobotThermalForecast>& robots);

/// Every robot's budget at each horizon, one CSV row each (units in the header).
void writeBudgetForecasts(const std::filesystem::path& file, const std::vector<RobotThermalForecast>& robots);

/// Markdown tables (a) and (b) with one row per configuration and horizon, (c) of the robots' budgets, and the learned
/// thresholds per configuration. `configurations`: label -> its robots, in the order given by `labels`.
std::string thermalForecastTables(const std::vector<std::string>& labels,
                                  const std::vector<std::vector<RobotThermalForecast>>& configurations,
                                  const std::vector<double>& horizons);
} // namespace nao
