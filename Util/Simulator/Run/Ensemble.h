#pragma once
// An ensemble: the same scenario on N simulated robots drawn from Config/Sim/robots.toml, robot i with seed
// seed + i. Each robot is an independent process — this Simulator's own `run` — so the same job list runs
// here (`--jobs` at a time) or on other hosts with an existing scheduler (`--print-jobs` | GNU parallel); the
// report reads whatever robot folders it finds. A robot's folder is named by its seed, the robot it is:
//   <output>/robot-<seed>/summary.csv, <scenario>.csv  one per robot (SimulationRun), and its plots
//   <output>/ensemble.csv                              one row per robot
//   <output>/distribution.csv, distribution.png        highest leg current and temperature over time:
//                                                      median and 10-90 % band over robots, or each
//                                                      robot's curve below percentileRobots
#include "Util/Simulator/Run/SimulationTypes.h"

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
  std::filesystem::path output;          ///< robot-<seed> folders go here
  int robots = 20;
  std::uint64_t seed = 1; ///< robot i: seed + i
  std::string preset;     ///< every robot's preset (robots.toml); empty: none
  int worn = 0;           ///< the last `worn` robots use the preset "worn" (e.g. Make/run: 1 of 8)
  int jobs = 0;           ///< processes at a time; 0: one per core
  /// Asked between polls (e.g. whether Ctrl-C came): true starts no more robots and sends SIGTERM to the
  /// running ones, which write their outputs for the time simulated; runEnsemble then returns.
  std::function<bool()> stopRequested;
};

/// The folder of the robot with `seed`: <output>/robot-<seed>.
std::filesystem::path robotFolder(const std::filesystem::path& output, std::uint64_t seed);

/// The command line of robot `index` (argv, starting with the simulator), as --print-jobs prints it.
std::vector<std::string> robotCommand(const EnsembleOptions& options, int index);

/// One process of a job list: its command line (argv, the program first; `--progress-fd` is appended), the folder
/// its terminal output goes to (run.out) and how a failure names it ("seed 3").
struct ProcessJob
{
  std::vector<std::string> command;
  std::filesystem::path folder;
  std::string name;
};

struct ProcessOptions
{
  int jobs = 0;                        ///< processes at a time; 0: one per core
  std::string what = "runs";           ///< what the processes are, for the failure's message ("robot runs")
  std::function<bool()> stopRequested; ///< as EnsembleOptions::stopRequested
};

/// Runs the processes, `jobs` at a time, each a Simulator `run` that reports its progress; `progress` gets the mean
/// fraction done. Throws std::runtime_error naming the processes that failed (and the last line of their run.out);
/// one stopped by stopRequested did not fail.
void runProcesses(const std::vector<ProcessJob>& processes, const ProcessOptions& options,
                  const std::function<void(double)>& progress);

/// Runs every robot's process, `jobs` at a time (runProcesses); `progress` gets the fraction of all simulated time done.
/// Throws std::runtime_error naming the robots whose process failed (their output folder holds the details:
/// run.out, and error.txt once the run got as far as its own error handling); a robot stopped by stopRequested did
/// not fail.
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
  bool singleRun = false;       ///< the folder is one run's (its summary.csv in it), not an ensemble's
};

/// Reads every <folder>/robot-*/, or without any the single run whose summary.csv is in `folder`. Throws
/// std::runtime_error naming a broken file, a robot whose run failed (its error.txt) or an empty folder.
EnsembleReport readEnsemble(const std::filesystem::path& folder);

/// Robots from which the ensemble table adds percentiles: of fewer, the 10 % and 90 % are the rows themselves or
/// interpolated between two of them, and mean nothing beyond them.
inline constexpr std::size_t percentileRobots = 10;

/// The ensemble table's column headers: words, and the unit in brackets (streams::labelWithUnit).
std::vector<std::string> ensembleColumnLabels();

/// Per robot (by seed): preset, worst leg joint and its highest current, the highest leg current of the last 10 s,
/// when every leg joint was below 300 mA and 80 % below 50 mA, hottest final temperature and status, first status
/// 1, motor energy, lowest torso height; then, from percentileRobots on, the 10th percentile, median and 90th
/// percentile over the robots.
std::string ensembleTable(const EnsembleReport& report);

/// ensemble.csv, distribution.csv and distribution.png into `folder` (the band from percentileRobots robots on, each
/// robot's curve below); returns the PNG.
std::filesystem::path writeEnsembleFiles(const EnsembleReport& report, const std::filesystem::path& folder);

/// One figure with the bands of several ensembles (e.g. heat adjustment on and off); an ensemble of fewer than
/// percentileRobots robots gets a curve per robot instead of a band.
void plotEnsembles(const std::vector<EnsembleReport>& reports, const std::vector<std::string>& labels,
                   const std::filesystem::path& png, const std::string& title);

/// The p-quantile (0..1) of values, linear between order statistics.
double percentile(std::vector<double> values, double p);
} // namespace nao
