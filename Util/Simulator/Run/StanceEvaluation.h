#pragma once
// The posture advice for stance (Tools/Stiffness/StanceAdvice.h) on the model and on simulated robots: the static
// knee and ankle torques of the stands that the scenarios stand, highstand, standadvised and standadvisedabs hold,
// and an ensemble of each with the heat adjustment off and on, judged on the knee and ankle pitch joints of both
// legs (`Simulator stances`; LimbStiffnessProvider's README, "Posture advice for stance").
#include "Tools/Stiffness/StanceAdvice.h"
#include "Util/Simulator/Run/SimulationTypes.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nao
{
/// The scenarios compared, in the tables' order.
inline const std::array<std::string, 4> stanceScenarios{"stand", "highstand", "standadvised",
                                                        "standadvisedabs"};

/// What a robot's run gets for "heat adjustment off": the heat adjustment's stage passes the request through.
inline const std::string heatAdjustmentOff = "JointRequest=off";

/// One row of the model's table.
struct StanceModelRow
{
  std::string label; ///< Markdown: what the posture is and the scenario that holds it
  stiffness::StanceEvaluation evaluation;
};

/// On the Default robot's model (its mass calibration) with the stand scenarios' arms: the postures the last
/// keyframes of stand and highstand hold (Config/Scenarios), then the advice of the usual stands by the squared and
/// by the absolute sum (the postures standadvised and standadvisedabs hold; StanceAdviceTests checks that they do).
std::vector<StanceModelRow> stanceModelRows(const std::filesystem::path& configDirectory);

/// The knee and ankle pitch joints of both legs in one robot's run.
struct StanceRobotFigures
{
  std::uint64_t seed = 0;
  double meanCurrent = 0;  ///< A, the 4 joints' mean reported currents over the run, summed
  double finalCurrent = 0; ///< A, their mean reported currents over the last 10 s, summed
  double hottest = 0;      ///< °C, the highest reported temperature of the 4 at the end
  double energy = 0;       ///< J, their motor energy, summed
  int status = 0;          ///< the highest temperature status of the 4 during the run
};

StanceRobotFigures stanceRobotFigures(const SimulationResult& run);

/// One scenario's ensemble with the heat adjustment off or on.
struct StanceEnsemble
{
  std::string scenario;
  bool heatAdjustment = true;
  std::vector<StanceRobotFigures> robots; ///< by seed
};

struct StanceEnsembleSettings
{
  int robots = 8;
  std::uint64_t seed = 100;        ///< robot i: seed + i
  double minutes = 10;             ///< simulated
  double room = 25;                ///< °C: every robot in this room and started at it
  int jobs = 0;                    ///< processes at a time; 0: one per core
  std::filesystem::path simulator; ///< the Simulator executable that runs one robot
  std::filesystem::path config;    ///< Config/
  std::filesystem::path output;    ///< <scenario>-<off|on>/robot-<seed>/ go here (earlier ones removed)
  std::function<bool()> stopRequested;
};

/// Every scenario of stanceScenarios with the heat adjustment off, then on, one robot process each (no plots, no
/// log) in one job list, `jobs` at a time; `progress` gets the fraction done. Throws as runProcesses does, and
/// std::runtime_error("stopped") when stopRequested stopped the runs.
std::vector<StanceEnsemble> runStanceEnsembles(const StanceEnsembleSettings& settings,
                                               const std::function<void(double)>& progress);

/// Both Markdown tables, each under a sentence that says what its rows and columns are: the model's torques per
/// posture, and per ensemble the median (min–max) over its robots.
std::string stanceTables(const std::vector<StanceModelRow>& model,
                         const std::vector<StanceEnsemble>& ensembles,
                         const StanceEnsembleSettings& settings);
} // namespace nao
