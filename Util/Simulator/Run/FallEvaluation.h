#pragma once
// InertialDataFilter and FallDownStateDetector against the simulator's truth. Each run is a scenario of Config/ run
// in this process with the robot's log (InertialSensorData, InertialData, FallDownState) and the truth every frame
// (RunSample: the torso's true orientation, whether the torso or the head touches the floor). Scenarios are
// variants of the ones in Config/Scenarios with their events replaced (a pick-up, pushes of rising impulse from one
// direction), written into a copy of the configuration folder. Impact: the first frame after the posture is held in
// which a MuJoCo contact joins a geom of the torso, the head or an upper arm to the floor
// (GroundTruth::upperBodyOnGround; a fall to the side lands on the shoulder first).
// Tables: the modules' READMEs.
#include "Framework/ScenarioScript.h"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// What a run's frames count for.
enum class FallPhase
{
  stand,    ///< posture held, nothing happens
  stepping, ///< stepping in place
  pushed,   ///< from the first push on, until the impact
  lifted,   ///< held in the air (from 0.5 s after the pick-up to the put-down)
  none,     ///< counted for the fall detection only (arm motions, sitting)
};

struct FallRunSpec
{
  std::string label;    ///< e.g. "push 45°"
  std::string scenario; ///< Config/Scenarios/<scenario>.toml, its events replaced by `events`
  bool replaceEvents = false;
  std::vector<ScriptEvent> events;
  FallPhase phase = FallPhase::stand;
  double seconds = 30; ///< simulated
  std::uint64_t seed = 1;
  double direction = 0; ///< degrees, of the pushes in the world frame (0: the robot's front, +x)
};

/// The text of the scenario file `scenario` without its events (`events = []` and every [[Script.events]] table),
/// then `events`.
std::string scenarioWithEvents(const std::filesystem::path& scenario, const std::vector<ScriptEvent>& events);

/// Pushes from `direction` degrees (world frame; 0: +x, 90: +y), one every `interval` s from `first` s on, of
/// impulses `impulses` N·s each over `duration` s.
std::vector<ScriptEvent> risingPushes(double direction, double first, double interval,
                                      const std::vector<double>& impulses, double duration);

struct FallRunResult
{
  FallRunSpec spec;
  std::vector<double> filterErrors, complementaryErrors, lolaErrors; ///< rad, |roll| and |pitch| errors
  std::size_t frames = 0;                                            ///< log frames read
  std::size_t fallingFrames = 0;                                     ///< frames FallDownState said falling
  std::size_t falseFrames = 0;     ///< falling frames with no impact within 3 s after
  std::size_t detections = 0;      ///< entries into falling
  std::size_t falseDetections = 0; ///< of them, with no impact within 3 s after
  double impact = -1;        ///< s, first contact of torso, head or upper arm with the floor; −1: none
  double detection = -1;     ///< s, the last entry into falling before the impact; −1: none
  double impulse = 0;        ///< N·s of the last push before the impact (0: none)
  double maxTilt = 0;        ///< rad, the true torso tilt's maximum before the impact
  std::filesystem::path log; ///< the robot's log
};

/// Runs `spec` in this process (configuration from `configDirectory`, outputs in `output`/<label-seed>/: the log,
/// the configuration it ran with, orientation.csv with every frame's truth and estimates).
FallRunResult runFallEvaluation(const FallRunSpec& spec, const std::filesystem::path& configDirectory,
                                const std::filesystem::path& output);

/// The runs of `Simulator falls`: stand, stepping, picked up, arm motions, sit, and pushes of rising impulse from
/// 8 directions, per seed (InertialDataFilter's README says what each does).
std::vector<FallRunSpec> fallRunSpecs(const std::vector<std::uint64_t>& seeds);

/// Markdown: (a) the orientation error per phase for the filter, the complementary filter and LoLA's angles, (b) the
/// fall detection per push run, (c) false detections per non-falling scenario.
std::string fallTables(const std::vector<FallRunResult>& results);
} // namespace nao

namespace nao
{
/// `Simulator falls`: every run of fallRunSpecs(seeds) in turn, progress on stdout, the tables into
/// `output`/falls.md, each run's orientation.csv kept (its log and configuration removed). Returns the tables.
std::string runFallEnsemble(const std::filesystem::path& configDirectory,
                            const std::vector<std::uint64_t>& seeds, const std::filesystem::path& output);
} // namespace nao
