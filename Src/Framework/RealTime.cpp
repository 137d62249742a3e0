#include "Framework/RealTime.h"
#include "Tools/Build/Sanitized.h"
#include <cerrno>
#include <cstring>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

namespace nao
{
namespace
{
std::string limitText(int resource)
{
  rlimit limit{};
  if (::getrlimit(resource, &limit) != 0) return "unknown";
  return limit.rlim_cur == RLIM_INFINITY ? "unlimited" : std::to_string(limit.rlim_cur);
}
} // namespace

RealTimeResult enterRealTime(int priority)
{
  RealTimeResult result;
  std::string problems;
  sched_param parameters{};
  parameters.sched_priority = priority;
  if (const int error = ::pthread_setschedparam(::pthread_self(), SCHED_FIFO, &parameters); error == 0)
    result.fifo = true;
  else
    problems += "SCHED_FIFO priority " + std::to_string(priority) + " was refused (" + std::strerror(error) +
                "; real-time priority limit " + limitText(RLIMIT_RTPRIO) + ")";

  // With a finite locked-memory limit, MCL_FUTURE would turn a later allocation beyond it into a failure, so lock
  // only when the limit cannot be reached (unlimited, or root's CAP_IPC_LOCK).
  rlimit memlock{};
  ::getrlimit(RLIMIT_MEMLOCK, &memlock);
  if (NAO_SANITIZED)
    problems += std::string(problems.empty() ? "" : "; ") +
                "memory is not locked (a sanitizer build: its shadow memory cannot be locked)";
  else if (memlock.rlim_cur != RLIM_INFINITY && ::geteuid() != 0)
    problems += std::string(problems.empty() ? "" : "; ") + "memory is not locked (locked-memory limit " +
                std::to_string(memlock.rlim_cur) + " bytes, not unlimited)";
  else if (::mlockall(MCL_CURRENT | MCL_FUTURE) == 0)
    result.locked = true;
  else
    problems += std::string(problems.empty() ? "" : "; ") + "mlockall failed (" + std::strerror(errno) + ")";

  if (!problems.empty())
    result.warning = "real-time motion thread not fully granted: " + problems +
                     (result.fifo ? "" : "; the motion thread runs at normal priority") +
                     ". Grant the user rtprio and memlock (Util/Deploy/README.md).";
  return result;
}
} // namespace nao
