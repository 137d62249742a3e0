#include "Util/Simulator/Run/HarmMatrix.h"

#include "Representations/Infrastructure/Joints.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <stdexcept>

namespace nao
{
const std::vector<StageConfiguration>& stageConfigurations()
{
  static const std::vector<std::string> off = {"JointRequest=off", "EnergySaving=off",
                                               "StiffnessJointRequest=off", "SmartStiffness=off"};
  static const std::vector<StageConfiguration> configurations = {
      {"off", off, 0, true},
      {"off2", off, 1, true},
      {"off3", off, 2, true},
      {"heat", {"StiffnessJointRequest=off", "SmartStiffness=off"}},
      {"smart", {"JointRequest=off", "EnergySaving=off"}},
      {"both", {}},
  };
  return configurations;
}

std::string variantLabel(const std::string& variant)
{
  return variant.empty() ? "home" : variant;
}

std::vector<Harm> harmsAgainstOff(const std::vector<const EnsembleReport*>& off, const EnsembleReport& stages,
                                  const HarmMargin& margin)
{
  std::map<std::uint64_t, std::vector<const SimulationResult*>> bySeed;
  for (const EnsembleReport* report : off)
    for (const RobotRun& robot : report->robots)
      bySeed[robot.summary.seed].push_back(&robot.summary);
  std::vector<Harm> harms;
  for (const RobotRun& robot : stages.robots)
  {
    const auto found = bySeed.find(robot.summary.seed);
    if (found == bySeed.end() || found->second.size() != off.size())
      throw std::runtime_error("seed " + std::to_string(robot.summary.seed) +
                               " ran with the stages but not " + std::to_string(off.size()) +
                               " times without them");
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const JointSummary& a = robot.summary.joints[j];
      // The highest of the runs without the stages; their spread in temperature.
      double mean = 0, peak = 0, winding = 0, coolest = 1e9;
      for (const SimulationResult* without : found->second)
      {
        mean = std::max(mean, without->joints[j].heldMeanCurrent);
        peak = std::max(peak, without->joints[j].heldPeakCurrent);
        winding = std::max(winding, without->joints[j].finalWinding);
        coolest = std::min(coolest, without->joints[j].finalWinding);
      }
      const double currentMargin = std::max(margin.current, margin.counts * a.countCurrent);
      const auto check = [&](const char* what, double with, double reference, double allowed)
      {
        if (with > allowed)
          harms.push_back({robot.summary.seed, robot.summary.preset, robot.summary.variant,
                           std::string(jointNames[j]), what, with, reference, allowed});
      };
      check("mean current", a.heldMeanCurrent, mean, mean * (1 + margin.fraction) + currentMargin);
      check("peak current", a.heldPeakCurrent, peak, peak * (1 + margin.fraction) + currentMargin);
      check("final temperature", a.finalWinding, winding,
            winding + (winding - coolest) + margin.fraction * std::max(0.0, winding - margin.room) +
                margin.temperature);
    }
  }
  return harms;
}

HarmMatrix runHarmMatrix(const HarmMatrixOptions& options, const std::function<void(double)>& progress)
{
  HarmMatrix matrix;
  matrix.scenario = options.scenario;
  matrix.minutes = options.minutes;
  matrix.margin = options.margin;
  const auto& configurations = stageConfigurations();
  const double total = static_cast<double>(options.variants.size() * configurations.size());
  std::size_t done = 0;
  char minutes[32];
  std::snprintf(minutes, sizeof minutes, "%.10g", options.minutes);
  for (const std::string& variant : options.variants)
  {
    const std::size_t first = matrix.cells.size();
    for (const StageConfiguration& configuration : configurations)
    {
      if (options.stopRequested && options.stopRequested()) throw std::runtime_error("stopped");
      EnsembleOptions ensemble;
      ensemble.simulator = options.simulator;
      ensemble.output = options.output / variantLabel(variant) / configuration.name;
      std::filesystem::remove_all(ensemble.output);
      ensemble.robots = options.robots;
      ensemble.worn = options.worn;
      ensemble.seed = options.seed;
      ensemble.jobs = options.jobs;
      ensemble.stopRequested = options.stopRequested;
      ensemble.runArguments = {"run",     options.scenario, "--minutes",
                               minutes,   "--config",       options.config.string(),
                               "--quiet", "--no-plots",     "--no-log"};
      if (!variant.empty()) ensemble.runArguments.insert(ensemble.runArguments.end(), {"--variant", variant});
      // Every robot in the room the temperature margin counts the rise from, started at it: a robot's own room
      // and warm start (robots.toml) would make the start's cooling most of a short run's temperature change.
      ensemble.runArguments.insert(ensemble.runArguments.end(),
                                   {"--room", std::to_string(options.margin.room)});
      for (const std::string& provider : configuration.providers)
        ensemble.runArguments.insert(ensemble.runArguments.end(), {"--provider", provider});
      if (configuration.noiseSeed != 0)
        ensemble.runArguments.insert(ensemble.runArguments.end(),
                                     {"--noise-seed", std::to_string(configuration.noiseSeed)});
      runEnsemble(ensemble,
                  [&](double fraction)
                  {
                    if (progress) progress((static_cast<double>(done) + fraction) / total);
                  });
      matrix.cells.push_back({variant, configuration.name, readEnsemble(ensemble.output), {}});
      ++done;
    }
    std::vector<const EnsembleReport*> off;
    for (std::size_t c = first; c < matrix.cells.size(); ++c)
      if (configurations[c - first].stagesOff) off.push_back(&matrix.cells[c].report);
    for (std::size_t c = first; c < matrix.cells.size(); ++c)
    {
      if (!configurations[c - first].stagesOff)
      {
        matrix.cells[c].harms = harmsAgainstOff(off, matrix.cells[c].report, options.margin);
        continue;
      }
      // The plant's own spread: this run without the stages against the other runs without them.
      std::vector<const EnsembleReport*> others;
      for (const EnsembleReport* report : off)
        if (report != &matrix.cells[c].report) others.push_back(report);
      matrix.cells[c].harms = harmsAgainstOff(others, matrix.cells[c].report, options.margin);
    }
  }
  return matrix;
}
} // namespace nao
