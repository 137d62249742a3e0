#pragma once
// What besides the gyroscope says the robot falls (FallDownState::witness): the change a fall makes in sensors
// independent of the gyroscope. A sole whose load moved onto the edge the torso leans over (a robot tips about an
// edge of its support; a posture that rests on an edge, as a crouch on its heels, is no change), both feet
// unloaded, or an accelerometer that reads well below g for a while (a body tipping about its sole's edge reads
// g cos θ − l θ̇² along itself; a step's or a sway's dip lasts a few frames). Only sensors SensorHealth trusts count.
// Without a trusted gyroscope the sustained dip, for longer, is the fall itself. README.md of this folder.
#include "Modules/Modeling/FallDownStateDetector/FallDownStateParameters.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include <array>

namespace nao
{
class FallWitnesses
{
public:
  /// Once per frame: the feet's load on each edge and the accelerometer's norm, from trusted sensors only.
  void update(const FsrSensorData& fsr, bool fsrTrusted, const InertialSensorData& imu,
              bool accelerometerTrusted, double now, float dt, const FallDownStateParameters& p);

  /// A witness of a fall towards the lean (`front`, `left`: the world's up vector's share towards the torso's front
  /// and left, negated; FallDownStateDetector's Tilt); `robotMass` kg (0: unknown).
  FallWitness witness(float front, float left, float robotMass, const FallDownStateParameters& p) const;

  /// Without a trusted gyroscope: the accelerometer has read well below g for blindFallTime.
  bool accelerometerTips(const FallDownStateParameters& p) const
  {
    return accelerometerTrusted_ && lowFor_ >= p.blindFallTime;
  }
  /// Where the load went last (a fall's direction without a gyroscope); none if no edge took it lately.
  FallDirection lastEdge(const FallDownStateParameters& p) const
  {
    return now_ - lastEdgeTime_ <= p.edgeRiseTime ? lastEdge_ : FallDirection::none;
  }

private:
  enum Edge
  {
    frontEdge,
    rearEdge,
    outerEdge,
    edges
  };
  bool fsrTrusted_ = false, accelerometerTrusted_ = false;
  float totalWeight_ = 0;                           ///< kg on both feet
  std::array<std::array<float, edges>, 2> share_{}; ///< per foot (left, right): the load's share on each edge
  std::array<float, 2> weight_{};                   ///< kg per foot
  /// s, FrameInfo time the edge last carried less than edgeFreeShare (or the foot too little to count)
  std::array<std::array<double, edges>, 2> lastFree_{};
  double now_ = 0;
  float lowFor_ = 0; ///< s the accelerometer's norm has been witnessAccelerationDrop or more below g
  FallDirection lastEdge_ = FallDirection::none;
  double lastEdgeTime_ = -1e9; ///< s, when an edge last took the load
};
} // namespace nao
