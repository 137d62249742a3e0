#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace nao
{
void JointThermalStateProvider::configure()
{
  const JointThermalStateParameters& p = params();
  configurePriors(p);
  configureBasis(p);
  LoadWindow::Settings load;
  load.shortBlocks =
      std::clamp(static_cast<int>(std::lround(p.loadWindow / stepPeriod)), 1, LoadWindow::maxBlocks);
  load.longBlocks = std::clamp(static_cast<int>(std::lround(p.cycleWindow / stepPeriod)), load.shortBlocks,
                               LoadWindow::maxBlocks);
  load.changeRatio = p.loadChangeRatio;
  load.changeFloor = static_cast<double>(p.loadChangeFloor) * p.loadChangeFloor;
  load.trendRatio = p.loadTrendRatio;
  // Other windows: what the blocks were summed for no longer holds.
  if (!thresholdsSet_ || load.shortBlocks != loadSettings_.shortBlocks ||
      load.longBlocks != loadSettings_.longBlocks)
    for (JointModel& joint : joints_)
      joint.load.clear();
  configureThresholds(p);
  loadSettings_ = load;
  thresholdsSet_ = true;
  configured_ = true;
  // Thresholds, windows or the basis may have changed: each joint forecasts at its next step, the τ_i are written.
  forecastDue_.fill(true);
  timeConstantsDue_ = true;
}

void JointThermalStateProvider::configurePriors(const JointThermalStateParameters& p)
{
  prior_ = {p.rise, p.riseStdDev, p.startRiseStdDev, p.ambient, p.ambientStdDev};
  // What an earlier run kept (README.md, "Kept across restarts"): the robot's ambient as T_amb's start (its
  // deviation stays: the room may differ), a joint's node gains as its start (all 0: the prior's split of rise).
  const std::array<const JointArray<float>*, ThermalNodes::maxNodes> taughtGains = {
      &p.taughtNodeGains0, &p.taughtNodeGains1, &p.taughtNodeGains2, &p.taughtNodeGains3};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    ThermalPrior& prior = jointPriors_[j];
    prior = prior_;
    prior.ambientTaught = p.taughtAmbient != 0.f;
    if (prior.ambientTaught) prior.ambient = p.taughtAmbient;
    prior.taughtRiseStdDev = p.taughtRiseStdDev;
    for (std::size_t i = 0; i < ThermalNodes::maxNodes; ++i)
      prior.gains[i] = std::max(0.f, (*taughtGains[i])[j]); // NaN: 0
  }
}

void JointThermalStateProvider::configureBasis(const JointThermalStateParameters& p)
{
  noise_.nodes = p.nodes;
  noise_.fastestTimeConstant = p.fastestTimeConstant;
  noise_.ratio = p.nodeRatio;
  noise_.measurementVariance = static_cast<double>(p.temperatureStep) * p.temperatureStep / 12.0 +
                               static_cast<double>(p.sensorNoise) * p.sensorNoise;
  noise_.temperatureDrift = p.temperatureDrift;
  noise_.riseDrift = p.riseDrift;
  noise_.ambientDrift = p.ambientDrift;
  noise_.gate = p.gate;
  noise_.maxRejections = p.maxRejections;
  noise_.maxRise = p.maxRise;
  noise_.minAmbient = std::min(p.minAmbient, p.maxAmbient);
  noise_.maxAmbient = p.maxAmbient;
  // A changed basis starts every joint's fit over (its state means nothing in another basis).
  ThermalFilter basis;
  basis.configure(noise_);
  const ThermalNodes nodes = basis.model();
  for (std::size_t i = 0; i < ThermalNodes::maxNodes; ++i) // a node not used: 0 (its gain is 0 too)
    nodeTimeConstants_[i] = static_cast<int>(i) < nodes.nodes ? nodes.slowest / nodes.powers[i] : 0.0;
  // A node that settles within loadWindow follows a cycle's swings; a slower one averages them (and would sum the
  // error of a load mean that is not yet a whole cycle's for longer than a cycle).
  rippleSettings_ = ThermalRipple::settings(nodeTimeConstants_, stepPeriod, p.loadWindow, p.cycleWindow);
  for (JointModel& joint : joints_)
    if (joint.filter.initialised() && !joint.filter.sameBasis(basis)) joint.filter = ThermalFilter{};
}

void JointThermalStateProvider::configureThresholds(const JointThermalStateParameters& p)
{
  priors_ = {p.hotThreshold, p.veryHotThreshold, p.criticallyHotThreshold};
  const std::array<float, 3>& priors = priors_;
  const std::array<const JointArray<float>*, 3> taught = {&p.taughtHotThresholds, &p.taughtVeryHotThresholds,
                                                          &p.taughtCriticallyHotThresholds};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    JointModel& joint = joints_[j];
    // What an earlier run taught replaces a prior and a lower lower bound; a new prior replaces a prior. Neither
    // replaces what the robot taught in this run. A taught threshold that an edit removed (0) goes back to the prior.
    for (std::size_t s = 0; s < 3; ++s)
    {
      const float earlier = (*taught[s])[j];
      const ThermalThresholdSource source = joint.sources[s];
      const bool replaceable =
          !thresholdsSet_ || source == ThermalThresholdSource::prior ||
          source == ThermalThresholdSource::taught ||
          (source == ThermalThresholdSource::lowerBound && earlier > joint.thresholds[s]);
      if (earlier > 0.f && replaceable)
      {
        joint.thresholds[s] = earlier;
        joint.sources[s] = ThermalThresholdSource::taught;
      }
      else if (!thresholdsSet_ || source == ThermalThresholdSource::prior ||
               (source == ThermalThresholdSource::taught && earlier <= 0.f))
      {
        joint.thresholds[s] = priors[s];
        joint.sources[s] = ThermalThresholdSource::prior;
      }
    }
  }
}

void JointThermalStateProvider::learnThresholds(std::size_t j, TemperatureStatus status, double time)
{
  JointModel& joint = joints_[j];
  const int now = static_cast<int>(status);
  if (now > 3) return; // not a status LoLA sends: ignored
  const int before = seenStatus_ ? static_cast<int>(statuses_[j]) : now;
  statuses_[j] = status;
  if (joint.pendingStatus > now) // fell back before it was confirmed: it flapped
  {
    joint.pendingStatus = 0;
    ++faultyStatusChanges_;
  }
  if (now <= before || !joint.filter.initialised()) return;
  // A rise into status `now` is a candidate only where the temperature could have caused it: by one status (the
  // temperature is continuous), at an estimate near the status's prior. Its estimate is kept until it is confirmed.
  const float estimate = static_cast<float>(joint.filter.temperature());
  const std::size_t s = static_cast<std::size_t>(now - 1);
  if (now - before > 1 || !(std::abs(estimate - priors_[s]) <= params().statusBand))
  {
    ++faultyStatusChanges_;
    return;
  }
  joint.pendingStatus = now;
  joint.pendingEstimate = estimate;
  joint.pendingSince = time;
}

void JointThermalStateProvider::confirmThreshold(std::size_t j, double time)
{
  // A status held for statusHoldTime: its threshold is the estimate when it rose (the lowest such estimate is kept).
  JointModel& joint = joints_[j];
  if (joint.pendingStatus == 0 || time - joint.pendingSince < params().statusHoldTime) return;
  const std::size_t s = static_cast<std::size_t>(joint.pendingStatus - 1);
  const float estimate = joint.pendingEstimate;
  joint.pendingStatus = 0;
  if (joint.sources[s] != ThermalThresholdSource::learned || estimate < joint.thresholds[s])
    joint.thresholds[s] = estimate;
  joint.sources[s] = ThermalThresholdSource::learned;
  // A status below begins at most there.
  for (std::size_t lower = 0; lower < s; ++lower)
    joint.thresholds[lower] = std::min(joint.thresholds[lower], estimate);
}

bool JointThermalStateProvider::step(std::size_t j, double time, const JointSensorData& sensors,
                                     JointThermalState& state)
{
  JointModel& joint = joints_[j];
  const bool wasInitialised = joint.filter.initialised();
  const unsigned changesBefore = joint.load.changes();
  const std::array<float, 3> thresholdsBefore = joint.thresholds;
  if (samples_[j] > 0) joint.lastSquaredCurrent = static_cast<double>(squaredCurrentSums_[j]) / samples_[j];
  const double squaredCurrent = joint.lastSquaredCurrent;
  squaredCurrentSums_[j] = 0;
  samples_[j] = 0;

  joint.load.add(squaredCurrent, loadSettings_);

  const float reading = sensors.temperatures[j];
  const bool plausible =
      reading >= params().minTemperature && reading <= params().maxTemperature; // NaN: false
  if (!joint.filter.initialised())
  {
    if (plausible)
      joint.filter.initialise(reading, jointPriors_[j], noise_);
    else
      ++rejectedReadings_;
  }
  else
  {
    // A time that went backwards predicts nothing; a stalled process predicts over maxStepTime at most.
    const double dt = std::clamp(time - joint.lastStepTime, 0.0, static_cast<double>(params().maxStepTime));
    if (dt > 0) joint.filter.predict(dt, squaredCurrent, noise_);
    if (!plausible || !joint.filter.correct(reading, noise_)) ++rejectedReadings_;
  }
  joint.lastStepTime = time;
  // The load's swing about its mean, which a periodic load repeats every cycle (its peaks reach a status first).
  if (joint.load.changes() != changesBefore || !wasInitialised || !joint.filter.initialised())
    joint.ripple.restart(time);
  else
    joint.ripple.add(squaredCurrent - joint.load.load(), &joint.filter.state()[ThermalFilter::gainIndex],
                     time, rippleSettings_);

  confirmThreshold(j, time);
  // The robot says "below status s" at an estimate above a prior of s: that prior was too low (raised by at most
  // statusBand: a status word stuck low is a fault, not a lesson).
  if (joint.filter.initialised() && seenStatus_)
  {
    const float estimate = static_cast<float>(joint.filter.temperature());
    for (std::size_t s = static_cast<std::size_t>(statuses_[j]); s < 3; ++s)
    {
      const float bound = std::min(estimate, priors_[s] + params().statusBand);
      if (joint.sources[s] != ThermalThresholdSource::learned && bound > joint.thresholds[s])
      {
        joint.thresholds[s] = bound;
        joint.sources[s] = ThermalThresholdSource::lowerBound;
      }
    }
  }
  writeEstimate(j, state);
  // What changes a forecast at once rather than by drift: a start, a new load (the window started again), a threshold.
  return joint.filter.initialised() != wasInitialised || joint.load.changes() != changesBefore ||
         joint.thresholds != thresholdsBefore;
}

void JointThermalStateProvider::writeEstimate(std::size_t j, JointThermalState& state) const
{
  const JointModel& joint = joints_[j];
  const ThermalFilter& filter = joint.filter;
  state.valid[j] = filter.initialised();
  const double load = joint.load.load();
  state.rmsCurrents[j] = static_cast<float>(std::sqrt(load));
  state.loadWindows[j] = static_cast<float>(joint.load.blocks() * stepPeriod);
  for (int s = 1; s <= 3; ++s)
  {
    ThermalStatusForecast& forecast = state.forecast(s);
    forecast.thresholds[j] = joint.thresholds[static_cast<std::size_t>(s - 1)];
    forecast.sources[j] = joint.sources[static_cast<std::size_t>(s - 1)];
  }
  if (!filter.initialised()) return;
  // From the filter's state directly, over all maxNodes places (a node not used holds 0 there, so the sums are
  // ThermalNodes' bit for bit): no copy, no loop of a length known only at run time.
  const ThermalFilter::Vector& x = filter.state();
  constexpr std::size_t gainIndex = ThermalFilter::gainIndex;
  double gain = 0, weighted = 0; // ThermalNodes::gain and effectiveTimeConstant with τ_i of configure()
  for (std::size_t i = 0; i < ThermalNodes::maxNodes; ++i)
  {
    gain += x[gainIndex + i];
    weighted += x[gainIndex + i] * nodeTimeConstants_[i];
  }
  state.temperatures[j] = static_cast<float>(filter.temperature());
  state.temperatureStdDevs[j] = static_cast<float>(std::sqrt(std::max(filter.temperatureVariance(), 0.0)));
  state.rises[j] = static_cast<float>(gain);
  state.timeConstants[j] = static_cast<float>(gain > 0 ? weighted / gain : nodeTimeConstants_[0]);
  state.ambients[j] = static_cast<float>(filter.ambient());
  state.steadyTemperatures[j] = static_cast<float>(filter.ambient() + gain * load);
  for (std::size_t i = 0; i < JointThermalState::maxNodes; ++i)
  {
    state.nodeRises[i][j] = static_cast<float>(x[i]);
    state.nodeGains[i][j] = static_cast<float>(x[gainIndex + i]);
  }
}

void JointThermalStateProvider::writeForecast(std::size_t j, JointThermalState& state) const
{
  const JointModel& joint = joints_[j];
  const ThermalFilter& filter = joint.filter;
  if (!filter.initialised())
  {
    for (int s = 1; s <= 3; ++s)
      state.forecast(s).times[j] = std::numeric_limits<float>::infinity();
    state.timeStdDevs[j] = std::numeric_limits<float>::infinity();
    state.steadyStdDevs[j] = std::numeric_limits<float>::infinity();
    state.learning[j] = true;
    state.ripples[j] = 0.f;
    writePosture(j, ThermalNodes{}, 0.0, state);
    return;
  }
  const double load = joint.load.load();
  const ThermalNodes present = filter.model();
  // The course at the mean load (each node less its swing) reaches a status where its peaks, `ripple` above it, do.
  ThermalNodes nodes = present;
  for (std::size_t i = 0; i < ThermalNodes::maxNodes; ++i)
    nodes.rises[i] = std::max(nodes.rises[i] - nodes.gains[i] * joint.ripple.response(i), 0.0);
  const double ripple = joint.ripple.ripple();
  state.ripples[j] = static_cast<float>(ripple);
  const double swingVariance = 0.0625 * ripple * ripple;
  const double steadyDeviation = std::sqrt(filter.forecastVarianceAt(0.0, load) + swingVariance); // K
  state.steadyStdDevs[j] = static_cast<float>(steadyDeviation);
  // The next status not reached decides the confidence: the forecast's standard deviation from the temperature's
  // predicted there (hᵀPh, and a quarter of the ripple for the fast gain it is computed from) over the rate of rise
  // there; a "never" is confident when the steady state stays two standard deviations below the threshold.
  const std::array<double, 3> thresholds = {joint.thresholds[0] - ripple, joint.thresholds[1] - ripple,
                                            joint.thresholds[2] - ripple};
  std::array<double, 3> times{};
  timesToReach(nodes, load, thresholds.data(), times.data(), 3);
  bool nextFound = false;
  for (int s = 1; s <= 3; ++s)
  {
    const double time = times[static_cast<std::size_t>(s - 1)];
    state.forecast(s).times[j] = static_cast<float>(time);
    if (nextFound || time <= 0) continue;
    nextFound = true;
    double deviation = std::numeric_limits<double>::infinity();
    bool learning = true;
    if (std::isfinite(time))
    {
      double slope = 0;
      const double z = std::exp(-time / nodes.slowest);
      nodes.at(z, load, slope);
      const double rate = -slope * z / nodes.slowest; // K/s, dT/dt = dT/dz · dz/dt
      if (rate > 0) deviation = std::sqrt(filter.forecastVarianceAt(z, load) + swingVariance) / rate;
      learning = !(deviation <= params().learningSpread * time);
    }
    else
    {
      // A "never" the fit cannot yet rule out is no forecast to act on: while learning, the time is the earliest
      // that the fit allows, every gain raised so that the steady state is two standard deviations higher.
      const int first = s - 1;
      learning = earliestUnlessNeverRuledOut(nodes, load, steadyDeviation, thresholds.data() + first,
                                             times.data() + first, 3 - first);
      state.forecast(s).times[j] = static_cast<float>(times[static_cast<std::size_t>(first)]);
    }
    state.timeStdDevs[j] = static_cast<float>(deviation);
    state.learning[j] = learning;
  }
  if (!nextFound)
  {
    state.timeStdDevs[j] = 0.f; // at every threshold: nothing to forecast
    state.learning[j] = false;
  }
  writePosture(j, present, load, state);
}

void JointThermalStateProvider::update(JointThermalState& state)
{
  if (!configured_) configure();
  const JointSensorData& sensors = get<JointSensorData>();
  // A newly named posture (or one that changed which joints are limp) is forecast for every joint at once.
  const ForecastPosture& posture = get<ForecastPosture>();
  const bool postureChanged = posture.name != posture_.name || std::memcmp(posture.stiffnesses.values.data(),
                                                                           posture_.stiffnesses.values.data(),
                                                                           sizeof(posture_.stiffnesses)) != 0;
  if (postureChanged) posture_ = posture;
  const float maxSquared = params().maxCurrent * params().maxCurrent;
  // Branch-free, so that it runs four joints at a time: heat goes with I², so a negative current counts by its
  // magnitude; a current beyond maxCurrent (also ±∞) is a fault of the reading and skipped like NaN (NaN fails
  // every comparison): clamped, it would drive the fast nodes of an unlearned joint far off within a second.
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float squared = sensors.currents[j] * sensors.currents[j];
    const bool valid = squared <= maxSquared;
    squaredCurrentSums_[j] += valid ? squared : 0.f;
    samples_[j] += valid ? 1 : 0;
  }
  if (!seenStatus_ ||
      std::memcmp(statuses_.values.data(), sensors.status.values.data(), sizeof(statuses_)) != 0)
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (!seenStatus_ || sensors.status[j] != statuses_[j])
        learnThresholds(j, sensors.status[j], get<FrameInfo>().time);
    seenStatus_ = true;
  }

  // The output is written in full when it does not hold this module's last frame (the first frame, or after the
  // framework reset it to its default), else only for the joint that stepped.
  const bool fresh = steps_ == 0 || state.steps != steps_ || postureChanged;
  if (fresh || timeConstantsDue_) // the same for every joint until the parameters change
  {
    for (std::size_t i = 0; i < JointThermalState::maxNodes; ++i)
      state.nodeTimeConstants[i] = static_cast<float>(nodeTimeConstants_[i]);
    timeConstantsDue_ = false;
  }
  // The stepped joint's forecast in its turn (the header: forecastEvery): round r forecasts the joints j with (r + j)
  // % forecastEvery == 0, so that a frame forecasts one joint in forecastEvery on average; at once where the step
  // changed more than the drift of the fit, or the parameters changed since its last step.
  const bool changed = step(next_, get<FrameInfo>().time, sensors, state);
  const std::uint32_t round = steps_ / numOfJoints;
  if (changed || forecastDue_[next_] || (round + next_) % forecastEvery == 0)
  {
    writeForecast(next_, state);
    forecastDue_[next_] = false;
  }
  next_ = next_ + 1 == numOfJoints ? 0 : next_ + 1;
  ++steps_;
  if (fresh)
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      writeEstimate(j, state);
      writeForecast(j, state);
    }
  state.steps = steps_;
  state.rejectedReadings = rejectedReadings_;
  state.faultyStatusChanges = faultyStatusChanges_;
}

MAKE_MODULE(JointThermalStateProvider);
} // namespace nao
