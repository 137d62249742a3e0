// NAOqi's Smart Stiffness: while the posture is static, each joint's stiffness = min(user, what its static torque
// needs); a joint the heat adjustment behind searches keeps the user's stiffness; a joint whose current or tracking
// error rose under its limit gets it back (the guard). Every rule and why: README.md of this folder.
#include "Modules/MotionControl/SmartStiffnessProvider/SmartStiffnessProvider.h"
#include "Modules/MotionControl/SmartStiffnessProvider/JointLanes.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace nao
{
namespace
{
constexpr float nan = std::numeric_limits<float>::quiet_NaN();
} // namespace

SmartStiffnessProvider::SmartStiffnessProvider(const ModuleContext& context) : Module(context)
{
  reference_.fill(nan);
  lastMeasured_.fill(nan);
  sagAtStart_.fill(nan);
  status_.needed.fill(1.f);
  pinnedSince_.fill(-1);
  releasedSince_.fill(-1);
  currentMean_.fill(0.f);
  aboveSince_.fill(-1);
  status_.references.fill(nan);
  // 1 / max torque per temperature status and joint, so that a frame needs no division (critically hot: +inf).
  const MotorTorqueLimits& limits = loaded<MotorTorqueLimits>();
  for (std::size_t s = 0; s < inverseMaxTorques_.size(); ++s)
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      maxTorques_[s].values[j] = limits.maxTorque(j, static_cast<TemperatureStatus>(s));
      inverseMaxTorques_[s].values[j] = 1.f / maxTorques_[s].values[j];
    }
  lastStatus_.fill(TemperatureStatus::regular);
  inverseMaxTorque_ = inverseMaxTorques_[0];
  status_.maxTorques = maxTorques_[0];
}

void SmartStiffnessProvider::update(StiffnessJointRequest& request, SmartStiffness& smartStiffness)
{
  computeFrame();
  request.angles = get<CollisionFreeJointRequest>().angles;
  request.stiffnesses = status_.stiffnesses;
  smartStiffness = status_;
}

void SmartStiffnessProvider::computeFrame()
{
  const double now = get<FrameInfo>().time;
  const float dt = hasTime_ ? static_cast<float>(now - lastTime_) : 0.f;
  const FrameMotion motion = observeFrame(now, dt);
  const bool active = updateState(motion, now);
  updateSag(active);
  const bool checkPinned = active && params().releasePinnedJoints;
  if (!checkPinned && pinnedChecked_) // forget the pinned state once, not every frame
  {
    status_.pinned.fill(false);
    pinnedSince_.fill(-1);
  }
  pinnedChecked_ = checkPinned;
  updateMaxTorques();
  computeStiffnesses(active, checkPinned, now);
  updateGuard(now, dt, motion.valid);
}

SmartStiffnessProvider::FrameMotion SmartStiffnessProvider::observeFrame(double now, float dt)
{
  const SmartStiffnessParameters& p = params();
  const CollisionFreeJointRequest& input = get<CollisionFreeJointRequest>();
  const JointSensorData& sensors = get<JointSensorData>();
  const JointTorques& torques = get<JointTorques>();
  if (hasTime_) // last frame's final request, for the sag rule
  {
    requestHistory_[historyNext_] = get<JointRequest>().angles;
    historyNext_ = (historyNext_ + 1) % historySize;
    historyCount_ = std::min(historyCount_ + 1, historySize);
  }

  // One pass over the joints, four at a time (JointLanes.h). x − x is 0 for every finite x and NaN otherwise:
  // a NaN or infinite angle, request or torque makes `nonFinite` non-zero. The largest request change and
  // joint step decide motion (a NaN drops out of the maximum; the first frame has no reference yet).
  lanes::Floats nonFinite{}, requestChanges{}, steps{};
  lanes::forEachLane(
      [&]<class Lane>(std::size_t j, Lane)
      {
        const lanes::Floats request = Lane::load(input.angles.values.data(), j);
        const lanes::Floats measured = Lane::load(sensors.angles.values.data(), j);
        const lanes::Floats torque = Lane::load(torques.torques.values.data(), j);
        nonFinite += (request - request) + (measured - measured) + (torque - torque);
        requestChanges =
            lanes::max(requestChanges, lanes::abs(request - Lane::load(reference_.values.data(), j)));
        steps = lanes::max(steps, lanes::abs(measured - Lane::load(lastMeasured_.values.data(), j)));
      });
  const bool finite =
      nonFinite[0] == 0.f && nonFinite[1] == 0.f && nonFinite[2] == 0.f && nonFinite[3] == 0.f;
  FrameMotion motion;
  motion.valid = hasTime_ && dt > 0.f && dt <= p.maxFrameGap && torques.valid && finite;
  motion.requestMoved = !hasTime_ || lanes::largestLane(requestChanges) > p.requestThreshold;
  motion.jointsMoving = lanes::largestLane(steps) > p.maxJointSpeed * dt;
  if (motion.requestMoved || !motion.valid)
    reference_ = input.angles; // a bad request is replaced by the next good one
  lastMeasured_ = sensors.angles;
  lastTime_ = now;
  hasTime_ = true;
  return motion;
}

bool SmartStiffnessProvider::updateState(const FrameMotion& motion, double now)
{
  const SmartStiffnessParameters& p = params();
  SmartStiffnessState state = SmartStiffnessState::settling;
  if (!p.enabled)
    state = SmartStiffnessState::disabled;
  else if (!motion.valid)
    state = SmartStiffnessState::invalidInput;
  else if (!get<JointTorques>()
                .sensorsTrusted) // a limit is lowered only on what trusted sensors say the posture needs
    state = SmartStiffnessState::sensorsDistrusted;
  else if (!motionSourceHolds(get<FallDownState>(), get<SitDown>(), get<FallProtection>()))
    state = SmartStiffnessState::takenOver;
  else if (motion.requestMoved)
    state = SmartStiffnessState::requestMoved;
  else if (motion.jointsMoving)
    state = SmartStiffnessState::jointsMoving;
  if (state != SmartStiffnessState::settling)
    staticSince_ = now;
  else if (now - staticSince_ >= p.settleTime)
    state = SmartStiffnessState::active;
  status_.state = state;
  status_.staticTime = static_cast<float>(now - staticSince_);
  return state == SmartStiffnessState::active;
}

void SmartStiffnessProvider::updateMaxTorques()
{
  // The motors' torque at stiffness 1 under each joint's temperature status: looked up again only when a
  // status changed (rarely: minutes apart), so that the frame's loop needs no table lookup.
  const JointSensorData& sensors = get<JointSensorData>();
  if (sensors.status == lastStatus_) return;
  lastStatus_ = sensors.status;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::size_t status = std::min<std::size_t>(static_cast<std::size_t>(sensors.status.values[j]), 3);
    status_.maxTorques.values[j] = maxTorques_[status].values[j];
    inverseMaxTorque_.values[j] = inverseMaxTorques_[status].values[j];
  }
}

void SmartStiffnessProvider::computeStiffnesses(bool active, bool checkPinned, double now)
{
  const SmartStiffnessParameters& p = params();
  const JointTorques& torques = get<JointTorques>();
  const CollisionFreeJointRequest& input = get<CollisionFreeJointRequest>();
  status_.torques = torques.torques;
  status_.heatSearching = get<EnergySaving>().searching;
  // Per joint, without branches: needed = margin × |τ| / τ_max + floor, 1 when sagging or not below 1
  // (critically hot: 1 / 0 = +inf gives +inf or NaN); final = min(user, needed) where the stage limits, i.e.
  // active and not searched by the heat adjustment (its rounds must compare one stiffness), else the user's.
  const lanes::Floats margin = lanes::Floats{} + p.margin, floor = lanes::Floats{} + p.floor;
  const lanes::Floats one = lanes::Floats{} + 1.f;
  lanes::forEachLane(
      [&]<class Lane>(std::size_t j, Lane)
      {
        const lanes::Floats computed = margin * lanes::abs(Lane::load(torques.torques.values.data(), j)) *
                                           Lane::load(inverseMaxTorque_.values.data(), j) +
                                       floor;
        const lanes::Ints full = Lane::flags(status_.sagging.values.data(), j) |
                                 Lane::flags(status_.guarded.values.data(), j) | ~(computed < one);
        Lane::store(status_.needed.values.data(), j, full ? one : computed);
      });
  if (checkPinned)
    for (std::size_t j = 0; j < numOfJoints; ++j)
      if (updatePinned(j, now, status_.needed.values[j])) status_.needed.values[j] = 1.f;
  const lanes::Ints limiting = lanes::Ints{} + (active ? -1 : 0);
  lanes::forEachLane(
      [&]<class Lane>(std::size_t j, Lane)
      {
        const lanes::Floats user = Lane::load(input.stiffnesses.values.data(), j);
        const lanes::Floats needed = Lane::load(status_.needed.values.data(), j);
        const lanes::Ints limit = limiting & ~Lane::flags(status_.heatSearching.values.data(), j);
        Lane::store(status_.stiffnesses.values.data(), j, limit ? (needed < user ? needed : user) : user);
      });
}

void SmartStiffnessProvider::updateGuard(double now, float dt, bool valid)
{
  const SmartStiffnessParameters& p = params();
  const JointArray<float>& currents = get<JointSensorData>().currents;
  const JointArray<float>& user = get<CollisionFreeJointRequest>().stiffnesses;
  const float alpha = valid ? std::min(1.f, dt / p.currentFilterTime) : 0.f;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float current = std::abs(currents.values[j]);
    if (std::isfinite(current)) currentMean_.values[j] += alpha * (current - currentMean_.values[j]);
    const bool limitedNow = p.guardEnabled && status_.stiffnesses.values[j] < user.values[j];
    if (!limitedNow)
    {
      limited_.values[j] = false;
      aboveSince_.values[j] = -1;
      status_.references.values[j] = nan;
      continue;
    }
    if (!limited_.values[j])
    {
      // The limit begins: what the joint draws at the user's stiffness is its reference.
      limited_.values[j] = true;
      status_.references.values[j] = currentMean_.values[j];
      continue;
    }
    const float reference = status_.references.values[j];
    if (!(currentMean_.values[j] > reference * (1.f + p.guardMarginFraction) + p.guardMarginCurrent))
    {
      aboveSince_.values[j] = -1;
      continue;
    }
    if (aboveSince_.values[j] < 0) aboveSince_.values[j] = now;
    if (now - aboveSince_.values[j] < p.guardTime || status_.guarded.values[j]) continue;
    status_.guarded.values[j] = true; // the user's stiffness from the next frame on, until the request moves
    guardEvent(j, SmartStiffnessGuardRule::currentRose, now);
  }
}

void SmartStiffnessProvider::guardEvent(std::size_t joint, SmartStiffnessGuardRule rule, double now)
{
  ++status_.guardEvents;
  status_.lastGuardJoint = jointAt(joint);
  status_.lastGuardRule = rule;
  status_.lastGuardTime = static_cast<float>(now);
}

void SmartStiffnessProvider::updateSag(bool active)
{
  const SmartStiffnessParameters& p = params();
  const bool justActive = active && !wasActive_;
  wasActive_ = active;
  // A joint that gave way keeps the user's stiffness until the request moves: in this posture its load is more
  // than the static model says (a sitting NAO's knees), and limiting it again after the next settle time would
  // let it give way again, each time brought back at full stiffness.
  if (status_.state == SmartStiffnessState::requestMoved || status_.state == SmartStiffnessState::disabled)
  {
    status_.sagging.fill(false);
    status_.guarded.fill(false);
  }
  const std::size_t delay = std::min<std::size_t>(static_cast<std::size_t>(p.sagDelayFrames), historyCount_);
  if (!active || delay == 0) return;
  const JointArray<float>& old = requestHistory_[(historyNext_ + historySize - delay) % historySize];
  const JointArray<float>& measured = get<JointSensorData>().angles;
  if (justActive)
  {
    for (std::size_t j = 0; j < numOfJoints; ++j)
      sagAtStart_.values[j] = measured.values[j] - old.values[j];
    return;
  }
  if (!p.raiseOnSag) return;
  // The largest change of a joint not sagging yet, without branches (a joint that sags keeps the user's
  // stiffness until the request moves; its start is set again when the stage becomes active again). A NaN
  // change drops out of the maximum; an infinite one goes to the exact check below, which ignores it.
  lanes::Floats changes{};
  lanes::forEachLane(
      [&]<class Lane>(std::size_t j, Lane)
      {
        const lanes::Floats change =
            lanes::abs(Lane::load(measured.values.data(), j) - Lane::load(old.values.data(), j) -
                       Lane::load(sagAtStart_.values.data(), j));
        changes =
            lanes::max(changes, Lane::flags(status_.sagging.values.data(), j) ? lanes::Floats{} : change);
      });
  const float largest = lanes::largestLane(changes);
  if (!(largest > p.sagTolerance)) return; // nearly every frame
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const float change = std::abs(measured.values[j] - old.values[j] - sagAtStart_.values[j]);
    if (change > p.sagTolerance && std::isfinite(change) && !status_.sagging.values[j])
    {
      status_.sagging.values[j] = true;
      guardEvent(j, SmartStiffnessGuardRule::trackingErrorRose, get<FrameInfo>().time);
    }
  }
}

bool SmartStiffnessProvider::updatePinned(std::size_t j, double now, float computed)
{
  const SmartStiffnessParameters& p = params();
  bool& pinned = status_.pinned.values[j];
  // The current the motor draws at a stiffness: stiffness × max torque / (N·m per A). The applied limit is
  // last frame's output; the one it would get back, `computed`.
  const float current = std::abs(get<JointSensorData>().currents.values[j]);
  const float perStiffness =
      status_.maxTorques.values[j] / loaded<MotorTorqueLimits>().torquePerAmpere.values[j];
  if (pinned)
  {
    if (now - releasedSince_.values[j] >= p.releaseTime &&
        current < p.pinnedFraction * computed * perStiffness)
    {
      pinned = false; // the stage behind has brought the current below the limit: the limit holds again
      pinnedSince_.values[j] = -1;
    }
    return pinned;
  }
  const float applied = status_.stiffnesses.values[j];
  const bool limited = applied < get<CollisionFreeJointRequest>().stiffnesses.values[j];
  if (!limited || !(current >= p.pinnedFraction * applied * perStiffness))
  {
    pinnedSince_.values[j] = -1;
    return false;
  }
  if (pinnedSince_.values[j] < 0) pinnedSince_.values[j] = now;
  if (now - pinnedSince_.values[j] < p.pinnedTime) return false;
  pinned = true;
  releasedSince_.values[j] = now;
  return true;
}

MAKE_MODULE(SmartStiffnessProvider);
} // namespace nao
