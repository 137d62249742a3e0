#include "Util/DebugGui/QuitSignals.h"
#include <QCoreApplication>
#include <QSocketNotifier>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <unistd.h>

namespace nao::gui
{
namespace
{
int signalPipe[2] = {-1, -1};

extern "C" void writeSignal(int signal)
{
  const int saved = errno; // the interrupted code may look at errno
  const auto byte = static_cast<unsigned char>(signal);
  [[maybe_unused]] const ssize_t written = ::write(signalPipe[1], &byte, 1); // a full pipe: already signalled
  errno = saved;
}
} // namespace

bool handleQuitSignals(std::function<void(int signal)> onSignal)
{
  if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) return false;
  auto* notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, QCoreApplication::instance());
  QObject::connect(notifier, &QSocketNotifier::activated,
                   [onSignal = std::move(onSignal)]
                   {
                     unsigned char byte = 0;
                     while (::read(signalPipe[0], &byte, 1) == 1)
                       onSignal(byte);
                   });
  struct sigaction action = {};
  action.sa_handler = writeSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int signal : {SIGINT, SIGHUP, SIGTERM})
    ::sigaction(signal, &action, nullptr);
  return true;
}
} // namespace nao::gui
