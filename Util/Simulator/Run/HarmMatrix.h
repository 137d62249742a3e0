#pragma once
// The "do no harm" matrix: every plant variant (Config/Sim/variants.toml, and the home plant) × every configuration
// of the motion-safety stages (off, heat adjustment, smart stiffness, both), each an ensemble of the same robots.
// A stage harms a joint when, on the same robot and variant, the joint's true current (its mean, or its highest
// 5-second mean) once the posture is held, or its final winding temperature, exceeds every stages-off run (three
// draws of the robot's noise: what the same robot does on three days) by more than the margin. `Simulator matrix`
// prints the table; HarmMatrixTests runs a short form in Make/test.
#include "Util/Simulator/Run/Ensemble.h"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nao
{
/// A configuration of the motion-safety stages: its name and the --provider arguments that make it.
struct StageConfiguration
{
  std::string name;
  std::vector<std::string> providers;
  std::uint64_t noiseSeed =
      0;                  ///< --noise-seed: another draw of the robot's sensor and board noise (0: its own)
  bool stagesOff = false; ///< a run without the stages: what the robot does without them
};

/// "off", "off2", "off3" (no heat adjustment, no smart stiffness; the same robots with three draws of their sensor
/// and board noise: how far the same robot differs from itself without any stage), "heat" (heat adjustment alone),
/// "smart" (smart stiffness alone), "both" (the scenario's default). Self-collision avoidance stays on in all: it
/// does nothing in these postures.
const std::vector<StageConfiguration>& stageConfigurations();

/// How much worse than the stages-off run counts as harm.
struct HarmMargin
{
  double fraction = 0.1; ///< of the stages-off value (of a temperature: of its rise over the room), plus ...
  double current = 0.02; ///< A, at least; or ...
  /// ... this many counts of the joint's board (JointSummary::countCurrent), if more: the same robot without the
  /// stages holds a joint one or two counts apart from one noise draw to the next
  double counts = 2.0;
  double temperature = 1.0; ///< K on the final winding temperature, plus the spread of the stages-off runs
  double room = 25.0;       ///< °C the robot starts at (Config/Sim/motors.toml roomTemperature)
};

struct HarmMatrixOptions
{
  std::filesystem::path simulator; ///< the Simulator executable
  std::filesystem::path config;    ///< Config/
  std::filesystem::path output;    ///< <variant>/<configuration>/robot-<seed>/ go here
  std::string scenario = "stand";
  std::vector<std::string> variants; ///< "" is the home plant (no variant)
  int robots = 8;
  int worn = 2; ///< the last this many use robots.toml's preset "worn"
  std::uint64_t seed = 100;
  double minutes = 2;
  int jobs = 0; ///< processes at a time; 0: one per core
  HarmMargin margin;
  std::function<bool()> stopRequested;
};

/// One joint of one robot that a configuration left worse than the stages-off run.
struct Harm
{
  std::uint64_t seed = 0;
  std::string preset, variant; ///< the robot's preset and the variant it ran (with a combination's parts)
  std::string joint;
  std::string what; ///< "mean current", "peak current" or "final temperature"
  double withStages = 0, withoutStages = 0, allowed = 0; ///< A or °C (without: the highest of the runs)
};

struct MatrixCell
{
  std::string variant;       ///< "" for the home plant
  std::string configuration; ///< StageConfiguration::name
  EnsembleReport report;
  std::vector<Harm>
      harms; ///< stages off: where this run exceeds the other stages-off runs (the plant's own spread)
};

struct HarmMatrix
{
  std::string scenario;
  double minutes = 0;
  HarmMargin margin;
  std::vector<MatrixCell> cells; ///< per variant, the configurations in stageConfigurations()' order
};

/// A variant's name in tables and output folders: "home" for the robot's own (the empty variant).
std::string variantLabel(const std::string& variant);

/// Runs every variant × configuration; progress gets the fraction of ensembles done.
HarmMatrix runHarmMatrix(const HarmMatrixOptions& options, const std::function<void(double)>& progress);

/// Robot by robot (same seed), joint by joint: where `stages` exceeds the highest of the `off` runs (the same robots
/// without the stages, other noise draws) by more than the margin.
std::vector<Harm> harmsAgainstOff(const std::vector<const EnsembleReport*>& off, const EnsembleReport& stages,
                                  const HarmMargin& margin);

/// Markdown: per variant and configuration, robots harmed and the worst excess, then the heat figures (every leg
/// joint below 300 mA, most below 50 mA, energy, hottest joint; medians and the worst robot), then every harm.
std::string harmMatrixTable(const HarmMatrix& matrix);
} // namespace nao
