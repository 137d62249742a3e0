// DebugClient: the debug channel from a terminal.
#include "Framework/Client/DebugClient.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/TerminalText.h"
#include <CLI/CLI.hpp>
#include <chrono>
#include <iostream>
#include <memory>
#include <thread>

using namespace nao;

namespace
{
/// "# units (...): angles.* [deg], transitionTime [ms]": the units of a module's TOML, one entry per group of
/// leaves that share a parent and a unit.
std::string unitsLine(const debug::Parameters& parameters)
{
  std::string line, lastGroup;
  for (const FieldDescription& field : parameters.fields)
  {
    if (field.unit.empty()) continue;
    const std::size_t split = field.path.find_last_of(".[");
    const std::string group = split == std::string::npos ? field.path : field.path.substr(0, split) + ".*";
    const std::string entry = streams::labelWithUnit(group, field.unit);
    if (entry == lastGroup) continue;
    line += (line.empty() ? "" : ", ") + entry;
    lastGroup = entry;
  }
  return "# " + parameters.module + " in the units of Config/Modules/" + parameters.module +
         ".toml: " + (line.empty() ? "every value dimensionless" : line + "; the rest dimensionless");
}

int printReply(const debug::Reply& reply)
{
  (reply.ok ? std::cout : std::cerr) << terminalSafe(reply.message) << "\n";
  return reply.ok ? 0 : 1;
}

void printSample(const debug::Data& data)
{
  const int id = RepresentationRegistry::instance().find(data.representation);
  std::cout << terminalSafe(data.representation) << " frame " << data.frameNumber << " t=" << data.time
            << " s";
  if (data.dropped) std::cout << " (" << data.dropped << " dropped)";
  std::cout << "\n";
  if (id < 0)
  {
    std::cout << "  (this client does not know the type; " << data.payload.size() << " bytes)\n";
    return;
  }
  const auto& info = RepresentationRegistry::instance().info(static_cast<RepresentationId>(id));
  RepresentationObject object = RepresentationRegistry::instance().create(static_cast<RepresentationId>(id));
  info.loadBinary(data.payload, object.get());
  for (const FieldValue& field : fieldValues(info, object.get()))
    std::cout << "  " << terminalSafe(field.label()) << " = " << terminalSafe(field.text) << "\n";
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{"Talks to the robot's debug channel"};
  app.require_subcommand(1);
  std::string host = "127.0.0.1", token, name, key, value, path;
  std::uint16_t port = 7070;
  std::uint32_t count = 1;
  float rate = 0;
  app.add_option("--host", host, "robot address");
  app.add_option("--port", port, "debug channel port");
  app.add_option("--token", token, "token, when the robot requires one");
  double wait = 0;
  app.add_option("--wait", wait, "s to keep trying to connect (a robot binary that is still starting)")
      ->check(CLI::Range(0.0, 600.0));

  auto* list =
      app.add_subcommand("list", "representations with providers and fields, modules, execution order");
  auto* get = app.add_subcommand("get", "a module's parameters, or one sample of a representation");
  get->add_option("name", name, "module or representation")->required();
  auto* set =
      app.add_subcommand("set", "change a module parameter (validated; refused edits change nothing)");
  set->add_option("module", name)->required();
  set->add_option("key", key, "key path, e.g. thresholds.LKneePitch")->required();
  set->add_option(
         "value", value,
         "TOML value in the unit of the module's file (deg, mA, ms: `get <module>` lists them), e.g. 0.3")
      ->required();
  auto* subscribe = app.add_subcommand("subscribe", "stream a representation");
  subscribe->add_option("representation", name)->required();
  subscribe->add_option("--count", count, "samples to print, then exit");
  subscribe->add_option("--rate", rate, "Hz (0: every frame)");
  auto* provider = app.add_subcommand("provider", "switch a representation's provider at the next frame");
  provider->add_option("representation", name)->required();
  provider->add_option("provider", value, "module name or off")->required();
  auto* log = app.add_subcommand("log", "start or stop writing a log on the robot");
  log->add_option("action", key, "start or stop")->required()->check(CLI::IsMember({"start", "stop"}));
  log->add_option("name", path,
                  "start: file name inside the robot's logDirectory (settings.toml); never overwrites; "
                  "empty: <scenario>-<UTC time>.log");
  CLI11_PARSE(app, argc, argv);

  try
  {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(wait);
    std::unique_ptr<DebugClient> connected;
    while (!connected)
    {
      try
      {
        connected = std::make_unique<DebugClient>(host, port, token);
      }
      catch (const std::exception&)
      {
        if (std::chrono::steady_clock::now() >= deadline) throw;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
    DebugClient& client = *connected;
    if (*list)
    {
      const auto reply = client.list();
      std::cout << "scenario " << terminalSafe(reply.scenario) << "\nexecution order:\n"
                << terminalSafe(reply.plan) << "\nrepresentations:\n";
      for (const auto& representation : reply.representations)
        std::cout << "  " << terminalSafe(representation.name) << " <- "
                  << (representation.provider.empty() ? "(none)" : terminalSafe(representation.provider))
                  << " (" << representation.fields.size() << " fields)\n";
      std::cout << "modules:\n";
      for (const auto& module : reply.modules)
        std::cout << "  " << terminalSafe(module.name) << (module.active ? " [active]" : "") << "\n";
      return 0;
    }
    if (*get)
    {
      const auto known = client.list();
      for (const auto& module : known.modules)
        if (module.name == name)
        {
          const debug::Parameters parameters = client.parameters(name);
          std::cout << terminalSafe(unitsLine(parameters)) << "\n" << terminalSafe(parameters.toml) << "\n";
          return 0;
        }
      if (const auto reply = client.subscribe(name, 0); !reply.ok) return printReply(reply);
      const auto sample = client.nextData(std::chrono::seconds(5));
      client.unsubscribe(name);
      if (!sample)
        throw std::runtime_error("no sample of " + name + " within 5 s (is the motion thread running?)");
      printSample(*sample);
      return 0;
    }
    if (*set) return printReply(client.setParameter(name, key, value));
    if (*provider) return printReply(client.setProvider(name, value));
    if (*log) return printReply(key == "start" ? client.startLog(path) : client.stopLog());
    if (*subscribe)
    {
      if (const auto reply = client.subscribe(name, rate); !reply.ok) return printReply(reply);
      for (std::uint32_t i = 0; i < count; ++i)
      {
        const auto sample = client.nextData(std::chrono::seconds(5));
        if (!sample) throw std::runtime_error("stream of " + name + " stopped");
        printSample(*sample);
      }
      return 0;
    }
  }
  catch (const std::exception& error)
  {
    std::cerr << "DebugClient: " << terminalSafe(error.what()) << "\n";
    return 1;
  }
  return 0;
}
