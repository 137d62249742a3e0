#include "Platform/StandIn/StandInBody.h"
#include <cmath>
#include <thread>

namespace nao
{
StandInBody::StandInBody(Options options) : options_(std::move(options))
{
  joints_.temperatures.fill(30.f);
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
    fsr.readings.fill(options_.robotMass / 8.f);
    fsr.totalWeight = options_.robotMass / 2.f;
    fsr.centerOfPressure = {0.02f, 0.f};
    fsr.hasPressure = true;
  }
  sensors.inertial = InertialSensorData{};
  sensors.battery.charge = 1.f - 1e-5f * static_cast<float>(frame_);
  ++frame_;
  return true;
}

void StandInBody::send(const JointRequest& request)
{
  lastRequest_ = request;
  ++framesSent_;
}
} // namespace nao
