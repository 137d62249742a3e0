#include "Util/Simulator/Run/SitDownEvaluation.h"
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Sensing/SensorHealth.h"
#include "Util/Simulator/Run/LogFrames.h"

#include <algorithm>
#include <cstdio>

namespace nao
{
SitDownWindow sitDownWindow(const SimulationResult& result, double from, double to)
{
  SitDownWindow w;
  w.from = from;
  w.to = to;
  for (const RunSample& s : result.samples)
  {
    if (s.time < from || s.time > to) continue;
    w.meanHeight += s.torsoHeight;
    w.maxStiffness =
        std::max(w.maxStiffness, *std::max_element(s.stiffnessCommands.begin(), s.stiffnessCommands.end()));
    ++w.samples;
  }
  if (w.samples > 0) w.meanHeight /= static_cast<float>(w.samples);
  return w;
}

SimulationResult runSitDownScenario(const std::filesystem::path& configDirectory, const std::string& scenario,
                                    std::uint64_t seed, const std::filesystem::path& outputDirectory)
{
  return runSimulation(freshRunOptions(configDirectory, scenario, sitDownRunMinutes, seed, outputDirectory));
}

ChestButtonOutcome evaluateChestButtonRun(const SimulationResult& result)
{
  ChestButtonOutcome outcome;
  outcome.seed = result.seed;
  outcome.standing = sitDownWindow(result, 3.0, 4.0);
  outcome.sitting = sitDownWindow(result, 9.0, 11.9);
  outcome.standingAgain = sitDownWindow(result, 16.5, 18.0);
  outcome.minTorsoHeight = result.minTorsoHeight;
  const auto presses = logFramesOf<SitDown>(result.log, [](const SitDown& s) { return s.presses; });
  if (!presses.empty()) outcome.presses = presses.back();
  return outcome;
}

LowBatteryOutcome evaluateLowBatteryRun(const SimulationResult& result)
{
  LowBatteryOutcome outcome;
  outcome.seed = result.seed;
  outcome.frames = logFramesOf<FrameInfo, BatteryData, SensorHealth, SitDown>(
      result.log,
      [](const FrameInfo& info, const BatteryData& battery, const SensorHealth& health,
         const SitDown& sitDown) {
        return LowBatteryFrame{info.time, battery.charge, health.batteryCharge, sitDown};
      });
  for (const LowBatteryFrame& f : outcome.frames)
  {
    if (outcome.belowAt < 0 && f.charge < lowBatteryThreshold) outcome.belowAt = f.time;
    if (outcome.warnedAt < 0 && f.sitDown.lowBattery) outcome.warnedAt = f.time;
  }
  outcome.standing = sitDownWindow(result, 2.0, 3.0);
  if (outcome.warnedAt >= 0) outcome.sitting = sitDownWindow(result, outcome.warnedAt + 4.0, 18.0);
  outcome.minTorsoHeight = result.minTorsoHeight;
  return outcome;
}

namespace
{
void addWindowRow(std::string& text, const char* scenario, std::uint64_t seed, const std::string& window,
                  const SitDownWindow& w)
{
  char line[300];
  std::snprintf(line, sizeof(line), "| %s | %llu | %s, %.4g..%.4g s | %.3f | %.2f |\n", scenario,
                static_cast<unsigned long long>(seed), window.c_str(), w.from, w.to, w.meanHeight,
                w.maxStiffness);
  text += line;
}

std::string timeOrNone(double time)
{
  char text[32];
  std::snprintf(text, sizeof(text), "%.2f", time);
  return time < 0 ? "none" : text;
}
} // namespace

std::string sitDownTables(const std::vector<ChestButtonOutcome>& chestButton,
                          const std::vector<LowBatteryOutcome>& lowBattery, const std::string& command)
{
  std::string text;
  if (!command.empty()) text += "Written by `" + command + "`.\n\n";
  text += "SitDownProvider on simulated robots: chestbutton (a press at 4 s, another at 12 s) and lowbattery "
          "(the battery just above 10 %, run down by the robot's current), 18 s each, on every seed. Per "
          "window: the torso's true height above the floor (simulator ground truth, mean over the window's "
          "samples, one every 0.12 s) and the largest stiffness the plant applied to any joint.\n\n";
  text += "| scenario | seed | window | torso height [m] | largest stiffness |\n| --- | ---: | --- | ---: | "
          "---: |\n";
  for (const ChestButtonOutcome& o : chestButton)
  {
    addWindowRow(text, "chestbutton", o.seed, "standing", o.standing);
    addWindowRow(text, "chestbutton", o.seed, "sitting, limp", o.sitting);
    addWindowRow(text, "chestbutton", o.seed, "standing again", o.standingAgain);
  }
  for (const LowBatteryOutcome& o : lowBattery)
  {
    addWindowRow(text, "lowbattery", o.seed, "standing", o.standing);
    addWindowRow(text, "lowbattery", o.seed, "sitting, limp (from 4 s after the warning)", o.sitting);
  }
  text += "\nPer run: the torso's lowest height (a lying NAO's torso is about 0.1 m high), the presses the "
          "robot counted (SitDown.presses, its log), when the battery's reading fell below 10 % and when the "
          "robot warned (SitDown.lowBattery).\n\n";
  text += "| scenario | seed | lowest torso height [m] | presses | below 10 % at [s] | warning at [s] |\n| "
          "--- | ---: | ---: | ---: | ---: | ---: |\n";
  char line[300];
  for (const ChestButtonOutcome& o : chestButton)
  {
    std::snprintf(line, sizeof(line), "| chestbutton | %llu | %.3f | %s | | |\n",
                  static_cast<unsigned long long>(o.seed), o.minTorsoHeight,
                  o.presses ? std::to_string(*o.presses).c_str() : "none");
    text += line;
  }
  for (const LowBatteryOutcome& o : lowBattery)
  {
    const std::uint32_t presses = o.frames.empty() ? 0 : o.frames.back().sitDown.presses;
    std::snprintf(line, sizeof(line), "| lowbattery | %llu | %.3f | %u | %s | %s |\n",
                  static_cast<unsigned long long>(o.seed), o.minTorsoHeight, presses,
                  timeOrNone(o.belowAt).c_str(), timeOrNone(o.warnedAt).c_str());
    text += line;
  }
  return text;
}
} // namespace nao
