#pragma once
// SitDownProvider on the simulated robot, judged by the simulator's truth (the torso's height above the floor) and by
// what the plant applies (the stiffness the robot sent): Config/Scenarios/chestbutton.toml (a press while standing
// at 4 s, counted at its release at 4.25 s, a second press at 12 s) and Config/Scenarios/lowbattery.toml (a battery
// that starts just above the threshold and runs down at the rate its current draws). Each run lasts 18 s, a CSV row
// every 0.12 s; the robot's log says the presses and the low-battery warning.
#include "Representations/MotionControl/SitDown.h"
#include "Util/Simulator/Run/SimulationRun.h"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nao
{
inline constexpr double sitDownRunMinutes = 18.0 / 60.0;
/// 0..1: SitDownProvider's lowBatteryCharge (Config/Modules/SitDownProvider.toml), where the warning's time starts.
inline constexpr float lowBatteryThreshold = 0.1f;

/// A window of a run's samples.
struct SitDownWindow
{
  double from = 0, to = 0; ///< s
  float meanHeight = 0;    ///< m, the torso's mean height above the floor
  float maxStiffness = 0;  ///< the largest stiffness the plant applied to any joint
  int samples = 0;
};

/// The samples of `result` from `from` to `to` s (both included).
SitDownWindow sitDownWindow(const SimulationResult& result, double from, double to);

/// Runs `scenario` on robot `seed` for sitDownRunMinutes (no plots, the robot's log kept) into `outputDirectory`
/// (an old one removed).
SimulationResult runSitDownScenario(const std::filesystem::path& configDirectory, const std::string& scenario,
                                    std::uint64_t seed, const std::filesystem::path& outputDirectory);

struct ChestButtonOutcome
{
  std::uint64_t seed = 0;
  SitDownWindow standing; ///< 3..4 s, before the press at 4 s
  SitDownWindow sitting; ///< 9..11.9 s: limp 3.8 s after the press counted at 4.25 s; before the next at 12 s
  SitDownWindow standingAgain; ///< 16.5..18 s: after 3 s of standing up from the press counted at 12.25 s
  double minTorsoHeight = 0;   ///< m, the run's lowest
  std::optional<std::uint32_t> presses; ///< SitDown.presses of the log's last frame that has it
};

/// Judges a run of chestbutton.
ChestButtonOutcome evaluateChestButtonRun(const SimulationResult& result);

struct LowBatteryFrame
{
  double time = 0;    ///< s, FrameInfo's
  float charge = 0;   ///< 0..1, the reading
  float believed = 0; ///< 0..1, SensorHealth's
  SitDown sitDown;
};

struct LowBatteryOutcome
{
  std::uint64_t seed = 0;
  std::vector<LowBatteryFrame>
      frames;             ///< the log's frames with FrameInfo, BatteryData, SensorHealth, SitDown
  double belowAt = -1;    ///< s, the first frame whose reading is below lowBatteryThreshold; -1: none
  double warnedAt = -1;   ///< s, the first frame with SitDown.lowBattery; -1: none
  SitDownWindow standing; ///< 2..3 s: the robot stands from 1.5 s on
  SitDownWindow
      sitting; ///< from 4 s after the warning (limp 3.8 s after it) to 18 s; empty without a warning
  double minTorsoHeight = 0; ///< m, the run's lowest
};

/// Judges a run of lowbattery.
LowBatteryOutcome evaluateLowBatteryRun(const SimulationResult& result);

/// The Markdown tables: per scenario, seed and window the torso's mean height and the largest stiffness; per run
/// the lowest torso height, the presses and the warning's time. Headed by `command` when it is not empty.
std::string sitDownTables(const std::vector<ChestButtonOutcome>& chestButton,
                          const std::vector<LowBatteryOutcome>& lowBattery, const std::string& command);
} // namespace nao
