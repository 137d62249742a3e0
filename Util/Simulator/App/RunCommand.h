#pragma once
// `Simulator run` and `Simulator serve`: one robot (its log, CSV, summary, plots and table), an ensemble (one process
// per robot, the ensemble's table and figure) or one robot served to any LoLA client.
#include "Util/Simulator/Run/SimulationRun.h"
#include <string>
#include <vector>

namespace nao::simcli
{
/// The options of `run` and `serve` as the command line gave them (main.cpp binds them).
struct RunCommand
{
  SimulationOptions options;
  std::string configDirectory; ///< Config/; set before execute()
  std::string output;          ///< --output; empty: Build/Simulation/<scenario> (serve: serve-<scenario>)
  std::string robotBinary;     ///< --robot-binary; empty: the robot code in this process
  std::vector<std::string> providers; ///< --provider Representation=Module, as given
  std::string markdown; ///< --markdown: an ensemble's table also into this file, headed by the command
  bool quiet = false, noLog = false, noPlots = false, printJobs = false, robotLogs = false;
  int robots = 1, worn = 0, jobs = 0;
  int progressFd = -1; ///< an ensemble's own processes report their progress here
  bool serve = false;  ///< `serve`, else `run`
  bool minutesGiven = false;
  std::string serveSocket = "/tmp/robocup";
  bool lockStep = false;
  bool control = false; ///< serve --control: pause, resume, step, speed from stdin

  /// Runs it; argc and argv go into error.txt of a failed run. Throws what the run threw.
  int execute(int argc, char** argv);

private:
  /// --robots, --worn or --print-jobs: one process per robot, then the ensemble's table and figure; `command` heads
  /// the table in --markdown's file.
  int executeEnsemble(const std::string& command);
};
} // namespace nao::simcli
