#pragma once
// The plant's calibration against B-Human's figures (Util/Simulator/Physics/README.md, "Calibration"): an ensemble of
// unadjusted stands (the heat adjustment and smart stiffness off, so that the robot code only commands B-Human's
// stand and no module the plant is meant to judge takes part), and per robot the single-robot figures of
// Physics/PlantCalibration.h. `Simulator calibration` writes the tables; CalibrationTests asserts the ensemble's
// windows on every Make/test, the plant tests the single-robot figures of the nominal robot.
#include "Util/Simulator/Physics/PlantCalibration.h"
#include "Util/Simulator/Run/Ensemble.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace nao
{
/// What every robot's run gets as --provider: the heat adjustment and smart stiffness off.
inline const std::vector<std::string> unadjustedProviders{"JointRequest=off", "EnergySaving=off",
                                                          "StiffnessJointRequest=off"};

/// s: the "after 1 min" figures are the means over the samples of the 10 s before this (or before the run's end).
inline constexpr double calibrationMinute = 60.0;

struct CalibrationSettings
{
  int robots = 20;
  int worn = 2;             ///< the last this many use the preset worn
  std::uint64_t seed = 100; ///< robot i: seed + i
  double minutes = 10;      ///< simulated, per ensemble run; also the single robots' warming at stiffness 0
  double room = 25;         ///< °C: every robot in this room and started at it
  int jobs = 0;             ///< processes at a time; 0: one per core
  std::filesystem::path simulator; ///< the Simulator executable that runs one robot
  std::filesystem::path config;    ///< Config/
  std::filesystem::path
      output; ///< the ensemble's robot-<seed>/ go into <output>/stand (an earlier one removed)
  std::function<bool()> stopRequested;
};

/// One robot of the unadjusted stand's ensemble.
struct CalibrationStand
{
  std::uint64_t seed = 0;
  std::string preset;
  double minuteEnd = 0; ///< s, the end of the "after 1 min" window: 60 s, or the run's end if sooner
  std::array<double, 2> kneeCurrents{}; ///< A, left and right knee: mean reported current over the window
  std::array<double, 2> kneeErrors{}; ///< rad, left and right knee: mean |request − reading| over the window
  double firstHot = -1;               ///< s, the first temperature status 1 of any joint; −1: never
  int highestStatus = 0;              ///< the highest temperature status of any joint during the run
  double lowestTorso = 0;             ///< m, the torso's lowest height

  double highestKneeCurrent() const { return std::max(kneeCurrents[0], kneeCurrents[1]); }
};

/// A robot's figures from its run (the summary and the CSV's samples).
CalibrationStand calibrationStand(const RobotRun& run);

/// The ensemble of unadjusted stands (`run stand --room R --provider ...` per robot, no plots, no log), `jobs` at a
/// time; `progress` gets the fraction done. Throws as runEnsemble and readEnsemble do, and std::runtime_error("stopped")
/// when stopRequested stopped the runs.
std::vector<CalibrationStand> runCalibrationEnsemble(const CalibrationSettings& settings,
                                                     const std::function<void(double)>& progress);

/// One robot's single-robot figures (Physics/PlantCalibration.h), in the settings' room.
struct CalibrationRobot
{
  std::optional<std::uint64_t> seed; ///< none: the nominal robot
  std::string preset;
  sim::LimpStand stand;          ///< 10 s at stiffness 0
  sim::PushedFall limpPush;      ///< pushed at stiffness 0
  sim::PushedFall hotPush;       ///< pushed at status 3
  sim::LimpWarming warming;      ///< `minutes` at stiffness 0
  sim::KneeStall stall, reduced; ///< the knee stalled at stiffness 1 and 0.75
};

/// The nominal robot, then robot seed + i (the last `worn` worn) as the ensemble draws them, one after the other.
std::vector<CalibrationRobot> measureCalibrationRobots(const CalibrationSettings& settings);

/// The Markdown tables, each under a sentence that says what its rows and columns are: per robot of the ensemble, per
/// single robot, and the summary (median, 10 % and 90 % over the robots) beside the public figure each is
/// calibrated to and the plant numbers fitted to it.
std::string calibrationTables(const std::vector<CalibrationStand>& stands,
                              const std::vector<CalibrationRobot>& robots,
                              const CalibrationSettings& settings);
} // namespace nao
