#pragma once
// `Simulator run` and `Simulator serve`: one robot (its log, CSV, summary, plots and table), an ensemble (one process
// per robot, the ensemble's table and figure) or one robot served to any LoLA client.
#include "Util/Simulator/Run/Ensemble.h"
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
  bool control = false; ///< serve --control: pause, resume, step, speed and events from stdin
  std::string replay;   ///< --replay: events.csv whose control rows the run applies again

  /// Runs it; argc and argv go into error.txt of a failed run. Throws what the run threw.
  int execute(int argc, char** argv);

private:
  /// serve: its socket, real time unless --lock-step, an hour unless --minutes, serve-<scenario>, no log, quiet.
  void applyServeDefaults();
  /// The scenario, --robot, --variant and --fault, before anything runs: 0, or 2 with the error on stderr.
  int checkCommandLine() const;
  /// The minutes (the scenario's default unless given) and the output folder, an earlier run in the default one
  /// kept aside; whether the folder exists now.
  bool prepareOutput();
  /// --provider Representation=Module into the options; false, with the error on stderr, when one is malformed.
  bool addProviderOverrides();
  /// --replay's events into options.replay; false (said why) when the file cannot be read.
  bool readReplay();
  /// One robot in this process: progress, --control, the run, its summary table and the files it wrote.
  /// `outputExisted`: whether the output folder was there before (markFailedOutput removes one it left empty).
  int executeOne(int argc, char** argv, bool outputExisted);
  /// --robots, --worn or --print-jobs: one process per robot, then the ensemble's table and figure; `command` heads
  /// the table in --markdown's file.
  int executeEnsemble(const std::string& command);
  /// The ensemble this command line asks for: each robot's `run` arguments from the options given.
  EnsembleOptions ensembleOptions() const;
};
} // namespace nao::simcli
