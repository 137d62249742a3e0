// Smart Stiffness after NAOqi 2.8's description (../shared/seeds, the 000 file; NAOqi's code is closed). Rules:
//
// Static. The stage limits only while the posture is static: no requested angle has moved more than
//   requestThreshold from where it last rested, no measured joint is faster than maxJointSpeed, and both have
//   held for settleTime (why 5 s: below). NAOqi: "If at least one joint moves, the user Stiffness command is
//   applied on all joints." The frame a request moves or a joint is fast (a push, a fall, an arm motion) every joint gets the
//   user's stiffness in that same frame: this stage is before the LoLA answer of the frame, so the motors see
//   full stiffness 12 ms after the request moved, as without the stage. The threshold is against the resting
//   request, not the previous frame's: a request that creeps (a balancer's hundredths of a degree per frame)
//   releases once it has crept requestThreshold in total.
// Needed stiffness. Stiffness is a torque limit (Aldebaran), a fraction of the motor's torque at stiffness 1:
//   needed = margin × |τ_static| / τ_max(joint, temperature status) + floor, at most 1.
//   τ_static: JointTorques (gravity and the feet's contact forces from the FSRs; NAOqi's simplification: no
//   accelerations, no Coriolis, no external forces). τ_max: the motor table the simulator runs on
//   (MotorTorqueLimits), times what the firmware leaves at the joint's temperature status: a hot motor needs a
//   larger fraction of its reduced torque; a critically hot one (factor 0) keeps the user's stiffness.
//   margin covers what the static model leaves out: small accelerations and velocity terms while settled, model
//   errors (mass calibration, CoM), FSR noise and the part of the position error the board needs before it
//   pushes (1.5: the load may be misjudged by a third). floor keeps every joint position-held: a joint with
//   no static load (a hanging arm's roll, the head) would otherwise be free and any touch would move it.
// Sag. A joint whose motor cannot hold within the limit gives way: measured − request (of sagDelayFrames ago,
//   the final JointRequest including the heat adjustment's offsets) departs from what it was at activation by
//   more than sagTolerance. With raiseOnSag the joint gets the user's stiffness until the request moves.
// User priority. final = min(user, needed) per joint (NAOqi: user 0.2 on HeadYaw, computed 0.38 -> 0.2).
// Bad input (a NaN angle, request or torque, JointTorques not valid, a frame gap beyond maxFrameGap, the
//   first frame): the user's stiffness for every joint, and the settle time starts again. The output is then
//   exactly what an inactive stage gives, so a bad value never makes a stiffness jump below the user's.
// The heat adjustment behind (EnergySavingProvider) searches, joint by joint, the angle offset at which the
//   motor draws least, comparing the filtered current from round to round. Stiffness is a torque limit: a limit
//   that binds or lets go between two of its rounds changes the current whatever the offset did, and the
//   search then compares two stiffnesses. Measured (20 simulated robots, standjitter): a leg limited during the
//   search stayed pinned at its limit (0.4-0.7 A instead of 0.16-0.5 A without the stage), and a hip yaw-pitch
//   limited to 0.1 gave way by 1°, the search followed it, and on settling jumped back to an offset it had
//   found at full stiffness (0.9° in one frame). So the two take turns per joint, through representations:
//   (1) this stage limits a joint only while the heat adjustment does not search it (EnergySaving::searching,
//   last frame's: settled, at or below its threshold, or not adjusted); a joint it searches keeps the user's
//   stiffness, so the search always runs at one stiffness; (2) the heat adjustment starts a joint's search
//   afresh, without a step, when the stiffness it gets changed since its last round (a release, the user);
//   (3) the sag rule measures against the final request, so the heat adjustment's offsets are never taken for
//   a sag. A settled joint holds its offset, and a lower limit only lowers its current, which never restarts
//   the search (that takes a rise). settleTime (5 s) is NAOqi-like caution against limiting during short
//   pauses of a motion. releasePinnedJoints (off by default) hands a joint pinned at its limit back to the
//   user's stiffness (README, "Smart stiffness").
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

void SmartStiffnessProvider::update(StiffnessJointRequest& request)
{
  computeFrame();
  const CollisionFreeJointRequest& input = get<CollisionFreeJointRequest>();
  request.angles = input.angles;
  request.stiffnesses = status_.stiffnesses;
}

void SmartStiffnessProvider::update(SmartStiffness& smartStiffness)
{
  computeFrame();
  smartStiffness = status_;
}

void SmartStiffnessProvider::computeFrame()
{
  const FrameInfo& frame = get<FrameInfo>();
  if (computed_ && frame.frameNumber == computedFrame_ && frame.time == computedTime_) return;
  computed_ = true;
  computedFrame_ = frame.frameNumber;
  computedTime_ = frame.time;

  const SmartStiffnessParameters& p = params();
  const CollisionFreeJointRequest& input = get<CollisionFreeJointRequest>();
  const JointSensorData& sensors = get<JointSensorData>();
  const JointTorques& torques = get<JointTorques>();
  const double now = frame.time;
  const float dt = hasTime_ ? static_cast<float>(now - lastTime_) : 0.f;

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
  const float largestRequestChange = lanes::largestLane(requestChanges);
  const float largestStep = lanes::largestLane(steps);
  const bool valid = hasTime_ && dt > 0.f && dt <= p.maxFrameGap && torques.valid && finite;
  const bool requestMoved = !hasTime_ || largestRequestChange > p.requestThreshold;
  const bool jointsMoving = largestStep > p.maxJointSpeed * dt;
  if (requestMoved || !valid) reference_ = input.angles; // a bad request is replaced by the next good one
  lastMeasured_ = sensors.angles;
  lastTime_ = now;
  hasTime_ = true;

  SmartStiffnessState state = SmartStiffnessState::settling;
  if (!p.enabled)
    state = SmartStiffnessState::disabled;
  else if (!valid)
    state = SmartStiffnessState::invalidInput;
  else if (requestMoved)
    state = SmartStiffnessState::requestMoved;
  else if (jointsMoving)
    state = SmartStiffnessState::jointsMoving;
  if (state != SmartStiffnessState::settling)
    staticSince_ = now;
  else if (now - staticSince_ >= p.settleTime)
    state = SmartStiffnessState::active;
  const bool active = state == SmartStiffnessState::active;
  status_.state = state;
  status_.staticTime = static_cast<float>(now - staticSince_);

  updateSag(active);
  const bool checkPinned = active && p.releasePinnedJoints;
  if (!checkPinned && pinnedChecked_) // forget the pinned state once, not every frame
  {
    status_.pinned.fill(false);
    pinnedSince_.fill(-1);
  }
  pinnedChecked_ = checkPinned;

  // The motors' torque at stiffness 1 under each joint's temperature status: looked up again only when a
  // status changed (rarely: minutes apart), so that the frame's loop below needs no table lookup.
  if (!(sensors.status == lastStatus_))
  {
    lastStatus_ = sensors.status;
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const std::size_t status = std::min<std::size_t>(static_cast<std::size_t>(sensors.status.values[j]), 3);
      status_.maxTorques.values[j] = maxTorques_[status].values[j];
      inverseMaxTorque_.values[j] = inverseMaxTorques_[status].values[j];
    }
  }
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
        const lanes::Ints full = Lane::flags(status_.sagging.values.data(), j) | ~(computed < one);
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

void SmartStiffnessProvider::updateSag(bool active)
{
  const SmartStiffnessParameters& p = params();
  const bool justActive = active && !wasActive_;
  wasActive_ = active;
  // A joint that gave way keeps the user's stiffness until the request moves: in this posture its load is more
  // than the static model says (a sitting NAO's knees), and limiting it again after the next settle time would
  // let it give way again, each time brought back at full stiffness.
  if (status_.state == SmartStiffnessState::requestMoved || status_.state == SmartStiffnessState::disabled)
    status_.sagging.fill(false);
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
    if (change > p.sagTolerance && std::isfinite(change)) status_.sagging.values[j] = true;
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
