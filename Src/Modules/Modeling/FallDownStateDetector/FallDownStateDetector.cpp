#include "Modules/Modeling/FallDownStateDetector/FallDownStateDetector.h"
#include <algorithm>
#include <cmath>

namespace nao
{
Tilt tiltOf(const std::array<float, 4>& orientation, const std::array<float, 3>& gyro)
{
  const float w = orientation[0], x = orientation[1], y = orientation[2], z = orientation[3];
  // Rows of the rotation matrix torso → world that are needed.
  const float r02 = 2 * (x * z + w * y), r12 = 2 * (y * z - w * x);
  const float r20 = 2 * (x * z - w * y), r21 = 2 * (y * z + w * x), r22 = 1 - 2 * (x * x + y * y);
  const float r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - w * z);
  const float r10 = 2 * (x * y + w * z), r11 = 1 - 2 * (x * x + z * z);
  Tilt tilt;
  tilt.angle = std::acos(std::clamp(r22, -1.f, 1.f));
  // The angular velocity in the world frame; the part about the horizontal axis that tips the torso's z further.
  const float wx = r00 * gyro[0] + r01 * gyro[1] + r02 * gyro[2];
  const float wy = r10 * gyro[0] + r11 * gyro[1] + r12 * gyro[2];
  tilt.speed = std::sqrt(gyro[0] * gyro[0] + gyro[1] * gyro[1] + gyro[2] * gyro[2]);
  const float lean = std::hypot(r02, r12);
  if (lean < 1e-4f)
    tilt.rate = std::hypot(wx, wy); // upright: any horizontal turn tips it
  else
    tilt.rate = (-r12 * wx + r02 * wy) / lean; // about e_z × (lean direction)
  // Where the torso leans, in its own frame: the world's up vector there is (r20, r21, r22).
  tilt.front = -r20;
  tilt.left = -r21;
  return tilt;
}

namespace
{
template<class Side>
Side sideOf(const Tilt& tilt)
{
  if (std::abs(tilt.front) >= std::abs(tilt.left)) return tilt.front >= 0 ? Side::front : Side::back;
  return tilt.left >= 0 ? Side::left : Side::right;
}
} // namespace

void FallDownStateDetector::enter(FallDownState& state, FallState next)
{
  state.state = next;
  state.timeInState = 0;
  calmFor_ = stillFor_ = 0;
}

void FallDownStateDetector::updateTilt(float dt)
{
  const InertialData& inertial = get<InertialData>();
  if (!inertial.valid) return; // the last good tilt
  const float lastRate = tilt_.rate;
  tilt_ = tiltOf(inertial.orientation, inertial.gyro);
  if (!inertial.gyroUsed && haveAngle_ && dt > 0)
  {
    // No trusted gyroscope: the rate is the tilt's own change (the accelerometer's and the soles' estimate),
    // smoothed over a few frames against their noise.
    const float raw = (tilt_.angle - lastAngle_) / dt;
    tilt_.rate = 0.5f * lastRate + 0.5f * raw;
    tilt_.speed = std::abs(tilt_.rate);
  }
  lastAngle_ = tilt_.angle;
  haveAngle_ = true;
}

void FallDownStateDetector::update(FallDownState& state)
{
  const double time = get<FrameInfo>().time;
  const float dt = seen_ ? static_cast<float>(std::clamp(time - lastTime_, 0.0, 0.1)) : 0.f;
  seen_ = true;
  lastTime_ = time;
  updateTilt(dt);
  // The feet's load counts only from FSRs SensorHealth trusts: "lifted" needs both feet's word.
  const SensorHealth& health = get<SensorHealth>();
  const bool fsrTrusted = health[Sensor::leftFsr].trusted() && health[Sensor::rightFsr].trusted();
  witnesses_.update(get<FsrSensorData>(), fsrTrusted, get<InertialSensorData>(),
                    health[Sensor::accelerometer].trusted(), time, dt, params());
  updateTimers(fsrTrusted, dt);
  state.tilt = tilt_.angle;
  state.timeInState += dt;
  transition(state, evidence(fsrTrusted));
}

void FallDownStateDetector::updateTimers(bool fsrTrusted, float dt)
{
  const FallDownStateParameters& p = params();
  const FsrSensorData& fsr = get<FsrSensorData>();
  const float weight = fsr.left.totalWeight + fsr.right.totalWeight;
  if (fsrTrusted && weight < p.liftedWeight)
  {
    unloadedFor_ += dt;
    loadedFor_ = 0;
  }
  else if (!fsrTrusted || weight >= p.liftedWeight) // a NaN weight from trusted FSRs moves neither timer
  {
    loadedFor_ += dt; // without trusted FSRs nothing says the robot is in the air
    unloadedFor_ = 0;
  }
  const Tilt& t = tilt_;
  calmFor_ = t.angle < p.uprightTilt && t.rate < p.staggerRate ? calmFor_ + dt : 0;
  stillFor_ = t.angle > p.fallenTilt && t.speed < p.stillRate ? stillFor_ + dt : 0;
}

FallDownStateDetector::Evidence FallDownStateDetector::evidence(bool fsrTrusted) const
{
  const FallDownStateParameters& p = params();
  const Tilt& t = tilt_;
  Evidence evidence;
  evidence.lying = stillFor_ >= p.fallenTime;
  evidence.tipping = t.angle >= p.minFallingTilt && t.rate >= p.minFallingRate &&
                     t.angle + t.rate * p.lookahead >= p.fallingTilt;
  const float mass = get<RobotModel>().totalMass;
  evidence.witness = evidence.tipping ? witnesses_.witness(t.front, t.left, mass, p) : FallWitness::none;
  // Without a trusted gyroscope the estimate hardly tilts while the robot tips (the accelerometer reads along the
  // tipping body): a dip of the accelerometer's norm that lasts blindFallTime is the fall itself, if the feet (when
  // trusted) agree that the load left them or went onto an edge.
  const bool blind = !get<InertialData>().gyroUsed && witnesses_.accelerometerTips(p) &&
                     (!fsrTrusted || witnesses_.lastEdge(p) != FallDirection::none ||
                      witnesses_.witness(0, 0, mass, p) == FallWitness::feetUnloaded);
  if (!evidence.tipping && blind) evidence.witness = FallWitness::accelerometer;
  evidence.falling = (evidence.tipping || blind) && evidence.witness != FallWitness::none;
  return evidence;
}

void FallDownStateDetector::transition(FallDownState& state, const Evidence& evidence)
{
  const FallDownStateParameters& p = params();
  const Tilt& t = tilt_;
  switch (state.state)
  {
  case FallState::upright:
  case FallState::staggering:
    if (unloadedFor_ >= p.liftedTime && t.angle < p.staggerTilt)
      enter(state, FallState::lifted);
    else if (evidence.falling)
    {
      enter(state, FallState::falling);
      state.direction = evidence.tipping || witnesses_.lastEdge(p) == FallDirection::none
                            ? sideOf<FallDirection>(t)
                            : witnesses_.lastEdge(p);
      state.side = FallenSide::none;
      state.witness = evidence.witness;
      ++state.falls;
    }
    else if (evidence.lying) // lying without a fall seen (a start on the floor)
    {
      enter(state, FallState::fallen);
      state.side = sideOf<FallenSide>(t);
    }
    else if (state.state == FallState::upright && (t.angle > p.staggerTilt || t.rate > p.staggerRate))
      enter(state, FallState::staggering);
    else if (state.state == FallState::staggering && calmFor_ >= p.uprightTime)
      enter(state, FallState::upright);
    break;
  case FallState::falling:
    if (evidence.lying)
    {
      enter(state, FallState::fallen);
      state.side = sideOf<FallenSide>(t);
    }
    else if (calmFor_ >= p.uprightTime) // caught: it did not fall after all
    {
      enter(state, FallState::upright);
      state.direction = FallDirection::none;
    }
    break;
  case FallState::fallen:
    if (get<InertialData>().valid && t.angle > p.fallenTilt)
      state.side = sideOf<FallenSide>(t); // it may roll over
    if (calmFor_ >= p.standUpTime)
    {
      enter(state, FallState::upright);
      state.direction = FallDirection::none;
      state.side = FallenSide::none;
    }
    break;
  case FallState::lifted:
    if (loadedFor_ >= p.landedTime)
      enter(state, t.angle > p.staggerTilt ? FallState::staggering : FallState::upright);
    else if (evidence.lying)
    {
      enter(state, FallState::fallen);
      state.side = sideOf<FallenSide>(t);
    }
    break;
  }
}

MAKE_MODULE(FallDownStateDetector);
} // namespace nao
