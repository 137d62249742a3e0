#include "Platform/StandIn/StandInBody.h"
#include <cmath>
#include <thread>

namespace nao
{
StandInBody::StandInBody(Options options) : options_(std::move(options))
{
  joints_.temperatures.fill(30.f);
}

float StandInBody::noise(float amplitude)
{
  random_ = random_ * 1664525u + 1013904223u; // Numerical Recipes' constants
  return amplitude * (static_cast<float>(random_ >> 8) / static_cast<float>(1u << 24) * 2.f - 1.f);
}

bool StandInBody::waitForSensors(BodySensors& sensors)
{
  if (frame_ >= options_.frames) return false;
  if (options_.realTime)
  {
    if (frame_ == 0) nextPacket_ = std::chrono::steady_clock::now();
    nextPacket_ += std::chrono::nanoseconds(static_cast<long long>(options_.frameSeconds * 1e9));
    std::this_thread::sleep_until(nextPacket_);
  }
  const float alpha = static_cast<float>(
      1.0 - std::exp(-options_.frameSeconds / std::max(options_.followTimeConstant, 1e-6)));
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    joints_.angles[j] += alpha * (lastRequest_.angles[j] - joints_.angles[j]);
    joints_.stiffnesses[j] = lastRequest_.stiffnesses[j];
    joints_.currents[j] = options_.currentPerStiffness * lastRequest_.stiffnesses[j];
  }
  if (options_.script) options_.script(frame_, joints_);
  sensors.joints = joints_;

  sensors.frameInfo.frameNumber = frame_;
  sensors.frameInfo.time = frame_ * options_.frameSeconds;
  for (Foot foot : {Foot::left, Foot::right})
  {
    FsrFoot& fsr = sensors.fsr[foot];
    fsr.totalWeight = 0;
    for (float& reading : fsr.readings)
    {
      reading = options_.robotMass / 8.f + noise(2e-6f); // kg
      fsr.totalWeight += reading;
    }
    fsr.centerOfPressure = {0.02f, 0.f};
    fsr.hasPressure = true;
  }
  sensors.inertial = InertialSensorData{};
  for (std::size_t axis = 0; axis < 3; ++axis)
  {
    sensors.inertial.gyro[axis] = noise(1e-5f);           // rad/s
    sensors.inertial.accelerometer[axis] += noise(1e-4f); // m/s²
  }
  sensors.inertial.angles = {noise(1e-6f), noise(1e-6f)}; // rad
  sensors.battery.current = options_.batteryCurrent + noise(1e-3f);
  charge_ += static_cast<float>(options_.batteryCurrent * options_.frameSeconds /
                                (options_.batteryCapacity * 3600.0));
  sensors.battery.charge = charge_;
  ++frame_;
  return true;
}

void StandInBody::send(const JointRequest& request)
{
  lastRequest_ = request;
  ++framesSent_;
}
} // namespace nao
