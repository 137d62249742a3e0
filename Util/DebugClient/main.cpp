// DebugClient: the debug channel from a terminal.
#include "Tools/Streams/TerminalText.h"
#include "Util/DebugClient/ClientCommands.h"
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

using namespace nao;
using debugclient::Options;

namespace
{
/// The subcommands, one of which the command line names.
struct Subcommands
{
  CLI::App *list, *get, *set, *subscribe, *provider, *log, *annotate, *health;
};

/// The options before the subcommand: where the robot is and how long to wait for it.
void addConnectionOptions(CLI::App& app, Options& o)
{
  app.add_option("--host", o.host, "robot address");
  app.add_option("--port", o.port, "debug channel port");
  app.add_option("--token", o.token, "token, when the robot requires one")->default_str("none");
  app.add_option("--wait", o.wait, "s to keep trying to connect (a robot binary that is still starting)")
      ->check(CLI::Range(0.0, 600.0));
}

/// The subcommands with their arguments and options, in --help's order.
Subcommands addSubcommands(CLI::App& app, Options& o)
{
  Subcommands s{};
  s.list = app.add_subcommand("list", "representations with providers and fields, modules, execution order");
  s.get = app.add_subcommand("get", "a module's parameters, or one sample of a representation");
  s.get->add_option("name", o.name, "module or representation")->required();
  s.set = app.add_subcommand("set", "change a module parameter (validated; refused edits change nothing)");
  s.set->add_option("module", o.name)->required();
  s.set->add_option("key", o.key, "key path, e.g. thresholds.LKneePitch")->required();
  s.set
      ->add_option(
          "value", o.value,
          "TOML value in the unit of the module's file (deg, mA, ms: `get <module>` lists them), e.g. "
          "0.3, or a number with its unit, converted to the file's: 0.5s, 500ms, 30deg")
      ->required();
  s.subscribe = app.add_subcommand("subscribe", "stream a representation");
  s.subscribe->add_option("representation", o.name)->required();
  s.subscribe
      ->add_option("fields", o.fieldPatterns,
                   "fields to show, one row per sample: paths, globs (temperatures.*) or prefixes (currents)")
      ->default_str("every field, one line each");
  s.subscribe->add_option("--count", o.count, "samples to print, then exit");
  s.subscribe->add_option("--rate", o.rate, "Hz (0: every frame)");
  s.provider = app.add_subcommand("provider", "switch a representation's provider at the next frame");
  s.provider->add_option("representation", o.name)->required();
  s.provider->add_option("provider", o.value, "module name or off")->required();
  s.log = app.add_subcommand("log", "start or stop writing a log on the robot");
  s.log->add_option("action", o.key, "start or stop")->required()->check(CLI::IsMember({"start", "stop"}));
  s.log
      ->add_option("name", o.path,
                   "start: file name inside the robot's logDirectory (settings.toml); never overwrites")
      ->default_str("<scenario>-<UTC time>.log");
  s.annotate =
      app.add_subcommand("annotate", "record a text in the robot's running log at the current frame");
  s.annotate->add_option("text", o.value, "the note, e.g. \"pushed by hand\"")->required();
  s.health =
      app.add_subcommand("health", "the robot's sensor health: each sensor and joint that is not valid, "
                                   "and the battery charge it believes (SensorHealth)");
  s.health->add_option("--count", o.count, "samples to print, then exit");
  s.health->add_option("--rate", o.healthRate, "Hz of the samples after the first (0: every frame)");
  return s;
}

/// The client, retrying every 100 ms until --wait has passed (a robot binary that is still starting).
std::unique_ptr<DebugClient> connect(const Options& o)
{
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.wait);
  while (true)
  {
    try
    {
      return std::make_unique<DebugClient>(o.host, o.port, o.token);
    }
    catch (const std::exception&)
    {
      if (std::chrono::steady_clock::now() >= deadline) throw;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
}

/// Connects and runs the subcommand the command line named; its exit status.
int run(const Subcommands& s, const Options& o)
{
  const std::unique_ptr<DebugClient> client = connect(o);
  if (*s.list) return debugclient::listCommand(*client);
  if (*s.get) return debugclient::getCommand(*client, o);
  if (*s.set) return debugclient::setCommand(*client, o);
  if (*s.provider) return debugclient::providerCommand(*client, o);
  if (*s.log) return debugclient::logCommand(*client, o);
  if (*s.annotate) return debugclient::annotateCommand(*client, o);
  if (*s.health) return debugclient::healthCommand(*client, o);
  if (*s.subscribe) return debugclient::subscribeCommand(*client, o);
  return 0;
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Talks to the robot's debug channel"};
  app.require_subcommand(1);
  app.option_defaults()->always_capture_default(); // --help shows each option's default
  Options options;
  addConnectionOptions(app, options);
  const Subcommands subcommands = addSubcommands(app, options);
  CLI11_PARSE(app, argc, argv);

  try
  {
    return run(subcommands, options);
  }
  catch (const std::exception& error)
  {
    std::cerr << "DebugClient: " << terminalSafe(error.what()) << "\n";
    return 1;
  }
}
