#pragma once
// DebugClient's subcommands over a connected client: what each prints, and its exit status. Apart from main.cpp
// (the command line) to keep both files short.
#include "Framework/Client/DebugClient.h"
#include <cstdint>
#include <string>
#include <vector>

namespace nao::debugclient
{
/// The command line's values, filled in by CLI11 (main.cpp); each subcommand reads the ones it declares.
struct Options
{
  std::string host = "127.0.0.1", token, name, key, value, path;
  std::uint16_t port = 7070;
  std::uint32_t count = 1;
  float rate = 0;
  double wait = 0;
  std::vector<std::string> fieldPatterns;
  float healthRate = 1;
};

/// `list`: the scenario, execution order, representations with providers, modules.
int listCommand(DebugClient& client);
/// `get`: a module's parameters (units and docs as TOML comments), or one sample of a representation.
int getCommand(DebugClient& client, const Options& options);
/// `set`: a module parameter, its value converted to the unit of the module's file.
int setCommand(DebugClient& client, const Options& options);
/// `provider`: switch a representation's provider.
int providerCommand(DebugClient& client, const Options& options);
/// `log`: start or stop writing a log on the robot.
int logCommand(DebugClient& client, const Options& options);
/// `annotate`: a note in the robot's running log at the current frame.
int annotateCommand(DebugClient& client, const Options& options);
/// `health`: `count` SensorHealth reports.
int healthCommand(DebugClient& client, const Options& options);
/// `subscribe`: `count` samples of a representation, every field or a table of the chosen ones.
int subscribeCommand(DebugClient& client, const Options& options);
} // namespace nao::debugclient
