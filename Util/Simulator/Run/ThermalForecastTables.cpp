// The judge's outputs (ThermalForecast.h): every joint's forecasts and every robot's budget as CSV rows, and the
// Markdown tables (a), (b) and (c) that `Simulator thermal` writes.
#include "Representations/Infrastructure/Joints.h"
#include "Util/Simulator/Run/Ensemble.h"
#include "Util/Simulator/Run/ThermalForecast.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nao
{
namespace
{
std::string seconds(double value)
{
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return value > 0 ? "∞" : "-∞";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f", value);
  return text;
}

std::string percent(double value)
{
  if (std::isnan(value)) return "-";
  if (std::isinf(value)) return "∞";
  char text[32];
  std::snprintf(text, sizeof text, "%.0f %%", value * 100);
  return text;
}

std::string celsius(double value)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}
} // namespace

void writeThermalForecasts(const std::filesystem::path& file, const std::vector<RobotThermalForecast>& robots)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "seed,preset,joint,after hold [s],plant's time [s],run left [s],forecast as run [s],forecast "
         "learned [s],"
         "threshold as run [°C],learned threshold [°C],estimate [°C],steady state [°C],time constant [s],"
         "learning,load [A²],load until status 1 [A²],lowest running load [A²],highest running load "
         "[A²],ripple [K],steady state deviation [K],learning with the learned threshold\n";
  for (const RobotThermalForecast& robot : robots)
    for (const JointForecast& f : robot.forecasts)
      out << f.seed << ',' << f.preset << ',' << jointNames[f.joint] << ',' << f.horizon << ',' << f.actual
          << ',' << f.remaining << ',' << f.asRun << ',' << f.learned << ',' << f.threshold << ','
          << f.learnedThreshold << ',' << f.temperature << ',' << f.steady << ',' << f.timeConstant << ','
          << f.learning << ',' << f.load << ',' << f.loadAfter << ',' << f.loadLowest << ',' << f.loadHighest
          << ',' << f.ripple << ',' << f.steadyStdDev << ',' << f.learnedLearning << '\n';
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

void writeBudgetForecasts(const std::filesystem::path& file, const std::vector<RobotThermalForecast>& robots)
{
  std::ofstream out(file);
  if (!out) throw std::runtime_error("cannot write " + file.string());
  out << "seed,after hold [s],joint at status 1 already,plant's time [s],plant's first joint,run left [s],"
         "budget as run [s],learning,limiting joint\n";
  for (const RobotThermalForecast& robot : robots)
    for (const BudgetForecast& b : robot.budgets)
      out << b.seed << ',' << b.horizon << ',' << b.alreadyThere << ',' << b.actual << ','
          << (std::isfinite(b.actual) ? jointNames[b.firstJoint] : "") << ',' << b.remaining << ',' << b.asRun
          << ',' << b.learning << ',' << jointNames[b.limitingJoint] << '\n';
  if (!out) throw std::runtime_error("cannot write " + file.string());
}

std::string thermalForecastTables(const std::vector<std::string>& labels,
                                  const std::vector<std::vector<RobotThermalForecast>>& configurations,
                                  const std::vector<double>& horizons)
{
  std::ostringstream out;
  for (const bool learned : {false, true})
  {
    out << (learned
                ? "(b) thresholds learned from an earlier run of the same robot, forecast solved for them\n\n"
                : "(a) thresholds as the robot ran them (the module's priors until a transition teaches "
                  "one)\n\n");
    // Short headers, so that a README's lines stay within 120 characters; the README says what each means.
    out << "| configuration | at [s] | joints | plant [s] | error [s] | abs. [s] | abs. 90 % [s] | "
           "rel. | rel. 90 % | never | soon | learning | rel. trusted | rel. 90 % trusted | moved | "
           "rel. held | rel. 90 % held | rel. both | rel. 90 % both |\n"
        << "| --- |";
    for (int column = 1; column < 20; ++column)
      out << " ---: |";
    out << "\n";
    for (std::size_t c = 0; c < configurations.size(); ++c)
      for (const ForecastErrors& errors : forecastErrors(configurations[c], horizons, learned))
        out << "| " << labels[c] << " | " << seconds(errors.horizon) << " | " << errors.joints
            << (errors.forecasts != errors.joints
                    ? " (" + std::to_string(errors.forecasts) + " with a learned threshold)"
                    : "")
            << " | " << seconds(errors.actualMedian) << " | " << seconds(errors.signedMedian) << " | "
            << seconds(errors.absoluteMedian) << " | " << seconds(errors.absolute90) << " | "
            << percent(errors.relativeMedian) << " | " << percent(errors.relative90) << " | "
            << errors.neverWrongly << " | " << errors.soonWrongly << " (of " << errors.quietJoints << ") | "
            << errors.learning << " | " << percent(errors.trustedMedian) << " | " << percent(errors.trusted90)
            << " | " << errors.moved << " | " << percent(errors.heldMedian) << " | " << percent(errors.held90)
            << " | " << percent(errors.trustedHeldMedian) << " | " << percent(errors.trustedHeld90) << " |\n";
    out << "\n";
  }
  out << "at: s after the posture is held; joints: that reach status 1 after the forecast within the "
         "run; plant: the median time the plant took; error: median of forecast − plant; abs.: median "
         "and 90th percentile of |forecast − plant|, rel.: of that / plant; never: joints called never "
         "(∞) that reach status 1; soon: joints sent to status 1 within the run that stayed below (of "
         "all that stayed below); learning: forecasts the module flagged as not yet to be trusted (in "
         "(b) also a never that the steady state's deviation does not rule out, then the earliest time "
         "the fit allows, as the module does); rel. trusted: median and 90th percentile of rel. over "
         "the others; moved: joints whose mean I² until status 1, or its running mean (120 s memory), "
         "left a factor 1.25 of the load the forecast assumed (another motion: another joint softened "
         "at its status 1, a sagging plant, a stage that found a hold); rel. held: median and 90th "
         "percentile of rel. over the others; rel. both: over those neither learning nor moved\n\n";
  out << "(c) the robot's budget as it ran (ThermalBudget: the least time to status 1 over its joints at "
         "their "
         "present loads), against the plant's first joint to reach status 1\n\n"
         "| configuration | at [s] | there | robots | plant [s] | rel. | rel. 90 % | never | soon | learning "
         "| "
         "rel. trusted | rel. 90 % trusted |\n"
      << "| --- |";
  for (int column = 1; column < 12; ++column)
    out << " ---: |";
  out << "\n";
  for (std::size_t c = 0; c < configurations.size(); ++c)
    for (const BudgetErrors& errors : budgetErrors(configurations[c], horizons))
      out << "| " << labels[c] << " | " << seconds(errors.horizon) << " | " << errors.alreadyThere << " | "
          << errors.robots << " | " << seconds(errors.actualMedian) << " | " << percent(errors.relativeMedian)
          << " | " << percent(errors.relative90) << " | " << errors.neverWrongly << " | "
          << errors.soonWrongly << " (of " << errors.quietRobots << ") | " << errors.learning << " | "
          << percent(errors.trustedMedian) << " | " << percent(errors.trusted90) << " |\n";
  out << "\nthere: robots with a joint at status 1 already at the forecast (budget 0: not judged); robots: "
         "of the "
         "others, those whose first joint reaches status 1 within the run; plant: the median time to it; "
         "rel.: "
         "median and 90th percentile of |budget − plant| / plant; never: robots whose budget was never (∞) "
         "that "
         "reach status 1; soon: budgets ending within the run of robots that stayed below (of all that "
         "stayed "
         "below); learning: budgets whose limiting joint's forecast the module flagged as not yet to be "
         "trusted; "
         "rel. trusted: over the others. A robot's loads may move before status 1 (its firmware softening a "
         "joint shifts the load onto others); that is not told apart here\n\n"
         "Learned status-1 thresholds (the estimate at which the robot reported status 1):\n\n";
  for (std::size_t c = 0; c < configurations.size(); ++c)
  {
    std::vector<double> thresholds;
    std::size_t robots = 0;
    for (const RobotThermalForecast& robot : configurations[c])
    {
      bool any = false;
      for (const double threshold : robot.learnedThresholds)
        if (!std::isnan(threshold))
        {
          thresholds.push_back(threshold);
          any = true;
        }
      robots += any;
    }
    out << "- " << labels[c] << ": ";
    if (thresholds.empty())
      out << "no joint reached status 1 (" << configurations[c].size() << " robots)\n";
    else
      out << thresholds.size() << " joints of " << robots << " of " << configurations[c].size()
          << " robots, median " << celsius(percentile(thresholds, 0.5)) << " °C ("
          << celsius(percentile(thresholds, 0.0)) << "-" << celsius(percentile(thresholds, 1.0)) << " °C)\n";
  }
  return out.str();
}
} // namespace nao
