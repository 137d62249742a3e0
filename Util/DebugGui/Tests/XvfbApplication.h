#pragma once
// Support of DebugGui3DTests: its own Xvfb on a free display (-displayfd: Xvfb picks the number and reports it
// once it accepts clients), the QApplication on Qt's xcb platform against it, a scratch folder for the tests'
// QSettings and logs, and waiting for a condition while Qt processes events.
#include "Util/DebugGui/Tests/WaitFor.h"
#include <QApplication>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <gtest/gtest.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace nao::gui::testing
{
inline std::filesystem::path scratch()
{
  return std::filesystem::temp_directory_path() / ("DebugGui3DTests-" + std::to_string(::getpid()));
}

/// Xvfb on a free display for this test program; stopped when the program ends.
struct XServer
{
  pid_t pid = -1;
  std::string display;
  XServer()
  {
    int fds[2];
    if (::pipe(fds) != 0) return;
    pid = ::fork();
    if (pid == 0)
    {
      ::close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      ::execl(NAO_XVFB, "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1280x1024x24", "-nolisten", "tcp",
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    char c = 0;
    std::string number; // Xvfb writes the display number once it accepts clients
    while (::read(fds[0], &c, 1) == 1 && c != '\n')
      number += c;
    ::close(fds[0]);
    if (!number.empty()) display = ":" + number;
  }
  ~XServer()
  {
    if (pid <= 0) return;
    ::kill(pid, SIGTERM);
    ::waitpid(pid, nullptr, 0);
  }
};

inline XServer& xServer()
{
  static XServer server;
  return server;
}

struct RemoveScratchAtExit
{
  ~RemoveScratchAtExit() { std::filesystem::remove_all(scratch()); }
};
inline RemoveScratchAtExit removeScratchAtExit;

inline QApplication& application()
{
  static int argc = 1;
  static char name[] = "DebugGui3DTests";
  static char* argv[] = {name, nullptr};
  static QApplication* app = []
  {
    if (xServer().display.empty()) ADD_FAILURE() << "Xvfb did not start (Debian package xvfb)";
    qputenv("DISPLAY", QByteArray::fromStdString(xServer().display));
    qputenv("QT_QPA_PLATFORM", "xcb");
    qputenv("XDG_CONFIG_HOME", QByteArray::fromStdString((scratch() / "settings").string()));
    return new QApplication(argc, argv);
  }();
  return *app;
}

using nao::gui::test::waitFor;
} // namespace nao::gui::testing
