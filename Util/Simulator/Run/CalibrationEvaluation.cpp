#include "Util/Simulator/Run/CalibrationEvaluation.h"

#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/SimulationSteps.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <stdexcept>

namespace nao
{
namespace
{
constexpr double readingCount = 2.0 * std::numbers::pi / 4096.0; ///< rad, one step of LoLA's Position
constexpr std::array<Joint, 2> knees{Joint::LKneePitch, Joint::RKneePitch};

/// `value` with `decimals` decimals.
std::string number(double value, int decimals)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.*f", decimals, value + 0.0);
  const std::string written = text;
  return written.find_first_not_of("-0.") == std::string::npos ? written.substr(written[0] == '-') : written;
}

/// `value` as short as it reads back to 6 digits: 10, 0.05, 25.
std::string shortNumber(double value)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%g", value);
  return text;
}

/// "10 simulated minutes", "1 simulated minute".
std::string simulatedMinutes(double minutes)
{
  return shortNumber(minutes) + (minutes == 1 ? " simulated minute" : " simulated minutes");
}

/// "never" for a time that did not come (negative or infinite).
std::string timeOrNever(double seconds, int decimals = 1)
{
  return seconds < 0 || std::isinf(seconds) ? "never" : number(seconds, decimals);
}

/// When the pushed robot fell; "sags unpushed" if it did not stand at stiffness 0, "before the push" if it lay already.
std::string fallTime(const CalibrationRobot& robot, const sim::PushedFall& fall)
{
  if (!robot.stand.stood()) return "sags unpushed";
  return fall.fellBeforeThePush() ? "before the push" : timeOrNever(fall.fallenAfter, 2);
}

std::string seedName(std::uint64_t seed)
{
  return "seed " + std::to_string(seed);
}

std::string presetName(const std::string& preset)
{
  return preset.empty() ? "-" : preset;
}

EnsembleOptions ensembleOf(const CalibrationSettings& settings)
{
  EnsembleOptions ensemble;
  ensemble.simulator = settings.simulator;
  ensemble.output = std::filesystem::absolute(settings.output / "stand");
  ensemble.robots = settings.robots;
  ensemble.worn = settings.worn;
  ensemble.seed = settings.seed;
  ensemble.jobs = settings.jobs;
  ensemble.stopRequested = settings.stopRequested;
  ensemble.runArguments = {"run",       "stand",
                           "--minutes", number(settings.minutes, 6),
                           "--config",  std::filesystem::absolute(settings.config).string(),
                           "--room",    number(settings.room, 6),
                           "--quiet",   "--no-plots",
                           "--no-log"};
  for (const std::string& provider : unadjustedProviders)
    ensemble.runArguments.insert(ensemble.runArguments.end(), {"--provider", provider});
  return ensemble;
}

CalibrationRobot measureRobot(const sim::SimConfig& config, const sim::RobotVariation& variation,
                              double seconds)
{
  CalibrationRobot robot;
  robot.preset = variation.preset;
  {
    sim::SimulatedRobot simulated(config, variation);
    robot.stand = sim::limpStand(simulated, 10.0);
  }
  {
    sim::SimulatedRobot simulated(config, variation);
    robot.limpPush = sim::pushedLimpFall(simulated, sim::LimpBy::stiffnessZero);
  }
  {
    sim::SimulatedRobot simulated(config, variation);
    robot.hotPush = sim::pushedLimpFall(simulated, sim::LimpBy::statusThree);
  }
  {
    sim::SimulatedRobot simulated(config, variation);
    robot.warming = sim::limpWarming(simulated, seconds);
  }
  robot.stall = sim::kneeStall(config, variation, 1.f);
  robot.reduced = sim::kneeStall(config, variation, 0.75f);
  return robot;
}
} // namespace

CalibrationStand calibrationStand(const RobotRun& run)
{
  CalibrationStand stand;
  stand.seed = run.summary.seed;
  stand.preset = run.summary.preset;
  stand.lowestTorso = run.summary.minTorsoHeight;
  for (const JointSummary& joint : run.summary.joints)
  {
    if (joint.hotAfter >= 0 && (stand.firstHot < 0 || joint.hotAfter < stand.firstHot))
      stand.firstHot = joint.hotAfter;
    stand.highestStatus = std::max(stand.highestStatus, joint.maxStatus);
  }
  stand.minuteEnd = std::min(calibrationMinute, run.summary.simulatedSeconds);
  int samples = 0;
  for (const RunSample& sample : run.samples)
  {
    if (sample.time <= stand.minuteEnd - 10.0 || sample.time > stand.minuteEnd + 1e-9) continue;
    for (std::size_t k = 0; k < knees.size(); ++k)
    {
      stand.kneeCurrents[k] += std::abs(sample.currents[index(knees[k])]);
      stand.kneeErrors[k] += std::abs(sample.angleErrors[index(knees[k])]);
    }
    ++samples;
  }
  for (std::size_t k = 0; k < knees.size(); ++k)
  {
    stand.kneeCurrents[k] /= std::max(samples, 1);
    stand.kneeErrors[k] /= std::max(samples, 1);
  }
  return stand;
}

std::vector<CalibrationStand> runCalibrationEnsemble(const CalibrationSettings& settings,
                                                     const std::function<void(double)>& progress)
{
  const EnsembleOptions ensemble = ensembleOf(settings);
  std::filesystem::remove_all(ensemble.output); // no robot of an earlier, larger run is read back
  runEnsemble(ensemble, progress);
  if (settings.stopRequested && settings.stopRequested()) throw std::runtime_error("stopped");
  std::vector<CalibrationStand> stands;
  for (const RobotRun& run : readEnsemble(ensemble.output).robots)
    stands.push_back(calibrationStand(run));
  return stands;
}

std::vector<CalibrationRobot> measureCalibrationRobots(const CalibrationSettings& settings)
{
  std::vector<CalibrationRobot> robots;
  sim::RobotVariation nominal = sim::nominalRobot();
  nominal.roomTemperature = settings.room;
  const sim::SimConfig loaded = sim::loadSimConfig(settings.config);
  robots.push_back(measureRobot(loaded, nominal, settings.minutes * 60.0));
  for (int i = 0; i < settings.robots; ++i)
  {
    if (settings.stopRequested && settings.stopRequested()) throw std::runtime_error("stopped");
    SimulationOptions options;
    options.seed = settings.seed + static_cast<std::uint64_t>(i);
    options.preset = i >= settings.robots - settings.worn ? "worn" : "";
    options.room = settings.room;
    sim::SimConfig config = loaded;
    sim::VariantEffect variant;
    const sim::RobotVariation variation = drawSimulatedRobot(options, config, variant);
    robots.push_back(measureRobot(config, variation, settings.minutes * 60.0));
    robots.back().seed = options.seed;
  }
  return robots;
}

namespace
{
/// "median | 10 % | 90 % |" of `values` with `decimals`; infinite values (a time that never came) read "never".
std::string percentiles(const std::vector<double>& values, int decimals)
{
  if (values.empty()) return " | | |";
  std::string cells;
  for (const double p : {0.5, 0.1, 0.9})
  {
    const double value = percentile(values, p);
    cells += " " + (std::isinf(value) ? std::string("never") : number(value, decimals)) + " |";
  }
  return cells;
}

std::string summaryRow(const std::string& figure, const std::string& cells, const std::string& publicFigure,
                       const std::string& fitted)
{
  return "| " + figure + " |" + cells + " " + publicFigure + " | " + fitted + " |\n";
}

std::string countOf(std::size_t count, std::size_t of)
{
  return " " + std::to_string(count) + " of " + std::to_string(of) + " | | |";
}

std::string standTable(const std::vector<CalibrationStand>& stands, const CalibrationSettings& settings)
{
  std::string text =
      "Unadjusted stands: " + std::to_string(settings.robots) + " simulated robots (seeds from " +
      std::to_string(settings.seed) + ", the last " + std::to_string(settings.worn) +
      " worn) rise into B-Human's stand in 1.5 s and hold it for " + simulatedMinutes(settings.minutes) +
      ", every robot in a " + shortNumber(settings.room) +
      " °C room and started at it; the heat adjustment and smart stiffness off (`--provider` "
      "JointRequest=off, EnergySaving=off, StiffnessJointRequest=off): the robot code only commands the "
      "posture. Per robot: the knees' mean reported current over the 10 s before 1 min (the higher knee's) "
      "and their mean \\|request − reading\\| there in LoLA's counts (2π/4096 rad; left / right), one "
      "sample every 0.12 s; when any joint first reached temperature status 1 and the highest status of the "
      "run; the torso's lowest height.\n\n"
      "| robot | preset | highest knee current after 1 min [A] | knee \\|request − reading\\| after 1 min, "
      "left / right [counts] | first status 1 [s] | highest status | lowest torso height [m] |\n"
      "| --- | --- | ---: | ---: | ---: | ---: | ---: |\n";
  for (const CalibrationStand& s : stands)
    text += "| " + seedName(s.seed) + " | " + presetName(s.preset) + " | " +
            number(s.highestKneeCurrent(), 2) + " | " + number(s.kneeErrors[0] / readingCount, 2) + " / " +
            number(s.kneeErrors[1] / readingCount, 2) + " | " + timeOrNever(s.firstHot) + " | " +
            std::to_string(s.highestStatus) + " | " + number(s.lowestTorso, 3) + " |\n";
  return text;
}

std::string robotTable(const std::vector<CalibrationRobot>& robots, const CalibrationSettings& settings)
{
  std::string text =
      "Single robots, each alone in the plant without robot code "
      "(`Util/Simulator/Physics/PlantCalibration.h`), in the same room: the nominal robot (what the plant "
      "tests assert) and the ensemble's robots. After 1 s in B-Human's stand at stiffness 1: the load the "
      "knees' gear trains carry (the higher knee's motor + friction torque: gravity and what the boards' "
      "pushing leaves between the legs through the floor) and the knees' static friction (the lower); then "
      "10 s at stiffness 0: the largest change of a leg joint's true angle (LoLA counts) and how far the "
      "torso sank. Pushed by 0.5 N·s (5 N forward for 0.1 s) 0.5 s after the motors went limp, by stiffness "
      "0 or by status 3 (all motors at 95 °C): when the torso fell below 0.2 m after the push began "
      "(\"sags unpushed\": it did not stand 10 s at stiffness 0). " +
      simulatedMinutes(settings.minutes) +
      " at stiffness 0: how much the left knee's winding warmed. Lifted, the left knee commanded to "
      "−20° (beyond its stop) for 1 s: its reported current at stiffness 0.75 over that at 1.0.\n\n"
      "| robot | preset | knee load [N·m] | knee static friction [N·m] | leg drift at stiffness 0 [counts] | "
      "torso sank [mm] | pushed at stiffness 0: fallen after [s] | pushed at status 3: fallen after [s] | "
      "knee warming at stiffness 0 [K] | stall current, 0.75 / 1.0 |\n"
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
  for (const CalibrationRobot& r : robots)
    text += "| " + (r.seed ? seedName(*r.seed) : std::string("nominal")) + " | " + presetName(r.preset) +
            " | " + number(r.stand.kneeLoad, 3) + " | " + number(r.stand.kneeStaticFriction, 3) + " | " +
            number(r.stand.largestLegDrift / readingCount, 2) + " | " + number(1000 * r.stand.torsoDrop, 1) +
            " | " + fallTime(r, r.limpPush) + " | " + fallTime(r, r.hotPush) + " | " +
            number(r.warming.kneeRise, 2) + " | " +
            number(r.reduced.reportedCurrent / r.stall.reportedCurrent, 3) + " |\n";
  return text;
}

/// `field` of every drawn robot (not the nominal one) for which it is given, of the worn ones only if `worn`.
std::vector<double> ofDrawn(const std::vector<CalibrationRobot>& robots,
                            const std::function<std::optional<double>(const CalibrationRobot&)>& field,
                            bool worn = false)
{
  std::vector<double> values;
  for (const CalibrationRobot& robot : robots)
    if (const auto value = field(robot); robot.seed && value && (!worn || robot.preset == "worn"))
      values.push_back(*value);
  return values;
}

/// When the pushed robot fell, infinitely late if never; none if it did not stand at stiffness 0 or fell before the
/// push.
std::optional<double> fallTimeOf(const CalibrationRobot& robot, const sim::PushedFall& fall)
{
  if (!robot.stand.stood() || fall.fellBeforeThePush()) return std::nullopt;
  return fall.fallenAfter < 0 ? INFINITY : fall.fallenAfter;
}

/// A time that never came counts as infinitely late.
double lateIfNever(double seconds)
{
  return seconds < 0 ? INFINITY : seconds;
}

std::string standSummary(const std::vector<CalibrationStand>& stands)
{
  if (stands.empty()) return "";
  std::vector<double> currents, errors, firstHot;
  std::size_t critical = 0;
  for (const CalibrationStand& s : stands)
  {
    currents.push_back(s.highestKneeCurrent());
    for (const double error : s.kneeErrors)
      errors.push_back(error / readingCount);
    firstHot.push_back(lateIfNever(s.firstHot));
    critical += s.highestStatus == 3;
  }
  const std::string gains = "`positionGain` (≥ 1 N·m within one count), leg sliding friction";
  const std::string thermal = "type 1/5 case capacity and thermal resistance";
  const std::string heatState = "a heat state within 3-8 min (\"after only 3 minutes\")";
  return summaryRow("unadjusted stand: highest knee current after 1 min [A]", percentiles(currents, 2),
                    "knees above 1 A: \"can exceed 1000 mA\"", gains) +
         summaryRow("unadjusted stand: knee \\|request − reading\\| after 1 min, each knee [counts]",
                    percentiles(errors, 2), "differences \"very low or even measured to be 0\"", gains) +
         summaryRow("unadjusted goalie: first status 1 [s]", percentiles(firstHot, 0), heatState, thermal) +
         summaryRow("unadjusted goalie: robots at status 3 within the run", countOf(critical, stands.size()),
                    heatState, thermal);
}

std::string robotSummary(const std::vector<CalibrationRobot>& robots)
{
  if (robots.size() < 2) return ""; // none drawn
  const auto drift = [](const CalibrationRobot& r) { return r.stand.largestLegDrift / readingCount; };
  const auto limpFall = [](const CalibrationRobot& r) { return fallTimeOf(r, r.limpPush); };
  const auto hotFall = [](const CalibrationRobot& r) { return fallTimeOf(r, r.hotPush); };
  const auto warming = [](const CalibrationRobot& r) { return r.warming.kneeRise; };
  const auto ratio = [](const CalibrationRobot& r)
  { return r.reduced.reportedCurrent / r.stall.reportedCurrent; };
  const auto friction = [](const CalibrationRobot& r) { return r.stand.kneeStaticFriction; };
  const auto load = [](const CalibrationRobot& r) { return r.stand.kneeLoad; };
  const std::string gears = "static friction above the stand's loads, sliding friction below";
  const auto standing = std::count_if(robots.begin(), robots.end(),
                                      [](const CalibrationRobot& r) { return r.seed && r.stand.stood(); });
  return summaryRow("stiffness 0, undisturbed: robots standing 10 s (the torso within 1 mm)",
                    countOf(static_cast<std::size_t>(standing), robots.size() - 1),
                    "a NAO stands on its gears undisturbed, also at stiffness 0", gears) +
         summaryRow("stiffness 0, undisturbed: leg drift in 10 s [counts]",
                    percentiles(ofDrawn(robots, drift), 2),
                    "a NAO stands on its gears undisturbed, also at stiffness 0", gears) +
         summaryRow("pushed by 0.5 N·s at stiffness 0: fallen after [s]",
                    percentiles(ofDrawn(robots, limpFall), 2), "... and sags and falls once pushed", gears) +
         summaryRow("pushed by 0.5 N·s at status 3: fallen after [s]",
                    percentiles(ofDrawn(robots, hotFall), 2), "the same at status 3", gears) +
         summaryRow("stiffness 0 for the run: left knee's warming [K]",
                    percentiles(ofDrawn(robots, warming), 2),
                    "a robot drawing no current still warms a few °C in 10 min",
                    "board electronics 0.2 W, body air") +
         summaryRow("knee stalled: current at stiffness 0.75 / at 1.0",
                    percentiles(ofDrawn(robots, ratio), 3),
                    "stiffness 0.75 draws noticeably less current under stress than 1.0",
                    "nothing: follows from stiffness as a torque limit") +
         summaryRow("worn robots: knee static friction [N·m]",
                    percentiles(ofDrawn(robots, friction, true), 3),
                    "worn robots whose \"knees kept heating up\": below the stand's knee load",
                    "an assumption: `robots.toml` preset `worn`") +
         summaryRow("worn robots: knee load [N·m]", percentiles(ofDrawn(robots, load, true), 3),
                    "what their static friction is compared with", "");
}
} // namespace

std::string calibrationTables(const std::vector<CalibrationStand>& stands,
                              const std::vector<CalibrationRobot>& robots,
                              const CalibrationSettings& settings)
{
  return standTable(stands, settings) + "\n" + robotTable(robots, settings) +
         "\nSummary: median, 10 % and 90 % over the ensemble's robots (the single-robot figures over its "
         "drawn robots, the nominal one left out, the pushes' over those that stood at stiffness 0; from "
         "fewer than 10 robots the percentiles mean little), beside the figure each is calibrated to "
         "(B-Human's heat-adjustment documentation, `Docs/NaoFacts.md` BHDOC, quoted; the rest what a NAO "
         "does) and the plant numbers fitted to it (`Config/Sim/motors.toml`).\n\n"
         "| figure | median | 10 % | 90 % | calibrated to | plant numbers fitted |\n"
         "| --- | ---: | ---: | ---: | --- | --- |\n" +
         standSummary(stands) + robotSummary(robots);
}
} // namespace nao
