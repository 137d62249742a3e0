#include "Platform/LoLA/LolaSensorConversion.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nao
{
namespace
{
template<std::size_t N>
bool allFinite(const std::array<float, N>& values, const char* key, FixedString<159>& error)
{
  for (std::size_t i = 0; i < N; ++i)
    if (!std::isfinite(values[i]))
    {
      char message[160];
      std::snprintf(message, sizeof(message), "key '%s' element %zu is not a finite number", key, i);
      error = std::string_view(message);
      return false;
    }
  return true;
}

bool validate(const LolaSensorFrame& frame, FixedString<159>& error)
{
  if (!allFinite(frame.stiffness, "Stiffness", error) || !allFinite(frame.position, "Position", error) ||
      !allFinite(frame.temperature, "Temperature", error) || !allFinite(frame.current, "Current", error) ||
      !allFinite(frame.accelerometer, "Accelerometer", error) ||
      !allFinite(frame.gyroscope, "Gyroscope", error) || !allFinite(frame.angles, "Angles", error) ||
      !allFinite(frame.fsr, "FSR", error))
    return false;
  // The status word may be anything (it is only tested for a bit); the other battery values reach modules.
  const std::array<float, 3> battery = {frame.battery[0], frame.battery[2], frame.battery[3]};
  if (!allFinite(battery, "Battery (charge, current, temperature)", error)) return false;
  for (std::size_t i = 0; i < frame.status.size(); ++i)
    if (frame.status[i] < 0 || frame.status[i] > 3)
    {
      char message[160];
      std::snprintf(message, sizeof(message), "key 'Status' element %zu: %d is not a temperature status 0..3",
                    i, static_cast<int>(frame.status[i]));
      error = std::string_view(message);
      return false;
    }
  return true;
}

void fillFoot(std::span<const float, 4> readings, std::span<const std::array<float, 2>, 4> positions,
              float contactThresholdKg, FsrFoot& foot)
{
  std::copy(readings.begin(), readings.end(), foot.readings.begin());
  foot.totalWeight = readings[0] + readings[1] + readings[2] + readings[3];
  foot.hasPressure = foot.totalWeight > contactThresholdKg;
  foot.centerOfPressure = foot.hasPressure ? centerOfPressure(readings, positions) : std::array<float, 2>{};
}
} // namespace

std::array<float, 2> centerOfPressure(std::span<const float, 4> readingsKg,
                                      std::span<const std::array<float, 2>, 4> positions)
{
  float sum = 0.f, x = 0.f, y = 0.f;
  for (std::size_t i = 0; i < 4; ++i)
  {
    const float weight = std::max(readingsKg[i], 0.f); // a sensor cannot pull the sole
    sum += weight;
    x += weight * positions[i][0];
    y += weight * positions[i][1];
  }
  if (sum <= 0.f) return {0.f, 0.f};
  return {x / sum, y / sum};
}

bool convertSensorFrame(const LolaSensorFrame& frame, const LolaConversionParameters& parameters,
                        LolaBodyReadings& readings, FixedString<159>& error)
{
  if (!validate(frame, error)) return false;

  JointSensorData& joints = readings.joints;
  for (std::size_t j = 0; j < lolaJointCount; ++j)
  {
    joints.angles[j] = frame.position[j];
    joints.currents[j] = frame.current[j];
    joints.temperatures[j] = frame.temperature[j];
    joints.status[j] = static_cast<TemperatureStatus>(frame.status[j]);
    joints.stiffnesses[j] = frame.stiffness[j];
  }

  const std::span<const float, 8> fsr(frame.fsr);
  const std::span<const std::array<float, 2>, 8> positions(parameters.fsrPositions);
  fillFoot(fsr.first<4>(), positions.first<4>(), parameters.contactThresholdKg, readings.fsr.left);
  fillFoot(fsr.last<4>(), positions.last<4>(), parameters.contactThresholdKg, readings.fsr.right);

  readings.inertial.gyro = frame.gyroscope;
  readings.inertial.accelerometer = specificForceFromLolaAccelerometer(frame.accelerometer);
  readings.inertial.angles = frame.angles;

  readings.battery.charge = frame.battery[static_cast<std::size_t>(LolaBattery::charge)];
  readings.battery.charging =
      lolaBatteryCharging(frame.battery[static_cast<std::size_t>(LolaBattery::status)]);
  readings.battery.current = frame.battery[static_cast<std::size_t>(LolaBattery::current)];
  readings.battery.temperature = frame.battery[static_cast<std::size_t>(LolaBattery::temperature)];
  for (std::size_t i = 0; i < TouchData::count; ++i)
    readings.touch.values[i] = std::isfinite(frame.touch[i]) ? frame.touch[i] : 0.f;
  return true;
}
} // namespace nao
