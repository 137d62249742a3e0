#pragma once
// One simulated run of a scenario with one simulated robot: MuJoCo physics with the motor model, the LoLA
// server, and the robot talking LoLA to it — the unchanged robot code, either in this process (its own
// threads, a LolaBody) or the robot binary as a child process (RobotProcess.h). Lock-step (the simulator
// advances as soon as the robot has answered: far faster than real time) or real time. The scenario's
// [Script] gives the start posture and the events (pick up, put down, push); the seed and preset draw the
// robot (Config/Sim/robots.toml).
#include "Util/Simulator/Run/SimulationTypes.h"

#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// s a default run goes on after the script's last scripted moment (ScenarioScript::scriptedEnd): what the last
/// event started settles (after a put-down every leg joint is below 300 mA 7 s later on seed 1) and the summary's
/// last-10-s figures come from the settled robot.
inline constexpr double scriptMarginSeconds = 30.0;

/// Simulated minutes a run of the scenario lasts unless --minutes says otherwise: one, or the script's end plus
/// scriptMarginSeconds if that is later, so that the defaults show the whole script.
double defaultMinutes(const std::filesystem::path& configDirectory, const std::string& robot,
                      const std::string& scenario);

/// The title of a run's plots: scenario, simulated minutes, seed, preset, variant, sensor fault and the overridden
/// providers.
std::string plotTitle(const SimulationResult& result,
                      const std::vector<ProviderChoice>& providerOverrides = {});

/// Runs the scenario. Throws std::runtime_error (or StartupError) naming what failed.
SimulationResult runSimulation(const SimulationOptions& options);

/// The options of a run of `scenario` with `configDirectory` for `minutes` with `seed`, no plots, its output in the
/// fresh folder `outputDirectory` (an old one is removed).
SimulationOptions freshRunOptions(const std::filesystem::path& configDirectory, const std::string& scenario,
                                  double minutes, std::uint64_t seed,
                                  const std::filesystem::path& outputDirectory);

/// The per-joint table (mean, final and highest current, temperatures, status, energy) as text, every column
/// headed by its words and unit (TextTable.h); then when every leg joint was below heatingCurrent for good. From
/// the summary's fields only: the same for a run read back from its summary.csv.
std::string jointTable(const SimulationResult& result);

/// jointTable(), then how fast the simulation ran and, apart from it, how long the plots took, the torso height,
/// the LoLA answers and how the run ended.
std::string summaryTable(const SimulationResult& result);
} // namespace nao
