#include "Thermal.h"
#include "Framework/Client/LogDecoder.h"
#include "Modules/Modeling/Common/ThermalBudgetComputation.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/JointThermalState.h"
#include "Representations/Modeling/ThermalBudget.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>
#include <vector>

namespace nao
{
namespace
{
/// "12.3", "inf" for +∞ (never at this load), "0" when reached.
std::string minutes(float seconds)
{
  if (!std::isfinite(seconds)) return "inf";
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", static_cast<double>(seconds) / 60);
  return text;
}

std::string fixed(double value, int decimals)
{
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

/// `text` right-aligned in `width` characters (UTF-8: "²" and "°" are one character of two bytes).
std::string pad(const std::string& text, std::size_t width)
{
  const auto characters = static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
  return std::string(width > characters ? width - characters : 0, ' ') + text;
}

void printRow(const std::string& joint, const std::vector<std::string>& cells)
{
  static constexpr std::size_t widths[] = {9, 8, 11, 13, 10, 13, 16, 16, 16, 8, 8, 8, 9, 18};
  std::cout << joint << std::string(joint.size() < 15 ? 15 - joint.size() : 0, ' ');
  for (std::size_t i = 0; i < cells.size(); ++i)
    std::cout << " " << pad(cells[i], widths[i]);
  std::cout << "\n";
}

/// Each node's rise per A², slowest first: "31.2/8.0/2.1/0.4".
std::string gains(const JointThermalState& state, std::size_t joint)
{
  std::string text;
  for (std::size_t i = 0; i < JointThermalState::maxNodes && state.nodeTimeConstants[i] > 0; ++i)
    text += (text.empty() ? "" : "/") + fixed(state.nodeGains[i][joint], 1);
  return text;
}

std::string threshold(const ThermalStatusForecast& forecast, std::size_t joint)
{
  return fixed(forecast.thresholds[joint], 1) + " " + std::string(streams::enumName(forecast.sources[joint]));
}

/// The forecast of the posture the motion side named (ForecastPosture): for each joint in a status, when it is back
/// below it; else where the hottest joint settles.
void printPosture(const JointThermalState& state, std::size_t hottest)
{
  const PostureThermalForecast& posture = state.posture;
  if (posture.name == PostureName::none)
  {
    std::cout << "posture: none named (ForecastPosture; SitDownProvider names 'sit' in the default graph)\n";
    return;
  }
  std::cout << "posture '" << streams::enumName(posture.name) << "' (if the robot took it now):";
  bool any = false;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    for (int s = 3; s >= 1; --s)
      if (state.valid[j] && state.forecast(s).times[j] <= 0)
      {
        const float clear = posture.clearTimes[static_cast<std::size_t>(s - 1)][j];
        std::cout << (any ? "; " : " ") << jointNames[j] << " below status " << s << " "
                  << (std::isfinite(clear) ? "in " + minutes(clear) + " min" : "never");
        any = true;
        break;
      }
  if (!any)
    std::cout << " no joint is in a status; the hottest, " << jointNames[hottest] << ", settles at "
              << fixed(posture.steadyTemperatures[hottest], 1) << " °C at "
              << fixed(posture.rmsCurrents[hottest], 3) << " A";
  std::cout << "\n";
}

int missing(const std::string& path, const std::string& what)
{
  std::cerr
      << "LogTool thermal: " << path << " " << what
      << ". Log it: add \"JointThermalState\" to the [Log] representations of the scenario the robot ran "
         "(Config/Scenarios/<scenario>.toml) with JointThermalStateProvider in its graph (on by default), "
         "then record again (nao --log FILE)\n";
  return 2;
}

/// What `thermal` takes from one log: the last JointThermalState and the last ThermalBudget (each if logged).
struct LoggedThermal
{
  std::optional<JointThermalState> state;
  std::optional<ThermalBudget> budget;
  double time = NAN; ///< s, FrameInfo time of the log's last frame with one
  std::uint32_t lastFrame = 0;
  std::uint64_t frames = 0; ///< frames with a JointThermalState
  SettledFit fit;           ///< which joints' fits settled (for --overlay)
};

bool namesType(LogDecoder& decoder, const std::string& name)
{
  for (const auto& entry : decoder.reader().typeTable().entries)
    if (entry.name == name) return true;
  return false;
}

/// The log's last JointThermalState and ThermalBudget; nullopt (with what is missing on standard error) when it holds
/// no JointThermalState it can decode (and, if `budgetWillDo`, no ThermalBudget either).
std::optional<LoggedThermal> readThermal(const std::string& path, bool budgetWillDo)
{
  LogDecoder decoder(path);
  const std::string name(typeName<JointThermalState>());
  const bool hasBudget = budgetWillDo && namesType(decoder, std::string(typeName<ThermalBudget>())) &&
                         !decoder.undecodable().contains(std::string(typeName<ThermalBudget>()));
  if (!hasBudget && !namesType(decoder, name))
    return missing(path, "holds no JointThermalState (`LogTool info` lists what it holds)"), std::nullopt;
  if (const auto reason = decoder.undecodable().find(name);
      !hasBudget && reason != decoder.undecodable().end())
    return missing(path, "holds a JointThermalState this LogTool cannot decode (" + reason->second + ")"),
           std::nullopt;
  LoggedThermal logged;
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    if (const FrameInfo* info = recordOf<FrameInfo>(records)) logged.time = info->time;
    if (const ThermalBudget* budget = recordOf<ThermalBudget>(records)) logged.budget = *budget;
    if (const JointThermalState* state = recordOf<JointThermalState>(records))
    {
      logged.state = *state;
      logged.fit.add(*state);
      logged.lastFrame = frameNumber;
      ++logged.frames;
    }
  }
  for (const std::string& warning : decoder.reader().warnings())
    std::cerr << "warning: " << warning << "\n";
  if (!logged.state && !(budgetWillDo && logged.budget))
    return missing(path, "names JointThermalState but no frame holds one"), std::nullopt;
  return logged;
}

/// "12.3 min", "never" (+∞), "now" (0).
std::string minutesText(float minutes)
{
  if (!std::isfinite(minutes)) return "never";
  return minutes <= 0 ? "now" : fixed(minutes, 1) + " min";
}

/// One line for the robot of a log: hottest joint, minutes left and the joint that limits them, if sitting, if
/// standing, whether it should rest, and where that comes from.
void printBudgetLine(const std::string& path, const ThermalBudget& budget, const std::string& source)
{
  std::cout << "budget " << path << ": ";
  if (!budget.estimated)
  {
    std::cout << "no joint has an estimate; rest no (" << source << ")\n";
    return;
  }
  std::cout << "hottest " << jointNames[static_cast<std::size_t>(budget.hottestJoint)] << " "
            << fixed(budget.hottestTemperature, 1) << " °C; left " << minutesText(budget.minutesLeft);
  if (budget.limited) std::cout << " (" << jointNames[static_cast<std::size_t>(budget.limitingJoint)] << ")";
  std::cout << (budget.learning ? " learning" : " trusted") << "; sitting "
            << minutesText(budget.minutesIfSitting)
            << (budget.sittingForecast ? "" : " (no sitting forecast: at the present load)") << "; standing "
            << (budget.standingForecast ? minutesText(budget.minutesIfStanding)
                                        : std::string("unknown (no stand seen)"))
            << "; rest " << (budget.shouldRest ? "YES" : "no") << " (" << source << ")\n";
}

/// The logged ThermalBudget, else the budget computed from the logged JointThermalState (the module's function). A
/// logged budget without estimate beside a state with one is a ThermalBudget set "off" (its default): computed.
void printBudget(const std::string& path, const LoggedThermal& logged, float restBelowMinutes)
{
  const bool stateEstimated =
      logged.state &&
      std::any_of(logged.state->valid.begin(), logged.state->valid.end(), [](bool v) { return v; });
  if (logged.budget && (logged.budget->estimated || !stateEstimated))
    printBudgetLine(path, *logged.budget, "logged ThermalBudget");
  else
    printBudgetLine(path, thermalBudgetOf(*logged.state, restBelowMinutes),
                    "computed from JointThermalState, restBelow " + fixed(restBelowMinutes, 1) + " min");
}
} // namespace

int printThermalBudgets(const std::vector<std::string>& paths, float restBelowMinutes)
{
  int status = 0;
  for (const std::string& path : paths)
    if (const auto logged = readThermal(path, true))
      printBudget(path, *logged, restBelowMinutes);
    else
      status = 2;
  return status;
}

int printThermal(const std::string& path, const std::optional<std::filesystem::path>& overlay,
                 float restBelowMinutes)
{
  const auto logged = readThermal(path, false);
  if (!logged) return 2;
  const JointThermalState& state = *logged->state;
  const std::uint64_t frames = logged->frames;
  const std::uint32_t lastFrame = logged->lastFrame;
  const double time = logged->time;
  std::cout << "log " << path << ": JointThermalState in " << frames << " frames; the last at frame "
            << lastFrame << (std::isfinite(time) ? ", t = " + fixed(time, 3) + " s" : std::string()) << ", "
            << state.steps << " filter steps, " << state.rejectedReadings << " readings rejected\n"
            << "forecast at the log's last load (rms current since the load last changed); thresholds with "
               "their source (prior: a guess, not a firmware fact; lowerBound; learned; taught: in an "
               "earlier run)\n";
  printRow("joint",
           {"k [K/A²]", "tau [s]", "T_amb [°C]", "T [°C]", "I_rms [A]", "T_ss [°C]", "status 1 [°C]",
            "status 2 [°C]", "status 3 [°C]", "1 [min]", "2 [min]", "3 [min]", "forecast", "g_i [K/A²]"});
  std::optional<std::size_t> hottest, soonest;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const std::string joint(jointNames[j]);
    if (!state.valid[j])
    {
      std::cout << joint << std::string(joint.size() < 15 ? 15 - joint.size() : 0, ' ')
                << " no estimate (no plausible temperature reading)\n";
      continue;
    }
    printRow(joint, {fixed(state.rises[j], 2), fixed(state.timeConstants[j], 0), fixed(state.ambients[j], 1),
                     fixed(state.temperatures[j], 1) + " ± " + fixed(state.temperatureStdDevs[j], 1),
                     fixed(state.rmsCurrents[j], 3),
                     fixed(state.steadyTemperatures[j], 1) + " ± " + fixed(state.steadyStdDevs[j], 1),
                     threshold(state.hot, j), threshold(state.veryHot, j), threshold(state.criticallyHot, j),
                     minutes(state.hot.times[j]), minutes(state.veryHot.times[j]),
                     minutes(state.criticallyHot.times[j]), state.learning[j] ? "learning" : "trusted",
                     gains(state, j)});
    if (!hottest || state.temperatures[j] > state.temperatures[*hottest]) hottest = j;
    if (!soonest || state.hot.times[j] < state.hot.times[*soonest]) soonest = j;
  }
  std::cout << "summary " << path << ": ";
  if (!hottest)
  {
    std::cout << "no joint has an estimate\n";
    return 0;
  }
  const std::size_t h = *hottest, s = *soonest;
  std::cout << "hottest joint " << jointNames[h] << " " << fixed(state.temperatures[h], 1) << " ± "
            << fixed(state.temperatureStdDevs[h], 1) << " °C; least time left ";
  const float left = state.hot.times[s];
  if (!std::isfinite(left))
    std::cout << "none: no joint reaches status 1 at this load\n";
  else
    std::cout << jointNames[s] << ", status 1 (" << threshold(state.hot, s) << " °C) "
              << (left <= 0 ? "reached" : "in " + minutes(left) + " min") << "\n";
  printPosture(state, h);
  printBudget(path, *logged, restBelowMinutes);
  if (overlay) writeTaughtOverlay(state, logged->fit, *overlay);
  return 0;
}
} // namespace nao
