#pragma once
// Waiting in the debug GUI's tests: Qt processes events until a condition holds. Shared by the offscreen tests
// (DebugGuiTestSupport.h) and the Xvfb ones (XvfbApplication.h).
#include <QCoreApplication>
#include <chrono>
#include <thread>

namespace nao::gui::test
{
/// Processes events until the condition holds. The limit only keeps a broken run from hanging; what the tests
/// assert is the condition, never the time it took.
template<class Condition>
bool waitFor(Condition condition, double limitSeconds = 120)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limitSeconds);
  while (!condition())
  {
    if (std::chrono::steady_clock::now() > deadline) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  return true;
}
} // namespace nao::gui::test
