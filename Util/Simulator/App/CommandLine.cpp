#include "Util/Simulator/App/CommandLine.h"
#include "Framework/ConfigFiles.h"
#include "Tools/Streams/ClosestName.h"
#include "Util/Simulator/Physics/PlantVariants.h"
#include "Util/Simulator/Physics/SimConfig.h"
#include <csignal>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <stdexcept>
#include <vector>

namespace nao::simcli
{
namespace
{
volatile std::sig_atomic_t stopSignal = 0;

void onStopSignal(int signal)
{
  stopSignal = signal;
}
} // namespace

void installStopHandlers()
{
  struct sigaction action
  {
  };
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

bool stopRequested()
{
  return stopSignal != 0;
}

int endAfterStop(int status)
{
  if (stopSignal == 0) return status;
  std::fflush(stdout);
  std::fprintf(stderr, "Simulator: stopped by signal %d; the outputs cover the time simulated until then\n",
               static_cast<int>(stopSignal));
  std::fflush(nullptr);
  std::signal(stopSignal, SIG_DFL);
  std::raise(stopSignal);
  return 128 + stopSignal; // not reached
}

void drawProgress(const std::string& what, double fraction)
{
  const int width = 40, filled = static_cast<int>(fraction * width);
  std::fprintf(stderr, "\r%s [%s%s] %3.0f%%", what.c_str(),
               std::string(static_cast<std::size_t>(filled), '#').c_str(),
               std::string(static_cast<std::size_t>(width - filled), '.').c_str(), fraction * 100);
  if (fraction >= 1.0) std::fprintf(stderr, "\n");
}

std::string quoted(const std::string& argument)
{
  if (argument.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;#~") == std::string::npos && !argument.empty())
    return argument;
  std::string text = "'";
  for (const char c : argument)
    text += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return text + "'";
}

std::string commandLine(int argc, char** argv)
{
  std::string text;
  for (int k = 0; k < argc; ++k)
    text += (k == 0 ? "" : " ") + quoted(argv[k]);
  return text;
}

std::string headedByCommand(const std::string& command, const std::string& table)
{
  return "Written by `" + command + "`.\n\n" + table;
}

void writeMarkdown(const std::string& text, const std::string& markdown)
{
  if (!markdown.empty())
  {
    const std::filesystem::path file(markdown);
    if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
    std::ofstream out(file);
    if (!(out << text)) throw std::runtime_error("cannot write " + markdown);
    std::cout << ", " << markdown;
  }
  std::cout << "\n";
}

std::vector<std::uint64_t> seedsFrom(std::uint64_t first, int count)
{
  std::vector<std::uint64_t> seeds;
  for (int k = 0; k < count; ++k)
    seeds.push_back(first + static_cast<std::uint64_t>(k));
  return seeds;
}

std::string unknownVariant(const std::filesystem::path& configDirectory, const std::string& variant)
{
  if (variant.empty()) return "";
  try
  {
    sim::SimConfig config = sim::loadSimConfig(configDirectory);
    sim::RobotVariation robot;
    sim::applyVariant(config.variants, variant, config, robot);
    return "";
  }
  catch (const std::exception& error)
  {
    return error.what();
  }
}

std::string missingScenario(const std::filesystem::path& configDirectory, const std::string& scenario)
{
  const std::filesystem::path folder = configDirectory / "Scenarios";
  if (std::filesystem::is_regular_file(folder / (scenario + ".toml"))) return "";
  std::vector<std::string> scenarios = namesInFolder(folder, ".toml");
  std::erase(scenarios, std::string("default")); // what every scenario overlays, not a scenario
  return "no scenario '" + scenario + "' in " + folder.string() + streams::didYouMean(scenario, scenarios) +
         "; scenarios: " + joined(scenarios);
}
} // namespace nao::simcli
