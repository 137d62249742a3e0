#include "Util/Simulator/Run/ThermalForecast.h"

#include "Framework/Client/LogDecoder.h"
#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Tools/Thermal/ThermalFilter.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/RunSummary.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr double infinity = std::numeric_limits<double>::infinity();
const double notANumber = std::nan("");

/// Joint j's forecast, as the robot logged it in `state` at `time` (s), `horizon` s after the posture was held.
JointForecast forecastAt(const SimulationResult& summary, double time, const JointThermalState& state,
                         std::size_t j, double horizon)
{
  JointForecast forecast;
  forecast.seed = summary.seed;
  forecast.preset = summary.preset;
  forecast.joint = j;
  forecast.horizon = horizon;
  const double hotAfter = summary.joints[j].hotAfter;
  forecast.actual = hotAfter >= 0 ? hotAfter - time : infinity;
  forecast.remaining = summary.simulatedSeconds - time;
  forecast.asRun = state.hot.times[j];
  forecast.threshold = state.hot.thresholds[j];
  forecast.temperature = state.temperatures[j];
  const double load = static_cast<double>(state.rmsCurrents[j]) * state.rmsCurrents[j];
  forecast.steady = state.steadyTemperatures[j];
  forecast.steadyStdDev = state.steadyStdDevs[j];
  forecast.timeConstant = state.timeConstants[j];
  forecast.load = load;
  forecast.ripple = state.ripples[j];
  forecast.learning = state.learning[j];
  forecast.nodes = thermalNodesOf(state, j);
  return forecast;
}

/// The robot's budget as it logged it at `time` (s), `horizon` s after the posture was held.
BudgetForecast budgetAt(const SimulationResult& summary, double time, const JointSensorData& sensors,
                        const ThermalBudget& budget, double horizon)
{
  BudgetForecast forecast;
  forecast.seed = summary.seed;
  forecast.horizon = horizon;
  forecast.remaining = summary.simulatedSeconds - time;
  forecast.actual = infinity;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const double hotAfter = summary.joints[j].hotAfter;
    // At status 1 already (the plant's or the robot's view): the budget is 0, nothing left to forecast.
    forecast.alreadyThere |= (hotAfter >= 0 && hotAfter <= time) || static_cast<int>(sensors.status[j]) != 0;
    if (hotAfter >= 0 && hotAfter - time < forecast.actual)
    {
      forecast.actual = hotAfter - time;
      forecast.firstJoint = j;
    }
  }
  forecast.asRun = static_cast<double>(budget.minutesLeft) * 60.0;
  forecast.learning = budget.learning;
  forecast.limitingJoint = static_cast<std::size_t>(budget.limitingJoint);
  return forecast;
}
} // namespace

RobotThermalForecast evaluateThermalForecast(const std::filesystem::path& log,
                                             const SimulationResult& summary,
                                             const std::vector<double>& horizons,
                                             const std::array<double, 25>* taught)
{
  RobotThermalForecast robot;
  robot.seed = summary.seed;
  robot.preset = summary.preset;
  robot.holdStart = summary.holdStart;
  robot.simulatedSeconds = summary.simulatedSeconds;
  robot.learnedThresholds.fill(notANumber);
  std::vector<bool> taken(horizons.size(), false);
  JointThermalState last;
  // Per forecast, the reading's I² (A²) over the frames from the forecast to its joint's status 1 or the end.
  std::vector<RunningLoad> loads;
  LogDecoder decoder(log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    const FrameInfo* frame = recordOf<FrameInfo>(records);
    const JointSensorData* sensors = recordOf<JointSensorData>(records);
    const JointThermalState* state = recordOf<JointThermalState>(records);
    const ThermalBudget* budget = recordOf<ThermalBudget>(records);
    if (!frame || !sensors || !state) continue;
    ++robot.frames;
    last = *state;
    for (std::size_t f = 0; f < robot.forecasts.size(); ++f)
    {
      const JointForecast& forecast = robot.forecasts[f];
      const double hotAfter = summary.joints[forecast.joint].hotAfter;
      if (hotAfter >= 0 && frame->time > hotAfter) continue;
      const double current = sensors->currents[forecast.joint];
      loads[f].add(frame->time, current * current);
    }
    for (std::size_t h = 0; h < horizons.size(); ++h)
    {
      if (taken[h] || frame->time < summary.holdStart + horizons[h]) continue;
      taken[h] = true;
      for (std::size_t j = 0; j < numOfJoints; ++j)
      {
        const double hotAfter = summary.joints[j].hotAfter;
        // Already at status 1 (the plant's or the robot's view): nothing left to forecast.
        if ((hotAfter >= 0 && hotAfter <= frame->time) || static_cast<int>(sensors->status[j]) != 0 ||
            !state->valid[j])
          continue;
        robot.forecasts.push_back(forecastAt(summary, frame->time, *state, j, horizons[h]));
        loads.emplace_back(frame->time, robot.forecasts.back().load, heldLoadMemory);
      }
      if (budget) robot.budgets.push_back(budgetAt(summary, frame->time, *sensors, *budget, horizons[h]));
    }
  }
  if (robot.frames == 0)
    throw std::runtime_error(log.string() +
                             " holds no frame with FrameInfo, JointSensorData and JointThermalState (is "
                             "JointThermalState in the scenario's [Log] representations?)");
  for (std::size_t f = 0; f < robot.forecasts.size(); ++f)
  {
    JointForecast& forecast = robot.forecasts[f];
    const bool any = !std::isnan(loads[f].mean()); // else the run ended with the forecast
    forecast.loadAfter = any ? loads[f].mean() : forecast.load;
    forecast.loadLowest = loads[f].lowest();
    forecast.loadHighest = loads[f].highest();
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (last.hot.sources[j] == ThermalThresholdSource::learned)
      robot.learnedThresholds[j] = last.hot.thresholds[j];
  const std::array<double, 25>& thresholds = taught ? *taught : robot.learnedThresholds;
  // A joint the earlier run did not teach takes the lowest threshold the robot learned on another joint: whether the
  // firmware has one threshold for all joints is not public (NaoFacts.md §18), but a team has no better guess.
  double lowest = notANumber;
  for (const double threshold : thresholds)
    if (!std::isnan(threshold) && !(threshold >= lowest)) lowest = threshold;
  for (JointForecast& forecast : robot.forecasts)
  {
    forecast.learnedThreshold = std::isnan(thresholds[forecast.joint]) ? lowest : thresholds[forecast.joint];
    // The module's own forecast (ThermalFilter.h): its logged nodes solved for the learned threshold less the ripple,
    // as the module solves its own (its course also leaves out the fast node's present swing, which the log does
    // not hold; that swing settles within loadWindow).
    solveForLearnedThreshold(forecast);
  }
  return robot;
}

void solveForLearnedThreshold(JointForecast& forecast)
{
  forecast.learnedLearning = forecast.learning;
  if (std::isnan(forecast.learnedThreshold))
  {
    forecast.learned = notANumber;
    return;
  }
  const double threshold = forecast.learnedThreshold - forecast.ripple;
  forecast.learned = timeToReach(forecast.nodes, forecast.load, threshold);
  // And its rule for a "never": one that the steady state's deviation does not rule out is the earliest time the fit
  // allows, flagged learning.
  if (std::isinf(forecast.learned))
    forecast.learnedLearning = earliestUnlessNeverRuledOut(
        forecast.nodes, forecast.load, forecast.steadyStdDev, &threshold, &forecast.learned, 1);
}

RunningLoad::RunningLoad(double start, double assumed, double memory)
    : memory_(memory), last_(start), running_(assumed), lowest_(assumed), highest_(assumed)
{
}

void RunningLoad::add(double time, double value)
{
  const double kept = std::exp(-std::max(time - last_, 0.0) / memory_);
  last_ = std::max(time, last_);
  running_ = kept * running_ + (1 - kept) * value;
  lowest_ = std::min(lowest_, running_);
  highest_ = std::max(highest_, running_);
  sum_ += value;
  ++count_;
}

bool loadHeld(const JointForecast& forecast)
{
  constexpr double floor = 0.01; // A²
  const auto within = [&](double load)
  {
    const double assumed = forecast.load + floor, lifted = load + floor;
    return lifted <= heldLoadFactor * assumed && assumed <= heldLoadFactor * lifted;
  };
  return within(forecast.loadAfter) && within(forecast.loadLowest) && within(forecast.loadHighest);
}

std::vector<ForecastErrors> forecastErrors(const std::vector<RobotThermalForecast>& robots,
                                           const std::vector<double>& horizons, bool learned)
{
  std::vector<ForecastErrors> table;
  for (const double horizon : horizons)
  {
    ForecastErrors errors;
    errors.horizon = horizon;
    std::vector<double> actual, signedErrors, absolute, relative, trusted, held, trustedHeld;
    for (const RobotThermalForecast& robot : robots)
      for (const JointForecast& forecast : robot.forecasts)
      {
        if (forecast.horizon != horizon) continue;
        const double value = learned ? forecast.learned : forecast.asRun;
        const bool reaches = std::isfinite(forecast.actual);
        errors.joints += reaches;
        if (std::isnan(value)) continue;
        if (!reaches)
        {
          ++errors.quietJoints;
          errors.soonWrongly += value < forecast.remaining;
          continue;
        }
        ++errors.forecasts;
        errors.neverWrongly += std::isinf(value);
        actual.push_back(forecast.actual);
        const double error = value - forecast.actual;
        signedErrors.push_back(error);
        absolute.push_back(std::abs(error));
        relative.push_back(std::abs(error) / std::max(forecast.actual, 1.0));
        const bool learning = learned ? forecast.learnedLearning : forecast.learning;
        const bool loadStayed = loadHeld(forecast);
        if (learning)
          ++errors.learning;
        else
          trusted.push_back(relative.back());
        if (loadStayed)
          held.push_back(relative.back());
        else
          ++errors.moved;
        if (!learning && loadStayed) trustedHeld.push_back(relative.back());
      }
    errors.actualMedian = percentile(actual, 0.5);
    errors.signedMedian = percentile(signedErrors, 0.5);
    errors.absoluteMedian = percentile(absolute, 0.5);
    errors.absolute90 = percentile(absolute, 0.9);
    errors.relativeMedian = percentile(relative, 0.5);
    errors.relative90 = percentile(relative, 0.9);
    const auto median = [](const std::vector<double>& v)
    { return v.empty() ? notANumber : percentile(v, 0.5); };
    const auto ninetieth = [](const std::vector<double>& v)
    { return v.empty() ? notANumber : percentile(v, 0.9); };
    errors.trustedMedian = median(trusted);
    errors.trusted90 = ninetieth(trusted);
    errors.heldMedian = median(held);
    errors.held90 = ninetieth(held);
    errors.trustedHeldMedian = median(trustedHeld);
    errors.trustedHeld90 = ninetieth(trustedHeld);
    table.push_back(errors);
  }
  return table;
}

std::vector<BudgetErrors> budgetErrors(const std::vector<RobotThermalForecast>& robots,
                                       const std::vector<double>& horizons)
{
  std::vector<BudgetErrors> table;
  for (const double horizon : horizons)
  {
    BudgetErrors errors;
    errors.horizon = horizon;
    std::vector<double> actual, relative, trusted;
    for (const RobotThermalForecast& robot : robots)
      for (const BudgetForecast& budget : robot.budgets)
      {
        if (budget.horizon != horizon) continue;
        if (budget.alreadyThere)
        {
          ++errors.alreadyThere;
          continue;
        }
        if (!std::isfinite(budget.actual))
        {
          ++errors.quietRobots;
          errors.soonWrongly += budget.asRun < budget.remaining;
          continue;
        }
        ++errors.robots;
        errors.neverWrongly += std::isinf(budget.asRun);
        actual.push_back(budget.actual);
        relative.push_back(std::abs(budget.asRun - budget.actual) / std::max(budget.actual, 1.0));
        if (budget.learning)
          ++errors.learning;
        else
          trusted.push_back(relative.back());
      }
    const auto at = [](const std::vector<double>& v, double p)
    { return v.empty() ? notANumber : percentile(v, p); };
    errors.actualMedian = at(actual, 0.5);
    errors.relativeMedian = at(relative, 0.5);
    errors.relative90 = at(relative, 0.9);
    errors.trustedMedian = at(trusted, 0.5);
    errors.trusted90 = at(trusted, 0.9);
    table.push_back(errors);
  }
  return table;
}

TaughtThresholds taughtThresholds(const std::vector<RobotThermalForecast>& robots)
{
  TaughtThresholds taught;
  for (const RobotThermalForecast& robot : robots)
    taught[robot.seed] = robot.learnedThresholds;
  return taught;
}

std::vector<RobotThermalForecast> evaluateThermalEnsemble(const std::filesystem::path& folder,
                                                          const std::vector<double>& horizons,
                                                          const TaughtThresholds* teacher)
{
  std::vector<std::filesystem::path> robotFolders;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    if (entry.is_directory() && entry.path().filename().string().rfind("robot-", 0) == 0)
      robotFolders.push_back(entry.path());
  if (robotFolders.empty() && std::filesystem::exists(folder / "summary.csv")) robotFolders.push_back(folder);
  if (robotFolders.empty())
    throw std::runtime_error(folder.string() + " holds neither a run's summary.csv nor robot-*/summary.csv");
  std::vector<RobotThermalForecast> robots;
  std::array<double, 25> none;
  none.fill(notANumber);
  for (const std::filesystem::path& robotDirectory : robotFolders)
  {
    const SimulationResult summary = readSummary(robotDirectory / "summary.csv");
    const std::filesystem::path log = robotDirectory / (summary.scenario + ".log");
    if (!std::filesystem::exists(log))
      throw std::runtime_error(log.string() + " does not exist (run the ensemble with --robot-logs)");
    if (!teacher)
      robots.push_back(evaluateThermalForecast(log, summary, horizons));
    else
    {
      const auto taught = teacher->find(summary.seed);
      robots.push_back(evaluateThermalForecast(log, summary, horizons,
                                               taught == teacher->end() ? &none : &taught->second));
    }
  }
  std::sort(robots.begin(), robots.end(),
            [](const RobotThermalForecast& a, const RobotThermalForecast& b) { return a.seed < b.seed; });
  return robots;
}

} // namespace nao
