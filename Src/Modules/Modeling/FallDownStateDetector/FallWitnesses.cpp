#include "Modules/Modeling/FallDownStateDetector/FallWitnesses.h"
#include <cmath>

namespace nao
{
void FallWitnesses::update(const FsrSensorData& fsr, bool fsrTrusted, const InertialSensorData& imu,
                           bool accelerometerTrusted, double now, float dt, const FallDownStateParameters& p)
{
  now_ = now;
  fsrTrusted_ = fsrTrusted;
  accelerometerTrusted_ = accelerometerTrusted;
  const std::array<float, 3>& f = imu.accelerometer;
  const float norm = std::sqrt(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
  lowFor_ = accelerometerTrusted && norm <= p.gravity - p.witnessAccelerationDrop ? lowFor_ + dt : 0.f;
  if (!fsrTrusted)
  {
    for (auto& foot : lastFree_)
      foot.fill(now); // nothing is known of the feet: an edge must be seen to take the load anew
    return;
  }
  totalWeight_ = fsr.left.totalWeight + fsr.right.totalWeight;
  for (std::size_t side = 0; side < 2; ++side)
  {
    // LoLA's order per foot: FrontLeft, FrontRight, RearLeft, RearRight; the outer pair is the left one of the left
    // foot and the right one of the right foot (a foot does not tip over its inner edge: the other foot is there).
    const FsrFoot& foot = side == 0 ? fsr.left : fsr.right;
    const std::array<float, 4>& r = foot.readings;
    weight_[side] = foot.totalWeight;
    const bool counts = foot.totalWeight >= p.minWitnessLoad;
    const std::array<float, edges> load = {r[0] + r[1], r[2] + r[3], side == 0 ? r[0] + r[2] : r[1] + r[3]};
    for (std::size_t e = 0; e < edges; ++e)
    {
      share_[side][e] = counts ? load[e] / foot.totalWeight : 0.f;
      if (share_[side][e] < p.edgeFreeShare) lastFree_[side][e] = now;
      if (share_[side][e] >= p.edgeLoadShare && now - lastFree_[side][e] <= p.edgeRiseTime)
      {
        lastEdgeTime_ = now;
        lastEdge_ = e == frontEdge  ? FallDirection::front
                    : e == rearEdge ? FallDirection::back
                    : side == 0     ? FallDirection::left
                                    : FallDirection::right;
      }
    }
  }
}

FallWitness FallWitnesses::witness(float front, float left, float robotMass,
                                   const FallDownStateParameters& p) const
{
  if (!fsrTrusted_ && !accelerometerTrusted_) return FallWitness::noWitness;
  if (fsrTrusted_)
  {
    if (robotMass > 0 && totalWeight_ < p.unloadedShare * robotMass) return FallWitness::feetUnloaded;
    // An edge the torso leans over that took the load lately: front or rear as it leans forward or back, the outer
    // edge of the foot on the side it leans to.
    for (std::size_t side = 0; side < 2; ++side)
      for (std::size_t e = 0; e < edges; ++e)
      {
        const bool towards = e == frontEdge  ? front > 0
                             : e == rearEdge ? front < 0
                             : side == 0     ? left > 0
                                             : left < 0;
        if (towards && share_[side][e] >= p.edgeLoadShare && now_ - lastFree_[side][e] <= p.edgeRiseTime)
          return FallWitness::soleEdge;
      }
  }
  if (accelerometerTrusted_ && lowFor_ >= p.witnessLowTime) return FallWitness::accelerometer;
  return FallWitness::none;
}
} // namespace nao
