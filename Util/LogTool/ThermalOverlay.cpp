// `LogTool thermal LOG --overlay FILE`: what a robot taught into its overlay of JointThermalStateProvider, so that the
// next run starts with it: the status thresholds (JointThermalState, source learned or taught), each settled joint's
// node gains and the robot's ambient (the module's README, "Kept across restarts").
#include "Thermal.h"
#include "Tools/Streams/NumberFormat.h"
#include "Tools/Streams/TomlFiles.h"
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>

namespace nao
{
namespace
{
/// The table `key` of `overlay` (created if missing); throws where the file holds something else there.
toml::table& jointTable(toml::table& overlay, const char* key, const std::filesystem::path& file)
{
  if (!overlay.contains(key)) overlay.insert(key, toml::table{});
  toml::table* table = overlay[key].as_table();
  if (!table) throw std::runtime_error(file.string() + ": key '" + key + "' is not a table of joints");
  return *table;
}

/// `value` rounded to 1/`scale` (the nearest double of the decimal: 23.7, not 23.700000000000003).
double rounded(double value, double scale)
{
  return std::round(value * scale) / scale;
}

std::size_t writeThresholds(const JointThermalState& state, toml::table& overlay,
                            const std::filesystem::path& file)
{
  constexpr const char* keys[] = {"taughtHotThresholds", "taughtVeryHotThresholds",
                                  "taughtCriticallyHotThresholds"};
  std::size_t written = 0;
  for (int s = 1; s <= 3; ++s)
  {
    const ThermalStatusForecast& forecast = state.forecast(s);
    const char* key = keys[s - 1];
    for (std::size_t j = 0; j < numOfJoints; ++j)
    {
      const ThermalThresholdSource source = forecast.sources[j];
      const float threshold = forecast.thresholds[j];
      if ((source != ThermalThresholdSource::learned && source != ThermalThresholdSource::taught) ||
          !std::isfinite(threshold) || threshold <= 0.f)
        continue;
      toml::table& table = jointTable(overlay, key, file);
      const std::string joint(jointNames[j]);
      double value = rounded(threshold, 10.0);
      if (const std::optional<double> before = table[joint].value<double>(); before && *before > 0)
        value =
            std::min(value, *before); // the lowest estimate at a transition is kept, as the module keeps it
      table.insert_or_assign(joint, value);
      std::cout << "overlay " << file.string() << ": " << key << "." << joint << " = " << value << " (status "
                << s << ", " << streams::enumName(source) << ")\n";
      ++written;
    }
  }
  return written;
}

/// Each settled joint's gains (replacing the file's; a joint not settled keeps the file's) and the robot's ambient.
std::size_t writeFit(const JointThermalState& state, const SettledFit& fit, toml::table& overlay,
                     const std::filesystem::path& file)
{
  constexpr const char* keys[] = {"taughtNodeGains0", "taughtNodeGains1", "taughtNodeGains2",
                                  "taughtNodeGains3"};
  static_assert(std::size(keys) == JointThermalState::maxNodes);
  std::size_t written = 0;
  std::vector<float> ambients;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    if (!state.valid[j]) continue;
    if (std::isfinite(state.ambients[j])) ambients.push_back(state.ambients[j]);
    float spread = 0;
    const std::string joint(jointNames[j]);
    if (!fit.settled(j, spread))
    {
      if (fit.peakRises[j] >= SettledFit::minRise)
        std::cout << "overlay " << file.string() << ": " << joint << "'s fit not kept: Σ g_i moved "
                  << std::round(1000.0 * spread) / 10.0 << " % over the last " << SettledFit::settleWindow
                  << " s\n";
      continue;
    }
    std::string text;
    for (std::size_t i = 0; i < JointThermalState::maxNodes; ++i)
    {
      const double gain = rounded(std::max(0.0, static_cast<double>(state.nodeGains[i][j])), 100.0);
      jointTable(overlay, keys[i], file).insert_or_assign(joint, gain);
      text += (text.empty() ? "" : "/") + streams::formatShortest(gain);
    }
    std::cout << "overlay " << file.string() << ": taughtNodeGains0..3." << joint << " = " << text
              << " K/A² (settled: Σ within " << std::round(1000.0 * spread) / 10.0 << " % over the last "
              << SettledFit::settleWindow << " s; up to " << std::round(10.0 * fit.peakRises[j]) / 10.0
              << " K above its ambient)\n";
    ++written;
  }
  if (ambients.empty()) return written;
  const auto middle = ambients.begin() + static_cast<std::ptrdiff_t>(ambients.size() / 2);
  std::nth_element(ambients.begin(), middle, ambients.end());
  double ambient = *middle;
  if (ambients.size() % 2 == 0) ambient = 0.5 * (ambient + *std::max_element(ambients.begin(), middle));
  ambient = rounded(ambient, 10.0);
  overlay.insert_or_assign("taughtAmbient", ambient);
  std::cout << "overlay " << file.string() << ": taughtAmbient = " << ambient << " °C (median T_amb of "
            << ambients.size() << " joints)\n";
  return written + 1;
}
} // namespace

void SettledFit::add(const JointThermalState& state)
{
  const double time = state.steps * 0.012; // LoLA's frames: the filter's own clock, whatever the log holds
  // A restarted provider (its steps went back) starts a new fit: the window and the peaks start again.
  if (!window.empty() && time < window.back().time)
  {
    window.clear();
    peakRises = {};
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (state.valid[j] && std::isfinite(state.temperatures[j] - state.ambients[j]))
      peakRises[j] = std::max(peakRises[j], state.temperatures[j] - state.ambients[j]);
  window.push_back(Sample{time, state.rises});
  while (window.front().time < time - settleWindow)
    window.pop_front();
}

bool SettledFit::settled(std::size_t j, float& spread) const
{
  if (window.empty() || window.back().time - window.front().time < 0.9 * settleWindow) return false;
  float low = window.back().rises[j], high = low;
  for (const Sample& sample : window)
  {
    low = std::min(low, sample.rises[j]);
    high = std::max(high, sample.rises[j]);
  }
  const float last = window.back().rises[j];
  spread = last > 0 ? (high - low) / last : INFINITY;
  return peakRises[j] >= minRise && spread <= settleSpread; // NaN: false
}

void writeTaughtOverlay(const JointThermalState& state, const SettledFit& fit,
                        const std::filesystem::path& file)
{
  toml::table overlay = std::filesystem::exists(file) ? streams::loadTomlFile(file) : toml::table{};
  const std::size_t thresholds = writeThresholds(state, overlay, file);
  if (thresholds == 0)
    std::cout << "overlay " << file.string()
              << ": no thresholds (no joint reported a status transition in this log)\n";
  const std::size_t fits = writeFit(state, fit, overlay, file);
  if (fits <= 1)
    std::cout << "overlay " << file.string() << ": no node gains (no joint's fit saw a load of "
              << SettledFit::minRise << " K and settled within " << 100 * SettledFit::settleSpread
              << " % over the log's last " << SettledFit::settleWindow << " s)\n";
  if (thresholds + fits == 0) return;
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temporary = file.string() + ".tmp";
  {
    std::ofstream out(temporary);
    out << "# JointThermalStateProvider: what this robot taught (LogTool thermal --overlay): status "
           "thresholds °C, node gains K/A², ambient °C\n"
        << streams::toTomlString(overlay);
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, file); // never a half-written overlay
}
} // namespace nao
