// DebugGui: live plots, joints, parameters, module graph and a console for a robot's debug channel, a simulated
// robot, or a log.
#include "Framework/Settings.h"
#include "Tools/Files/ConfigDirectory.h"
#include "Tools/Streams/TerminalText.h"
#include "Util/DebugGui/MainWindow.h"
#include "Util/DebugGui/QuitSignals.h"
#include <CLI/CLI.hpp>
#include <QApplication>
#include <QTimer>
#include <cstring>
#include <filesystem>
#include <iostream>

namespace
{
/// Another of the project's programs, found from this executable as Config/ is (Tools/Files/ConfigDirectory.h):
/// next to it (an installed prefix's bin/) or where the build puts it (`buildPath` below the build folder). No
/// path of the build is baked in, so that an installed or moved copy names neither tree.
std::string program(const std::string& name, const std::string& buildPath)
{
  const std::filesystem::path folder = nao::files::thisExecutable().parent_path();
  for (const std::filesystem::path& candidate : {folder / name, folder / "../.." / buildPath})
    if (std::filesystem::exists(candidate)) return std::filesystem::weakly_canonical(candidate).string();
  return (folder / name).string();
}
/// The command line: the GUI's options, and what main() itself does with the rest.
struct CommandLine
{
  nao::gui::GuiOptions options;
  std::string config, screenshot; // config empty: found from this executable
  double quitAfter = 0;
};

/// Every option, in --help's order; the robot and simulator binaries default to this build's or install's.
void addOptions(CLI::App& app, CommandLine& line)
{
  nao::gui::GuiOptions& options = line.options;
  options.robotBinary = program("nao", "Src/Apps/Nao/nao");
  options.simulatorBinary = program("Simulator", "Util/Simulator/App/Simulator");
  auto* connect =
      app.add_option("--connect", options.connect, "host[:port] of a robot's debug channel (port 7070)");
  app.add_option("--token", options.token, "the robot's debugToken, when it requires one");
  app.add_option("--wait", options.wait, "s to keep trying to connect")->check(CLI::Range(0.0, 600.0));
  auto* log = app.add_option("--log", options.log, "a log file to replay")->check(CLI::ExistingFile);
  auto* sim =
      app.add_option("--sim", options.sim,
                     "a scenario: starts `Simulator serve <scenario>` and the robot binary against it");
  app.add_option("--preset", options.preset, "--sim: robots.toml preset of the simulated robot, e.g. worn");
  app.add_option("--robots", options.robots,
                 "--sim: a team of this many simulated robots (each its own simulator and robot binary); the "
                 "window shows robot 0, the team view all")
      ->check(CLI::Range(1, 11));
  app.add_option("--worn", options.worn, "--sim: the last K robots of the team simulate the preset worn")
      ->check(CLI::Range(0, 11));
  app.add_option("--seed", options.seed,
                 "--sim: robots.toml draw of the simulated robot; robot i gets seed + i")
      ->check(CLI::Range(1u, 1000000u));
  connect->excludes(log)->excludes(sim);
  log->excludes(sim);
  app.add_option("--plot", options.plots, "Representation.leaf to plot at start; repeatable");
  app.add_option("--team", options.team,
                 "host[:port] of a robot's debug channel for the team view (one row each); repeatable");
  app.add_option("--config", line.config,
                 "the Config/ folder (parameter files; --sim: the robot's); default: Config/ or "
                 "share/nao-framework/Config/ in the executable's folder or a folder above it")
      ->check(CLI::ExistingDirectory);
  app.add_option("--robot", options.robot,
                 "robot overlay folder to save into (default: settings.toml's robot)");
  app.add_option("--robot-binary", options.robotBinary, "--sim: the robot binary");
  app.add_option("--simulator-binary", options.simulatorBinary, "--sim: the simulator");
  app.add_option("--quit-after", line.quitAfter,
                 "s: then print the status, save --screenshot and exit (status 1 if the source failed)")
      ->check(CLI::Range(0.0, 3600.0));
  app.add_option("--screenshot", line.screenshot, "with --quit-after: PNG of the window");
}

/// The Config/ folder (--config or found from this executable) and, unless --robot gave it, settings.toml's
/// robot; false, with the error on stderr, when either cannot be read.
bool loadConfig(nao::gui::GuiOptions& options, const std::string& config)
{
  try
  {
    options.config = config.empty() ? nao::files::findConfigDirectory() : std::filesystem::path(config);
  }
  catch (const std::exception& error)
  {
    std::cerr << "DebugGui: " << error.what() << "\n";
    return false;
  }
  if (options.robot.empty())
  {
    try
    {
      options.robot = nao::Settings::load(options.config / "settings.toml").robot;
    }
    catch (const std::exception& error)
    {
      std::cerr << "DebugGui: " << error.what() << "\n";
      return false;
    }
  }
  return true;
}

/// SIGINT, SIGHUP, SIGTERM: every window closes as on Quit (its link ends, the simulator and robot binary it
/// started are stopped, its temporary folder removed), then the GUI exits with 128 + the signal. `quitting` must
/// outlive the application's loop.
void handleSignals(QApplication& application, bool& quitting)
{
  const bool handled = nao::gui::handleQuitSignals(
      [&](int signal)
      {
        if (quitting) return;
        quitting = true;
        std::cerr << "DebugGui: " << ::strsignal(signal) << ": stopping\n";
        const std::vector<nao::gui::MainWindow*> windows = nao::gui::MainWindow::windows();
        for (auto it = windows.rbegin(); it != windows.rend(); ++it)
          (*it)->close();
        application.exit(128 + signal);
      });
  if (!handled)
    std::cerr << "DebugGui: cannot handle SIGINT, SIGHUP, SIGTERM (no pipe): a signal ends it at once\n";
}

/// --connect's robot; false, with the error on stderr, when its port is not 1..65535.
bool connectTo(nao::gui::MainWindow& window, const nao::gui::GuiOptions& options)
{
  nao::gui::LinkTarget target;
  const auto colon = options.connect.rfind(':');
  target.host = options.connect.substr(0, colon);
  if (colon != std::string::npos)
  {
    const std::string port = options.connect.substr(colon + 1);
    try
    {
      const unsigned long value = std::stoul(port);
      if (value == 0 || value > 65535) throw std::out_of_range(port);
      target.port = static_cast<std::uint16_t>(value);
    }
    catch (const std::exception&)
    {
      std::cerr << "DebugGui: --connect " << options.connect << ": the port must be 1..65535\n";
      return false;
    }
  }
  target.token = options.token;
  target.waitSeconds = options.wait;
  window.connectTo(target);
  return true;
}

/// --quit-after: after that long, print the status, save --screenshot and exit (1 if the source failed).
void quitAfter(QApplication& application, nao::gui::MainWindow& window, const CommandLine& line)
{
  QTimer::singleShot(
      static_cast<int>(line.quitAfter * 1000),
      [&]
      {
        window.pump();
        if (!line.screenshot.empty() && !window.grab().save(QString::fromStdString(line.screenshot)))
          std::cerr << "DebugGui: cannot write " << line.screenshot << "\n";
        // The status holds robot text (a refusal, a scenario name): never sent raw.
        std::cout << "DebugGui: " << nao::terminalSafe(window.statusLine().toStdString()) << std::endl;
        application.exit(window.healthy() ? 0 : 1);
      });
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Debug GUI for the robot binary, the simulator and logs"};
  CommandLine line;
  addOptions(app, line);
  CLI11_PARSE(app, argc, argv);
  nao::gui::GuiOptions& options = line.options;
  if (!loadConfig(options, line.config)) return 1;

  QApplication application(argc, argv);
  nao::gui::MainWindow window(options);
  window.show();
  bool quitting = false;
  handleSignals(application, quitting);
  if (!options.connect.empty())
  {
    if (!connectTo(window, options)) return 1;
  }
  else if (!options.log.empty())
    window.openLog(options.log);
  else if (!options.sim.empty())
    window.startSimulation(options.sim);
  if (line.quitAfter > 0) quitAfter(application, window, line);
  return application.exec();
}
