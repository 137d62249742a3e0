// The hand-over of EnergySavingProvider: a hip, knee or ankle pitch that holds a load its gears cannot gets help
// from the same joint of the other leg. Why, and how it compares with B-Human (which has no such rule): the
// opening comment of EnergySavingProvider.cpp and handOverLoads below.
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"

#include <cmath>

namespace nao
{
namespace
{
/// The same pitch joint of the other leg (-1: not a hip, knee or ankle pitch). The pitch joints of both legs turn
/// about parallel axes and share the body's pitching load, which friction locks into some split.
int mirrorOf(std::size_t j)
{
  constexpr std::size_t left = index(Joint::LHipPitch), right = index(Joint::RHipPitch);
  constexpr std::size_t count = index(Joint::LAnklePitch) - left + 1;
  if (j >= left && j < left + count) return static_cast<int>(j + (right - left));
  if (j >= right && j < right + count) return static_cast<int>(j - (right - left));
  return -1;
}
} // namespace

bool EnergySavingProvider::inHandOver(std::size_t j) const
{
  const int mirror = mirrorOf(j);
  return handOverFor_[j] >= 0 ||
         (mirror >= 0 && handOverFor_[static_cast<std::size_t>(mirror)] == static_cast<int>(j));
}

void EnergySavingProvider::handOverLoads()
{
  // A leg joint whose search settled above its threshold holds a load its gears cannot: at no offset does its
  // board see no error (the plant's hip pitches after rising into the stand: one count of the board, 350 mA,
  // for ten minutes, at every offset the search tried over two counts). Standing on both feet, the two legs
  // share the body's load and friction locks in how: the same joint of the other leg pushes a little more each
  // round, until this joint's current falls to its threshold (then the pusher's own search relaxes it, and
  // the gears hold the new share), or for handOverRounds rounds; then back to where it was, and the other way.
  // Both ways tried: the joint holds until its next search. A joint whose current fell on the way, but not to its
  // threshold, searches again from where the push left its load (the pusher keeps its offset, its own search
  // relieves it): a search finds what a fixed offset cannot.
  // Only while both requests stand still from round to round: under a balancer's wobble the motors push
  // whatever the split, and a hand-over would only add the pusher's current.
  const JointArray<float>& requested = get<StiffnessJointRequest>().angles;
  JointArray<bool> still{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    still[j] = requested[j] == lastRoundRequest_[j];
    lastRoundRequest_[j] = requested[j];
  }
  if (!params().searchLeastCurrent || params().handOverRounds <= 0) return;
  const FilteredCurrent& filtered = get<FilteredCurrent>();
  for (std::size_t m = 0; m < numOfJoints; ++m)
  {
    if (handOverFor_[m] < 0) continue;
    const auto j = static_cast<std::size_t>(handOverFor_[m]);
    if (!enabled_[m] || !enabled_[j] || !status_.groundContact || !aboveThreshold_[j] || !still[j] ||
        !still[m])
    {
      stopHandOver(m); // done (the joint at or below its threshold), or no longer possible
      continue;
    }
    if (std::abs(filtered.currents[j]) < handOverBase_[m] - params().searchCurrentTolerance)
    {
      const int tries = handOverTries_[j];
      stopHandOver(m);
      restartSearch(j);
      handOverTries_[j] = tries; // the ways tried still count: the next hand-over goes on from there
      continue;
    }
    if (handOverRound_[m] >= params().handOverRounds)
    {
      adjustments_[m] = handOverStart_[m];
      if (++handOverTries_[j] >= 2)
      {
        stopHandOver(m);
        continue;
      }
      handOverDirection_[m] = -handOverDirection_[m];
      handOverRound_[m] = 0;
      continue;
    }
    adjustments_[m] += handOverDirection_[m] * params().minGearStep;
    ++handOverRound_[m];
  }
  if (!status_.groundContact) return;
  const JointTorques& torques = get<JointTorques>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const int mirror = mirrorOf(j);
    if (mirror < 0) continue;
    const auto m = static_cast<std::size_t>(mirror);
    const bool stuck =
        aboveThreshold_[j] && (settledCurrent_[j] >= 0.f || stalledRounds_[j] >= 2) && handOverTries_[j] < 2;
    const bool free = enabled_[m] && !fadingOut_[m] && (!aboveThreshold_[m] || settledCurrent_[m] >= 0.f);
    if (!enabled_[j] || fadingOut_[j] || !stuck || !free || !still[j] || !still[m] || handOverFor_[m] >= 0 ||
        handOverFor_[j] >= 0)
      continue;
    // The first way: the way this joint's motor must push by the robot model, so that the mirror takes a share.
    const float holding = torques.torques[j];
    const bool known =
        torques.valid && std::isfinite(holding) && std::abs(holding) >= params().loadDirectionTorque;
    handOverFor_[m] = static_cast<int>(j);
    handOverDirection_[m] = known && holding < 0.f ? -1.f : 1.f;
    if (handOverTries_[j] == 1) handOverDirection_[m] = -handOverDirection_[m];
    handOverRound_[m] = 0;
    handOverStart_[m] = adjustments_[m];
    handOverBase_[m] = std::abs(get<FilteredCurrent>().currents[j]);
  }
}

void EnergySavingProvider::stopHandOver(std::size_t joint)
{
  handOverFor_[joint] = -1;
  handOverRound_[joint] = 0;
}
} // namespace nao
