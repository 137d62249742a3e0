#pragma once
// One sensor's state from what its checks found this frame. A glitch (unreadable, beyond range) costs only this
// frame's value and fails the sensor only when it lasts; a check that found a contradiction makes the sensor suspect
// at once and failed when contradictions go on; it is valid again after a while without any. README.md of this
// folder.
#include "Representations/Sensing/SensorHealth.h"

namespace nao
{
/// What one check found this frame.
struct Finding
{
  SensorFault fault = SensorFault::none;
  /// A glitch: this frame's value is unusable, nothing more unless it lasts. Otherwise a contradiction: suspect.
  bool glitch = false;
  bool confirmed = false; ///< the check already confirmed it over time: failed at once

  static Finding clean() { return {}; }
  static Finding glitchOf(SensorFault fault) { return {fault, true, false}; }
  static Finding suspectOf(SensorFault fault) { return {fault, false, false}; }
  static Finding failedOf(SensorFault fault) { return {fault, false, true}; }
  explicit operator bool() const { return fault != SensorFault::none; }
};

/// The first finding of a frame that is one (a confirmed one before a contradiction before a glitch).
inline Finding worst(Finding a, Finding b)
{
  const auto rank = [](const Finding& f) { return !f ? 0 : f.confirmed ? 3 : f.glitch ? 1 : 2; };
  return rank(b) > rank(a) ? b : a;
}

class SensorJudge
{
public:
  /// Updates `check` with this frame's finding at `now` (s); true when its state or fault changed.
  bool judge(SensorCheck& check, const Finding& finding, double now, float failAfter, float recoverAfter)
  {
    const SensorState oldState = check.state;
    const SensorFault oldFault = check.fault;
    if (finding)
    {
      if (finding.glitch)
      {
        if (glitchSince_ < 0) glitchSince_ = now;
        if (now - glitchSince_ >= failAfter - 1e-6) fail(check, finding.fault, now);
      }
      else
      {
        lastContradiction_ = now;
        if (check.state == SensorState::valid) set(check, SensorState::suspect, finding.fault, now);
        if (suspectSince_ < 0) suspectSince_ = now;
        if (finding.confirmed || now - suspectSince_ >= failAfter - 1e-6) fail(check, finding.fault, now);
      }
    }
    else
      glitchSince_ = -1;
    if (!finding || finding.glitch)
    {
      const bool quiet = lastContradiction_ < 0 || now - lastContradiction_ >= recoverAfter - 1e-6;
      if (check.state != SensorState::valid && quiet && glitchSince_ < 0)
      {
        set(check, SensorState::valid, SensorFault::none, now);
        suspectSince_ = lastContradiction_ = -1;
      }
    }
    // A glitch costs this frame's value only; while the sensor stays valid its fault is not named (the body's
    // UnreadableReadings marks which value it was).
    check.usable = check.state != SensorState::failed && !(finding && finding.glitch);
    return check.state != oldState || check.fault != oldFault;
  }

private:
  void fail(SensorCheck& check, SensorFault fault, double now)
  {
    if (check.state != SensorState::failed || check.fault != fault)
      set(check, SensorState::failed, fault, now);
    lastContradiction_ = now; // a failed sensor recovers only after a quiet while
  }
  static void set(SensorCheck& check, SensorState state, SensorFault fault, double now)
  {
    check.state = state;
    check.fault = fault;
    check.since = static_cast<float>(now);
  }

  double glitchSince_ = -1;       ///< s, since when glitches have come every frame; < 0: not now
  double suspectSince_ = -1;      ///< s, since the present run of contradictions began; < 0: none
  double lastContradiction_ = -1; ///< s, the last contradiction (or the last failed frame); < 0: none
};
} // namespace nao
