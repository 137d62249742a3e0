#pragma once
// SIGINT, SIGHUP and SIGTERM (Ctrl+C, a closed terminal, an IDE's stop button) end the GUI as its Quit does, so
// that the simulator and the robot binary it started are stopped and its temporary folders removed: the signal
// handler only writes the signal's number into a pipe (a self-pipe), and the GUI thread reads it through a
// QSocketNotifier and runs `onSignal` there.
#include <functional>

namespace nao::gui
{
/// Installs the handlers; `onSignal(signal)` runs on the GUI thread, once per signal received. Needs a
/// QCoreApplication; call once. False (and the signals left as they were) when no pipe could be made.
bool handleQuitSignals(std::function<void(int signal)> onSignal);
} // namespace nao::gui
