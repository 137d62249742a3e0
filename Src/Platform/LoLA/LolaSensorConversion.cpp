#include "Platform/LoLA/LolaSensorConversion.h"
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace nao
{
namespace
{
/// Marks and counts an unreadable value, naming the first of the frame in `error`.
class Marker
{
public:
  Marker(UnreadableReadings& unreadable, FixedString<159>& error) : unreadable_(unreadable), error_(error)
  {
    unreadable_ = UnreadableReadings{};
  }

  void mark(bool& flag, const char* key, std::size_t element, const char* what)
  {
    flag = true;
    if (unreadable_.count++ > 0) return;
    char message[160];
    std::snprintf(message, sizeof(message), "key '%s' element %zu %s: its last good value is kept", key,
                  element, what);
    error_ = std::string_view(message);
  }

  /// Copies the finite values of `from` into `to`, marking the others (which keep `to`'s value).
  template<class Target, std::size_t N, class Flags>
  void copyFinite(const std::array<float, N>& from, Target& to, Flags& flags, const char* key)
  {
    for (std::size_t i = 0; i < N; ++i)
      if (std::isfinite(from[i]))
        to[i] = from[i];
      else
        mark(flags[i], key, i, "is not a finite number");
  }

private:
  UnreadableReadings& unreadable_;
  FixedString<159>& error_;
};

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

std::size_t convertSensorFrame(const LolaSensorFrame& frame, const LolaConversionParameters& parameters,
                               LolaBodyReadings& readings, FixedString<159>& error)
{
  UnreadableReadings& unreadable = readings.unreadable;
  Marker marker(unreadable, error);
  JointSensorData& joints = readings.joints;
  marker.copyFinite(frame.position, joints.angles, unreadable.jointAngles, "Position");
  marker.copyFinite(frame.current, joints.currents, unreadable.jointCurrents, "Current");
  marker.copyFinite(frame.temperature, joints.temperatures, unreadable.jointTemperatures, "Temperature");
  marker.copyFinite(frame.stiffness, joints.stiffnesses, unreadable.jointStiffnesses, "Stiffness");
  for (std::size_t j = 0; j < lolaJointCount; ++j)
    if (frame.status[j] >= 0 && frame.status[j] <= 3)
      joints.status[j] = static_cast<TemperatureStatus>(frame.status[j]);
    else
      marker.mark(unreadable.jointStatus[j], "Status", j, "is not a temperature status 0..3");

  // The FSRs' totals and centres of pressure come from the readings kept, good and held alike.
  std::array<float, 8> fsr{};
  std::copy(readings.fsr.left.readings.begin(), readings.fsr.left.readings.end(), fsr.begin());
  std::copy(readings.fsr.right.readings.begin(), readings.fsr.right.readings.end(), fsr.begin() + 4);
  marker.copyFinite(frame.fsr, fsr, unreadable.fsr, "FSR");
  const std::span<const float, 8> fsrSpan(fsr);
  const std::span<const std::array<float, 2>, 8> positions(parameters.fsrPositions);
  fillFoot(fsrSpan.first<4>(), positions.first<4>(), parameters.contactThresholdKg, readings.fsr.left);
  fillFoot(fsrSpan.last<4>(), positions.last<4>(), parameters.contactThresholdKg, readings.fsr.right);

  marker.copyFinite(frame.gyroscope, readings.inertial.gyro, unreadable.gyro, "Gyroscope");
  // The accelerometer's sign is turned per axis: a held axis keeps its converted value.
  const std::array<float, 3> specificForce = specificForceFromLolaAccelerometer(frame.accelerometer);
  marker.copyFinite(specificForce, readings.inertial.accelerometer, unreadable.accelerometer,
                    "Accelerometer");
  marker.copyFinite(frame.angles, readings.inertial.angles, unreadable.imuAngles, "Angles");

  // The status word may be anything (it is only tested for a bit); the other battery values reach modules.
  const auto battery = [&](LolaBattery which) { return frame.battery[static_cast<std::size_t>(which)]; };
  const auto readBattery = [&](LolaBattery which, float& to)
  {
    const std::size_t i = static_cast<std::size_t>(which);
    if (std::isfinite(frame.battery[i]))
      to = frame.battery[i];
    else
      marker.mark(unreadable.battery[i], "Battery", i, "is not a finite number");
  };
  readBattery(LolaBattery::charge, readings.battery.charge);
  readBattery(LolaBattery::current, readings.battery.current);
  readBattery(LolaBattery::temperature, readings.battery.temperature);
  readings.battery.charging = lolaBatteryCharging(battery(LolaBattery::status));
  for (std::size_t i = 0; i < TouchData::count; ++i)
    if (std::isfinite(frame.touch[i]))
      readings.touch.values[i] = frame.touch[i];
    else
    {
      readings.touch.values[i] = 0.f; // not pressed: an unreadable button presses nothing
      marker.mark(unreadable.touch[i], "Touch", i, "is not a finite number");
    }
  return unreadable.count;
}
} // namespace nao
