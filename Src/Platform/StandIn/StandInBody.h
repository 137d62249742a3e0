#pragma once
// A deterministic in-process body: no simulator, no robot. Joints follow the request through a first-order
// lag (or a script decides the readings), the feet carry the robot's weight evenly, the torso is upright, the
// battery runs down at the rate its current draws. The IMU, the FSRs and the battery current read a tiny seeded
// noise, so that they never repeat themselves exactly as a stuck sensor does (SensorHealthProvider), too small to
// matter to any figure a test computes from them. It
// lets the framework, modules and tools run and be tested anywhere; the LoLA body replaces it on the robot
// and in the simulator.
#include "Platform/Body.h"
#include <chrono>
#include <functional>

namespace nao
{
class StandInBody : public Body
{
public:
  struct Options
  {
    std::uint32_t frames = 1000;      ///< packets before the body ends
    double frameSeconds = 0.012;      ///< s of body time per packet (LoLA: 12 ms)
    bool realTime = false;            ///< pace packets in wall-clock time; false: as fast as the loop runs
    double followTimeConstant = 0.05; ///< s, first-order lag of measured angles toward requested ones
    float currentPerStiffness = 0.1f; ///< A drawn per unit of stiffness (a stand-in, not a motor model)
    float robotMass = 5.305f;         ///< kg carried by the 8 FSRs (NaoFacts.md §9: 5.48 kg, less the feet)
    float batteryCurrent = -1.5f;     ///< A drawn from the battery (negative: discharging)
    float batteryCapacity = 2.9f;     ///< A·h (NAO6 datasheet)
    /// Optional script: called after the defaults were filled, may overwrite any joint reading.
    std::function<void(std::uint32_t frame, JointSensorData& joints)> script;
  };

  explicit StandInBody(Options options);
  bool waitForSensors(BodySensors& sensors) override;
  void send(const JointRequest& request) override;
  const char* name() const override { return "StandIn"; }

  const JointRequest& lastRequest() const { return lastRequest_; }
  std::uint32_t framesSent() const { return framesSent_; }

private:
  Options options_;
  std::uint32_t frame_ = 0;
  std::uint32_t framesSent_ = 0;
  JointRequest lastRequest_;
  JointSensorData joints_;
  float charge_ = 1.f;       ///< 0..1
  std::uint32_t random_ = 1; ///< the noise's generator state (a linear congruential one: no allocation)
  /// Noise uniform in ±amplitude.
  float noise(float amplitude);
  std::chrono::steady_clock::time_point nextPacket_;
};
} // namespace nao
