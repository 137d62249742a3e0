#pragma once
// Real-time scheduling of the motion thread on the robot: SCHED_FIFO at a fixed priority, so that other load (a
// compiler, a log download, the network) cannot delay a frame, and every page locked in memory (mlockall), so that
// no frame waits for a page fault. Opt-in (`nao --motion-priority N`, which the robot's deploy config passes):
// the simulator's child processes and the tests need no privileges. What is not permitted is left out and said in
// one warning; the motion thread then runs at normal priority as before.
#include <string>

namespace nao
{
struct RealTimeResult
{
  bool fifo = false;   ///< the calling thread runs SCHED_FIFO at the requested priority
  bool locked = false; ///< the process's memory is locked (current and future pages)
  std::string warning; ///< what could not be done and why, empty when both were
};

/// Lowest and highest priority accepted (Linux SCHED_FIFO range 1..99; 99 is left to the kernel's watchdogs).
inline constexpr int minMotionPriority = 1;
inline constexpr int maxMotionPriority = 98;

/// Makes the calling thread SCHED_FIFO at `priority` and locks the process's memory. Never throws: anything not
/// permitted ends up in the warning.
RealTimeResult enterRealTime(int priority);
} // namespace nao
