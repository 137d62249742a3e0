#include "Modules/MotionControl/EnergySavingProvider/HandOver.h"

#include "Modules/MotionControl/EnergySavingProvider/EnergySavingParameters.h"

#include <cmath>
#include <limits>

namespace nao
{
HandOver::HandOver()
{
  helping_.fill(-1);
  direction_.fill(1.f);
  start_.fill(0.f);
  stuckCurrent_.fill(0.f);
  lastRequest_.fill(std::numeric_limits<float>::quiet_NaN());
}

int HandOver::mirrorOf(std::size_t j)
{
  // The pitch joints of both legs turn about parallel axes and share the body's pitching load.
  constexpr std::size_t left = index(Joint::LHipPitch), right = index(Joint::RHipPitch);
  constexpr std::size_t count = index(Joint::LAnklePitch) - left + 1;
  if (j >= left && j < left + count) return static_cast<int>(j + (right - left));
  if (j >= right && j < right + count) return static_cast<int>(j - (right - left));
  return -1;
}

bool HandOver::involves(std::size_t j) const
{
  const int mirror = mirrorOf(j);
  return helping_[j] >= 0 ||
         (mirror >= 0 && helping_[static_cast<std::size_t>(mirror)] == static_cast<int>(j));
}

int HandOver::pusherOf(std::size_t j) const
{
  const int mirror = mirrorOf(j);
  return mirror >= 0 && helping_[static_cast<std::size_t>(mirror)] == static_cast<int>(j) ? mirror : -1;
}

void HandOver::reset()
{
  helping_.fill(-1);
  round_.fill(0);
  tries_.fill(0);
}

void HandOver::stop(std::size_t pusher)
{
  helping_[pusher] = -1;
  round_[pusher] = 0;
  pusherAbove_[pusher] = 0;
}

void HandOver::undo(std::size_t pusher, HandOverRound& in, HeatGuardRule rule)
{
  const auto j = static_cast<std::size_t>(helping_[pusher]);
  in.adjustments[pusher] = start_[pusher];
  if (rule != HeatGuardRule::none)
  {
    lastEvent_ = {pusher, rule, std::abs(in.currents[pusher])};
    ++events_;
  }
  if (++tries_[j] >= 2)
  {
    stop(pusher);
    return;
  }
  direction_[pusher] = -direction_[pusher];
  round_[pusher] = 0;
  pusherAbove_[pusher] = 0;
}

void HandOver::stepUndone(std::size_t joint)
{
  // The pusher goes back where the bound puts it (where the round began), and that way counts as tried.
  const int pusher = helping_[joint] >= 0 ? static_cast<int>(joint) : pusherOf(joint);
  if (pusher < 0) return;
  ++tries_[static_cast<std::size_t>(helping_[static_cast<std::size_t>(pusher)])];
  stop(static_cast<std::size_t>(pusher));
}

void HandOver::round(HandOverRound& in, const EnergySavingParameters& p)
{
  // Only while both requests stand still from round to round: under a balancer's wobble the motors push
  // whatever the split, and a hand-over would only add the pusher's current.
  JointArray<bool> still{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    still[j] = in.requested[j] == lastRequest_[j];
    lastRequest_[j] = in.requested[j];
  }
  if (p.handOverRounds <= 0) return;
  continuePushes(in, still, p);
  if (in.groundContact) startPushes(in, still, p);
}

void HandOver::continuePushes(HandOverRound& in, const JointArray<bool>& still,
                              const EnergySavingParameters& p)
{
  for (std::size_t m = 0; m < numOfJoints; ++m)
  {
    if (helping_[m] < 0) continue;
    const auto j = static_cast<std::size_t>(helping_[m]);
    if (!in.enabled[m] || !in.enabled[j] || in.blocked[m] || in.blocked[j] || !in.groundContact ||
        !in.aboveThreshold[j] || !still[j] || !still[m])
    {
      stop(m); // done (the joint at or below its threshold), or no longer possible
      continue;
    }
    const float helped = std::abs(in.currents[j]), pusher = std::abs(in.currents[m]);
    if (helped < stuckCurrent_[m] - p.searchCurrentTolerance)
    {
      // The push took a share: the helped joint searches again from where its load is now; the pusher keeps
      // its offset (its own search relaxes it). The ways tried still count.
      stop(m);
      in.searches[j].restart(p.minGearStep);
      continue;
    }
    // The guard: a push never leaves the pushing joint above the joint it helps (above what that drew when the
    // hand-over began, by the guard's margin, for pusherAboveRounds rounds in a row: while the load moves, the
    // pusher carries it for a round or two before both let go), and one that has not lowered the helped joint's
    // current within handOverRounds is undone.
    pusherAbove_[m] = pusher > stuckCurrent_[m] * (1.f + p.guard.marginFraction) + p.guard.marginCurrent
                          ? pusherAbove_[m] + 1
                          : 0;
    // A push into a way the guard's step bound barred counts that way as tried (a push that takes any joint far
    // above its reference: the step bound itself, every frame).
    const float next = in.adjustments[m] + direction_[m] * p.minGearStep;
    if (pusherAbove_[m] >= p.pusherAboveRounds)
      undo(m, in, HeatGuardRule::pusherAboveHelped);
    else if (round_[m] >= p.handOverRounds)
      undo(m, in, HeatGuardRule::handOverWithoutEffect);
    else if (next > in.highest[m] || next < in.lowest[m])
      undo(m, in, HeatGuardRule::none);
    else
    {
      in.adjustments[m] = next;
      ++round_[m];
    }
  }
}

void HandOver::startPushes(HandOverRound& in, const JointArray<bool>& still, const EnergySavingParameters& p)
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const int mirror = mirrorOf(j);
    if (mirror < 0) continue;
    const auto m = static_cast<std::size_t>(mirror);
    const OffsetSearch& search = in.searches[j];
    const OffsetSearch& mirrorSearch = in.searches[m];
    const bool stuck =
        in.aboveThreshold[j] && (search.settled() || search.stalledRounds() >= 2) && tries_[j] < 2;
    // The mirror is free (not searching, not held) and draws less than the joint it would help.
    const bool free = in.enabled[m] && !in.blocked[m] && (!in.aboveThreshold[m] || mirrorSearch.settled()) &&
                      std::abs(in.currents[m]) < std::abs(in.currents[j]);
    if (!in.enabled[j] || in.blocked[j] || !stuck || !free || !still[j] || !still[m] || helping_[m] >= 0 ||
        helping_[j] >= 0)
      continue;
    // The first way: the way this joint's motor must push by the robot model, so that the mirror takes a share.
    const float holding = in.torques.torques[j];
    const bool known =
        in.torques.valid && std::isfinite(holding) && std::abs(holding) >= p.loadDirectionTorque;
    helping_[m] = static_cast<int>(j);
    direction_[m] = known && holding < 0.f ? -1.f : 1.f;
    if (tries_[j] == 1) direction_[m] = -direction_[m];
    round_[m] = 0;
    pusherAbove_[m] = 0;
    start_[m] = in.adjustments[m];
    stuckCurrent_[m] = std::abs(in.currents[j]);
  }
}
} // namespace nao
