#pragma once
// One joint's step bound, a rule of the heat adjustment's guard (JointGuard): no change of the stage's offsets (a
// search step, a settle, a hand-over push, a guard's fade) may take the joint's filtered current above its bound,
// reference + max(boundFraction × reference, boundCurrent), where the reference is what the joint draws without the
// stage in this posture. Within each round the joint's current is watched frame by frame against where the round began.
// When it rises above the bound (and above where it stood), what changed since goes back at once and that way is barred
// until the posture changes: the joint's own change when it made one, else the changes that loaded it. A joint that
// moved its change's way after the change relieved its motor gave way (a worn gear slips under its load): going back
// would push it up against its gears, more current still, so that is left to the search. A plain value, one per joint
// in JointGuard; why: EnergySavingProvider/README.md, "The guard".
#include <cstdint>
#include <limits>

namespace nao
{
class StepBound
{
public:
  /// What a frame found.
  enum class Verdict : std::uint8_t
  {
    none, ///< within the bound, or nothing to undo
    own,  ///< the joint's own change took it above: barred, it goes back (clamp())
    loaded ///< above without a change of its own: the changes of the joints that share its load go back (undo())
  };

  /// A: the bound of a joint that draws `reference` (A) without the stage.
  static float limit(float reference, float fraction, float current);

  /// A new posture: no round yet, no way barred.
  void reset() { *this = StepBound{}; }
  /// A round begins (before it changes anything): the joint was last sent `offset` (rad, base + adjustment), drew
  /// `current` (A, |filtered|) over the round and `latest` (A, |unfiltered|) in the last frame, and reads `reading`
  /// (rad). The higher of the two currents is where it stands: a filtered current still rising to it was not this
  /// round's doing. Standing where a way was last barred, but drawing more than then by `margin` (A): its load is
  /// another, and the ways are open again.
  void round(float offset, float current, float latest, float reading, float margin);
  /// One frame: the joint was last sent `offset` (rad) and drew `current` (A, |filtered|) since, and reads `reading`
  /// (rad). Above `limit` (A) and above where it stood when the round began by more than `margin` (A): its own change
  /// since the round is undone (own), unless the joint moved its way by `gaveWay` (rad) or more after its current had
  /// fallen by `margin` (it gave way: none); without a change of its own, or moved against it, loaded. At most one
  /// verdict a round.
  Verdict frame(float offset, float current, float reading, float limit, float margin, float gaveWay);
  /// Another joint's current rose above its bound in this round: this joint's change since the round began, if any,
  /// goes back and its way is barred. Returns whether there was one.
  bool undo(float offset);

  /// rad: `offset` within the ways not barred.
  float clamp(float offset) const;
  float lowest() const { return lowest_; }   ///< rad, the offset goes no lower (−inf: no way barred)
  float highest() const { return highest_; } ///< rad, the offset goes no higher (+inf: no way barred)

private:
  void open(); ///< every way open again

  float roundOffset_ =
      std::numeric_limits<float>::quiet_NaN(); ///< rad, where the round began (NaN: none yet) ...
  float roundCurrent_ = 0.f;                   ///< A, ... where its current stood ...
  float roundReading_ = 0.f;                   ///< rad, ... and where it was
  float roundLowest_ = 0.f;                    ///< A, the least filtered current since the round began
  float barOffset_ = std::numeric_limits<float>::quiet_NaN(); ///< rad, where a way was last barred from ...
  float barCurrent_ = 0.f;                                    ///< A, ... and what the joint drew there then
  int barRounds_ = 0;                                         ///< rounds in a row that began there
  bool judged_ = false;                                       ///< this round's verdict is given
  float lowest_ = -std::numeric_limits<float>::infinity();
  float highest_ = std::numeric_limits<float>::infinity();
};
} // namespace nao
