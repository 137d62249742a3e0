#pragma once
// An ensemble: the same scenario on N simulated robots drawn from Config/Sim/robots.toml, robot i with seed
// seed + i. Each robot is an independent process — this Simulator's own `run` — so the same job list runs
// here
// (`--jobs` at a time) or on other hosts with an existing scheduler (`--print-jobs` | GNU parallel); the
// report reads whatever robot folders it finds:
//   <output>/robot-<i>/summary.csv, <scenario>.csv     one per robot (SimulationRun)
//   <output>/ensemble.csv                              one row per robot, then the percentiles over robots
//   <output>/distribution.csv, distribution.png        highest leg current and temperature over time:
//                                                      median and 10-90 % band over robots
#include "Util/Simulator/Run/SimulationRun.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nao
{
struct EnsembleOptions
{
  std::filesystem::path simulator;       ///< the Simulator executable that runs one robot
  std::vector<std::string> runArguments; ///< `run <scenario> --minutes M ...`: what every robot's run gets
  std::filesystem::path output;          ///< robot-<i> folders go here
  int robots = 20;
  std::uint64_t seed = 1; ///< robot i: seed + i
  std::string preset;     ///< every robot's preset (robots.toml); empty: none
  int worn = 0;           ///< the last `worn` robots use the preset "worn" (e.g. Make/run: 1 of 8)
  int jobs = 0;           ///< processes at a time; 0: one per core
  /// Asked between polls (e.g. whether Ctrl-C came): true starts no more robots and sends SIGTERM to the
  /// running ones, which write their outputs for the time simulated; runEnsemble then returns.
  std::function<bool()> stopRequested;
};

/// The command line of robot `index` (argv, starting with the simulator), as --print-jobs prints it.
std::vector<std::string> robotCommand(const EnsembleOptions& options, int index);

/// Runs every robot's process, `jobs` at a time; `progress` gets the fraction of all simulated time done.
/// Throws std::runtime_error naming the robots whose process failed (their output folder holds the details); a
/// robot stopped by stopRequested did not fail.
void runEnsemble(const EnsembleOptions& options, const std::function<void(double)>& progress);

/// One robot's run as the report reads it back.
struct RobotRun
{
  SimulationResult summary;
  std::vector<RunSample> samples;
  std::filesystem::path folder;
};

struct EnsembleReport
{
  std::string scenario;
  std::vector<RobotRun> robots; ///< ordered by seed
};

/// Reads every <folder>/robot-*/ that holds a summary. Throws std::runtime_error naming a broken file or an
/// empty folder.
EnsembleReport readEnsemble(const std::filesystem::path& folder);

/// Per robot: seed, preset, highest and final current of the worst leg joint, time until every leg joint is
/// below 300 mA, hottest final temperature and status, first status 1, motor energy; then the 10 %, 50 % and
/// 90 % percentiles over robots.
std::string ensembleTable(const EnsembleReport& report);

/// ensemble.csv, distribution.csv and distribution.png into `folder`; returns the PNG.
std::filesystem::path writeEnsembleFiles(const EnsembleReport& report, const std::filesystem::path& folder);

/// One figure with the bands of several ensembles (e.g. heat adjustment on and off).
void plotEnsembles(const std::vector<EnsembleReport>& reports, const std::vector<std::string>& labels,
                   const std::filesystem::path& png, const std::string& title);

/// The p-quantile (0..1) of values, linear between order statistics.
double percentile(std::vector<double> values, double p);
} // namespace nao
