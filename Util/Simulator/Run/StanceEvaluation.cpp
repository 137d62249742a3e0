#include "Util/Simulator/Run/StanceEvaluation.h"

#include "Framework/RobotDescription.h"
#include "Framework/ScenarioScript.h"
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/RunSummary.h"

#include <algorithm>
#include <cstdio>
#include <numbers>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr double degree = std::numbers::pi / 180.0;
constexpr std::array<Joint, 4> kneesAndAnkles{Joint::LKneePitch, Joint::LAnklePitch, Joint::RKneePitch,
                                              Joint::RAnklePitch};

/// The posture the scenario's last keyframe holds (its hold is open-ended), as knee and ankle pitch of the left leg.
stiffness::StancePosture heldPosture(const std::filesystem::path& configDirectory,
                                     const std::string& scenario)
{
  const ScenarioScript script = ScenarioScript::load(configDirectory / "Scenarios" / (scenario + ".toml"));
  if (script.keyframes.empty()) throw std::runtime_error(scenario + ".toml: no keyframe holds a posture");
  const ScriptPose& pose = script.pose(script.keyframes.back().pose);
  return {pose.angles[Joint::LKneePitch], pose.angles[Joint::LAnklePitch]};
}

/// "%.*g"-like, at most two decimals, without trailing zeros (-6, 48.03, -7.5).
std::string number(double value, int decimals = 2)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value + 0.0);
  std::string result = text;
  if (result.find('.') != std::string::npos)
  {
    result.erase(result.find_last_not_of('0') + 1);
    if (result.back() == '.') result.pop_back();
  }
  return result == "-0" ? "0" : result;
}

std::string bold(const std::string& text, bool on)
{
  return on ? "**" + text + "**" : text;
}

/// "median (min–max)" of the robots' `field`, in `scale` units, no decimals.
std::string spread(const std::vector<StanceRobotFigures>& robots, double StanceRobotFigures::*field,
                   double scale)
{
  std::vector<double> values;
  for (const StanceRobotFigures& robot : robots)
    values.push_back(robot.*field * scale);
  if (values.empty()) return "";
  char text[96];
  std::snprintf(text, sizeof(text), "%.0f (%.0f–%.0f)", percentile(values, 0.5),
                *std::min_element(values.begin(), values.end()),
                *std::max_element(values.begin(), values.end()));
  return text;
}

std::string modelTable(const std::vector<StanceModelRow>& rows)
{
  const stiffness::StanceRange range = stiffness::usualStanceRange();
  std::string text =
      "The static torques of `computeStandingTorques` (what StaticTorqueProvider computes: gravity, the "
      "weight "
      "shared equally by the soles, their centres of pressure under the centre of mass) on the Default "
      "robot's "
      "model with its mass calibration and the stand scenarios' arms (Tools/Stiffness/StanceAdvice.h). One "
      "row "
      "per stand (hip, knee and ankle pitch, the same on both legs; hip = -(knee + ankle): flat soles under "
      "an "
      "upright torso): the postures stand and highstand hold (their scenario files), then the advice, the "
      "grid "
      "point (" +
      number(range.step / degree) + "°) of knee " + number(range.kneeMin / degree) + "°.." +
      number(range.kneeMax / degree) + "° and ankle pitch " + number(range.ankleMin / degree) + "°.." +
      number(range.ankleMax / degree) + "° with the centre of mass from " +
      number(-1000 * range.centerOfMassMinX, 0) + " mm behind to " +
      number(1000 * range.centerOfMassMaxX, 0) +
      " mm ahead of the ankles whose sum is least, squared (the paper's p = ½|τ|²) or absolute (a motor's "
      "current is linear in its torque). Columns: the left leg's knee and ankle pitch torques; the sums over "
      "the knee and ankle (pitch and roll) torques of both legs, the least of each in bold; how far the "
      "centre "
      "of mass lies ahead of the ankles.\n\n"
      "| posture (hip, knee, ankle) | knee (N·m) | ankle (N·m) | Σ τ² ((N·m)²) | Σ \\|τ\\| (N·m) | CoM ahead "
      "(mm) |\n| --- | ---: | ---: | ---: | ---: | ---: |\n";
  double leastSquared = 1e300, leastAbsolute = 1e300;
  for (const StanceModelRow& row : rows)
  {
    leastSquared = std::min(leastSquared, row.evaluation.squaredSum);
    leastAbsolute = std::min(leastAbsolute, row.evaluation.absoluteSum);
  }
  char line[128];
  for (const StanceModelRow& row : rows)
  {
    const stiffness::StanceEvaluation& e = row.evaluation;
    text += "| " + row.label + " (" + number(e.posture.hipPitch() / degree) + "°, " +
            number(e.posture.kneePitch / degree) + "°, " + number(e.posture.anklePitch / degree) + "°) | ";
    std::snprintf(line, sizeof(line), "%.3f | %.3f | ", e.kneePitchTorques[0], e.anklePitchTorques[0]);
    text += line + bold(number(e.squaredSum, 3), e.squaredSum == leastSquared) + " | " +
            bold(number(e.absoluteSum, 3), e.absoluteSum == leastAbsolute) + " | ";
    std::snprintf(line, sizeof(line), "%.1f |\n", 1000 * e.centerOfMassX);
    text += line;
  }
  return text;
}

std::string ensembleTable(const std::vector<StanceEnsemble>& ensembles,
                          const StanceEnsembleSettings& settings)
{
  const std::uint64_t last = settings.seed + static_cast<std::uint64_t>(std::max(settings.robots, 1) - 1);
  std::string text =
      "Each scenario on " + std::to_string(settings.robots) + " simulated robots (seeds " +
      std::to_string(settings.seed) + ".." + std::to_string(last) + "), " + number(settings.minutes) +
      " simulated minutes, every robot in a " + number(settings.room) +
      " °C room and started at it; the heat adjustment off (`--provider " + heatAdjustmentOff +
      "`, the rest of the default chain as it is) and on (the default). One row per scenario and heat "
      "adjustment; over the knee and ankle pitch joints of both legs, per robot: the sum of the 4 joints' "
      "mean "
      "currents over the run and of their means over the last 10 s, the hottest of the 4 at the end "
      "(reported), "
      "their motor energy, and whether any of them reached temperature status 1 or more during the run. Each "
      "cell: median (min–max) over the robots; the last column counts them.\n\n"
      "| scenario, heat adjustment | current (mA), mean | current at the end (mA) | hottest (°C) | energy "
      "(J) | "
      "status ≥ 1 |\n| --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const StanceEnsemble& ensemble : ensembles)
  {
    const auto hot = std::count_if(ensemble.robots.begin(), ensemble.robots.end(),
                                   [](const StanceRobotFigures& robot) { return robot.status >= 1; });
    text += "| `" + ensemble.scenario + "`, " + (ensemble.heatAdjustment ? "on" : "off") + " | " +
            spread(ensemble.robots, &StanceRobotFigures::meanCurrent, 1000.0) + " | " +
            spread(ensemble.robots, &StanceRobotFigures::finalCurrent, 1000.0) + " | " +
            spread(ensemble.robots, &StanceRobotFigures::hottest, 1.0) + " | " +
            spread(ensemble.robots, &StanceRobotFigures::energy, 1.0) + " | " + std::to_string(hot) + " of " +
            std::to_string(ensemble.robots.size()) + " |\n";
  }
  return text;
}

/// One scenario's ensemble as `Simulator run <scenario> --robots N` would start it, without plots and logs.
EnsembleOptions ensembleOf(const StanceEnsembleSettings& settings, const std::string& scenario, bool on)
{
  EnsembleOptions ensemble;
  ensemble.simulator = settings.simulator;
  ensemble.output = std::filesystem::absolute(settings.output / (scenario + (on ? "-on" : "-off")));
  ensemble.robots = settings.robots;
  ensemble.seed = settings.seed;
  ensemble.runArguments = {"run",       scenario,
                           "--minutes", number(settings.minutes, 6),
                           "--config",  std::filesystem::absolute(settings.config).string(),
                           "--robot",   "Default",
                           "--room",    number(settings.room, 6),
                           "--quiet",   "--no-plots",
                           "--no-log"};
  if (!on) ensemble.runArguments.insert(ensemble.runArguments.end(), {"--provider", heatAdjustmentOff});
  return ensemble;
}
} // namespace

std::vector<StanceModelRow> stanceModelRows(const std::filesystem::path& configDirectory)
{
  const RobotDescription robot = RobotDescription::load(ConfigFiles{{configDirectory, "Default"}, {}});
  const stiffness::NaoStance stance = stiffness::naoStance(robot.model);
  kinematics::Data data(robot.model);
  Eigen::VectorXd q = stance.base;
  const auto evaluate = [&](const stiffness::StancePosture& posture)
  {
    return stiffness::evaluateStance(robot.model, data, q, stance.legs, stance.ankleRolls, stance.feet,
                                     posture);
  };
  const auto advise = [&](stiffness::StanceObjective objective)
  {
    return stiffness::adviseStance(robot.model, stance.base, stance.legs, stance.ankleRolls, stance.feet,
                                   stiffness::usualStanceRange(objective));
  };
  return {{"B-Human's stand `stand`", evaluate(heldPosture(configDirectory, "stand"))},
          {"high stand `highstand`", evaluate(heldPosture(configDirectory, "highstand"))},
          {"advised by Σ τ², `standadvised`", advise(stiffness::StanceObjective::squaredTorques)},
          {"advised by Σ \\|τ\\|, `standadvisedabs`", advise(stiffness::StanceObjective::absoluteTorques)}};
}

StanceRobotFigures stanceRobotFigures(const SimulationResult& run)
{
  StanceRobotFigures figures;
  figures.seed = run.seed;
  for (const Joint joint : kneesAndAnkles)
  {
    const JointSummary& summary = run.joints[index(joint)];
    figures.meanCurrent += summary.meanCurrent;
    figures.finalCurrent += summary.finalCurrent;
    figures.hottest = std::max(figures.hottest, summary.finalTemperature);
    figures.energy += summary.energy;
    figures.status = std::max(figures.status, summary.maxStatus);
  }
  return figures;
}

std::vector<StanceEnsemble> runStanceEnsembles(const StanceEnsembleSettings& settings,
                                               const std::function<void(double)>& progress)
{
  std::vector<ProcessJob> processes;
  std::vector<StanceEnsemble> ensembles;
  for (const bool on : {false, true})
    for (const std::string& scenario : stanceScenarios)
    {
      const EnsembleOptions ensemble = ensembleOf(settings, scenario, on);
      std::filesystem::remove_all(ensemble.output); // no robot of an earlier, larger run is read back
      for (int robot = 0; robot < settings.robots; ++robot)
      {
        const std::uint64_t seed = settings.seed + static_cast<std::uint64_t>(robot);
        processes.push_back({robotCommand(ensemble, robot), robotFolder(ensemble.output, seed),
                             scenario + (on ? " on" : " off") + ", seed " + std::to_string(seed)});
      }
      ensembles.push_back({scenario, on, {}});
    }
  runProcesses(processes, {settings.jobs, "stance runs", settings.stopRequested}, progress);
  if (settings.stopRequested && settings.stopRequested()) throw std::runtime_error("stopped");
  for (StanceEnsemble& ensemble : ensembles)
  {
    const EnsembleOptions options = ensembleOf(settings, ensemble.scenario, ensemble.heatAdjustment);
    for (int robot = 0; robot < settings.robots; ++robot)
      ensemble.robots.push_back(stanceRobotFigures(readSummary(
          robotFolder(options.output, settings.seed + static_cast<std::uint64_t>(robot)) / "summary.csv")));
  }
  return ensembles;
}

std::string stanceTables(const std::vector<StanceModelRow>& model,
                         const std::vector<StanceEnsemble>& ensembles, const StanceEnsembleSettings& settings)
{
  return modelTable(model) + "\n" + ensembleTable(ensembles, settings);
}
} // namespace nao
