// Simulator: runs a scenario with the simulated NAO V6 (MuJoCo, motor current and heat) and the robot code
// talking LoLA to it; writes the robot's log, a CSV, PNG plots and prints a per-joint summary.
#include "Util/Simulator/Run/SimulationRun.h"
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <unistd.h>

int main(int argc, char** argv)
{
  CLI::App app{"Simulated NAO V6 that speaks LoLA, with motors that draw current and heat up"};
  app.require_subcommand(1);
  nao::SimulationOptions options;
  std::string configDirectory = NAO_CONFIG_DIR, output, robotBinary;
  std::vector<std::string> providers;
  bool quiet = false, noLog = false;
  auto* run = app.add_subcommand("run", "run a scenario of Config/Scenarios");
  run->add_option("scenario", options.scenario, "scenario name, e.g. stand")->required();
  run->add_option("--minutes", options.minutes, "simulated minutes")->check(CLI::PositiveNumber);
  run->add_option("--config", configDirectory, "the Config/ folder")->check(CLI::ExistingDirectory);
  run->add_option("--robot", options.robot, "robot name: Config/Robots/<robot>/ overlays");
  run->add_option("--output", output,
                  "folder for the log, CSV and plots (default Build/Simulation/<scenario>)");
  run->add_option("--robot-binary", robotBinary,
                  "run this robot binary (e.g. Build/Release/Src/Apps/Nao/nao) "
                  "instead of the robot code in this process");
  run->add_option("--provider", providers,
                  "Representation=Module (or =off) overriding the scenario; repeatable");
  run->add_flag("--realtime", options.realTime, "pace frames in wall-clock time instead of lock-step");
  run->add_flag("--no-log", noLog, "do not write the robot's log");
  run->add_flag("--quiet", quiet, "no progress bar");
  CLI11_PARSE(app, argc, argv);

  options.configDirectory = configDirectory;
  options.outputDirectory = output.empty() ? std::filesystem::path("Build/Simulation") / options.scenario
                                           : std::filesystem::path(output);
  options.writeLog = !noLog;
  if (!robotBinary.empty()) options.robotBinary = robotBinary;
  for (const std::string& provider : providers)
  {
    const auto equals = provider.find('=');
    if (equals == std::string::npos)
    {
      std::cerr << "Simulator: --provider " << provider << ": expected Representation=Module\n";
      return 2;
    }
    options.providerOverrides.push_back(
        {provider.substr(0, equals), provider.substr(equals + 1), {"--provider", 1, 1}});
  }
  if (!quiet && isatty(fileno(stderr)))
    options.progress = [&](double fraction)
    {
      const int width = 40, filled = static_cast<int>(fraction * width);
      std::fprintf(stderr, "\r%s [%s%s] %3.0f%% of %.1f simulated min", options.scenario.c_str(),
                   std::string(static_cast<std::size_t>(filled), '#').c_str(),
                   std::string(static_cast<std::size_t>(width - filled), '.').c_str(), fraction * 100,
                   options.minutes);
      if (fraction >= 1.0) std::fprintf(stderr, "\n");
    };
  try
  {
    const nao::SimulationResult result = nao::runSimulation(options);
    std::cout << nao::summaryTable(result);
    std::cout << "output in " << options.outputDirectory.string() << ":";
    if (!result.log.empty()) std::cout << " " << result.log.filename().string();
    std::cout << " " << result.csv.filename().string();
    for (const auto& plot : result.plots)
      std::cout << " " << plot.filename().string();
    std::cout << "\n";
    return 0;
  }
  catch (const std::exception& error)
  {
    std::cerr << "\nSimulator: " << error.what() << "\n";
    return 1;
  }
}
