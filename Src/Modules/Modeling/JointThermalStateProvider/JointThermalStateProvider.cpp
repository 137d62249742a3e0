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
  prior_ = {p.rise, p.riseFactor, p.timeConstant, p.timeConstantFactor, p.ambient, p.ambientStdDev};
  noise_.measurementVariance = static_cast<double>(p.temperatureStep) * p.temperatureStep / 12.0 +
                               static_cast<double>(p.sensorNoise) * p.sensorNoise;
  noise_.temperatureDrift = p.temperatureDrift;
  noise_.logRiseDrift = p.riseDrift;
  noise_.logRateDrift = p.timeConstantDrift;
  noise_.ambientDrift = p.ambientDrift;
  noise_.gate = p.gate;
  noise_.maxRejections = p.maxRejections;
  noise_.minRise = std::min(p.minRise, p.maxRise);
  noise_.maxRise = p.maxRise;
  noise_.minTimeConstant = std::min(p.minTimeConstant, p.maxTimeConstant);
  noise_.maxTimeConstant = p.maxTimeConstant;
  noise_.minAmbient = std::min(p.minAmbient, p.maxAmbient);
  noise_.maxAmbient = p.maxAmbient;

  const int blocks = std::clamp(static_cast<int>(std::lround(p.loadWindow / stepPeriod)), 1, maxLoadBlocks);
  const std::array<float, 3> priors = {p.hotThreshold, p.veryHotThreshold, p.criticallyHotThreshold};
  for (JointModel& joint : joints_)
  {
    if (blocks != loadBlocks_ || !thresholdsSet_)
    {
      joint.loadBlocks = {};
      joint.nextBlock = joint.blocks = 0;
      joint.loadSum = 0;
    }
    for (std::size_t s = 0; s < 3; ++s) // a new prior replaces a prior, never what the robot taught
      if (!thresholdsSet_ || joint.sources[s] == ThermalThresholdSource::prior)
      {
        joint.thresholds[s] = priors[s];
        joint.sources[s] = ThermalThresholdSource::prior;
      }
  }
  loadBlocks_ = blocks;
  thresholdsSet_ = true;
  configured_ = true;
}

void JointThermalStateProvider::learnThresholds(std::size_t j, TemperatureStatus status)
{
  JointModel& joint = joints_[j];
  const int now = static_cast<int>(status);
  if (now > 3) return; // not a status LoLA sends: ignored
  const int before = seenStatus_ ? static_cast<int>(statuses_[j]) : now;
  statuses_[j] = status;
  if (now <= before || !joint.filter.initialised()) return;
  // A rise into status `now`: its threshold is the estimate now (the lowest such estimate is kept); a status jumped
  // over begins at most there.
  const float estimate = static_cast<float>(joint.filter.temperature());
  const std::size_t s = static_cast<std::size_t>(now - 1);
  if (joint.sources[s] != ThermalThresholdSource::learned || estimate < joint.thresholds[s])
    joint.thresholds[s] = estimate;
  joint.sources[s] = ThermalThresholdSource::learned;
  for (std::size_t lower = 0; lower < s; ++lower)
    joint.thresholds[lower] = std::min(joint.thresholds[lower], estimate);
}

void JointThermalStateProvider::step(std::size_t j, double time, const JointSensorData& sensors,
                                     JointThermalState& state)
{
  JointModel& joint = joints_[j];
  if (samples_[j] > 0) joint.lastSquaredCurrent = static_cast<double>(squaredCurrentSums_[j]) / samples_[j];
  const double squaredCurrent = joint.lastSquaredCurrent;
  squaredCurrentSums_[j] = 0;
  samples_[j] = 0;

  // The present load: the mean of the last loadBlocks_ windows.
  if (joint.blocks == loadBlocks_)
    joint.loadSum -= joint.loadBlocks[static_cast<std::size_t>(joint.nextBlock)];
  else
    ++joint.blocks;
  joint.loadBlocks[static_cast<std::size_t>(joint.nextBlock)] = static_cast<float>(squaredCurrent);
  joint.loadSum += static_cast<float>(squaredCurrent);
  joint.nextBlock = (joint.nextBlock + 1) % loadBlocks_;

  const float reading = sensors.temperatures[j];
  const bool plausible =
      reading >= params().minTemperature && reading <= params().maxTemperature; // NaN: false
  if (!joint.filter.initialised())
  {
    if (plausible)
      joint.filter.initialise(reading, prior_, noise_);
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

  // The robot says "below status s" at an estimate above a prior of s: that prior was too low.
  if (joint.filter.initialised() && seenStatus_)
  {
    const float estimate = static_cast<float>(joint.filter.temperature());
    for (std::size_t s = static_cast<std::size_t>(statuses_[j]); s < 3; ++s)
      if (joint.sources[s] != ThermalThresholdSource::learned && estimate > joint.thresholds[s])
      {
        joint.thresholds[s] = estimate;
        joint.sources[s] = ThermalThresholdSource::lowerBound;
      }
  }
  writeJoint(j, state);
}

void JointThermalStateProvider::writeJoint(std::size_t j, JointThermalState& state) const
{
  const JointModel& joint = joints_[j];
  const ThermalFilter& filter = joint.filter;
  state.valid[j] = filter.initialised();
  const double load = joint.blocks > 0 ? std::max(joint.loadSum / joint.blocks, 0.0) : 0.0;
  state.rmsCurrents[j] = static_cast<float>(std::sqrt(load));
  for (int s = 1; s <= 3; ++s)
  {
    ThermalStatusForecast& forecast = state.forecast(s);
    forecast.thresholds[j] = joint.thresholds[static_cast<std::size_t>(s - 1)];
    forecast.sources[j] = joint.sources[static_cast<std::size_t>(s - 1)];
  }
  if (!filter.initialised())
  {
    for (int s = 1; s <= 3; ++s)
      state.forecast(s).times[j] = std::numeric_limits<float>::infinity();
    return;
  }
  const double temperature = filter.temperature();
  const double steady = filter.ambient() + filter.rise() * load;
  state.temperatures[j] = static_cast<float>(temperature);
  state.temperatureStdDevs[j] = static_cast<float>(std::sqrt(std::max(filter.temperatureVariance(), 0.0)));
  state.rises[j] = static_cast<float>(filter.rise());
  state.timeConstants[j] = static_cast<float>(filter.timeConstant());
  state.ambients[j] = static_cast<float>(filter.ambient());
  state.steadyTemperatures[j] = static_cast<float>(steady);
  for (int s = 1; s <= 3; ++s)
    state.forecast(s).times[j] = static_cast<float>(timeToReach(
        temperature, steady, filter.timeConstant(), joint.thresholds[static_cast<std::size_t>(s - 1)]));
}

void JointThermalStateProvider::update(JointThermalState& state)
{
  if (!configured_) configure();
  const JointSensorData& sensors = get<JointSensorData>();
  const float maxSquared = params().maxCurrent * params().maxCurrent;
  // Branch-free, so that it runs four joints at a time: heat goes with I², so a negative current counts by its
  // magnitude, any current (also ±∞) by at most maxCurrent; NaN is skipped (NaN stays NaN through std::min).
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float squared = std::min(sensors.currents[j] * sensors.currents[j], maxSquared);
    const bool valid = squared == squared;
    squaredCurrentSums_[j] += valid ? squared : 0.f;
    samples_[j] += valid ? 1 : 0;
  }
  if (!seenStatus_ ||
      std::memcmp(statuses_.values.data(), sensors.status.values.data(), sizeof(statuses_)) != 0)
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (!seenStatus_ || sensors.status[j] != statuses_[j]) learnThresholds(j, sensors.status[j]);
    seenStatus_ = true;
  }

  // The output is written in full when it does not hold this module's last frame (the first frame, or after the
  // framework reset it to its default), else only for the joint that stepped.
  const bool fresh = steps_ == 0 || state.steps != steps_;
  step(next_, get<FrameInfo>().time, sensors, state);
  next_ = (next_ + 1) % numOfJoints;
  ++steps_;
  if (fresh)
    for (std::size_t j = 0; j < numOfJoints; ++j)
      writeJoint(j, state);
  state.steps = steps_;
  state.rejectedReadings = rejectedReadings_;
}

MAKE_MODULE(JointThermalStateProvider);
} // namespace nao
