// `LogTool thermal LOG --overlay FILE`: the status thresholds a robot taught (JointThermalState, source learned or
// taught) into a robot's overlay of JointThermalStateProvider, so that the next run starts with them.
#include "Thermal.h"
#include "Tools/Streams/TomlFiles.h"
#include <cmath>
#include <fstream>
#include <iostream>

namespace nao
{
void writeTaughtThresholds(const JointThermalState& state, const std::filesystem::path& file)
{
  toml::table overlay = std::filesystem::exists(file) ? streams::loadTomlFile(file) : toml::table{};
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
      if (!overlay.contains(key)) overlay.insert(key, toml::table{});
      toml::table* table = overlay[key].as_table();
      if (!table) throw std::runtime_error(file.string() + ": key '" + key + "' is not a table of joints");
      const std::string joint(jointNames[j]);
      double value = std::round(static_cast<double>(threshold) * 10.0) / 10.0;
      if (const std::optional<double> before = (*table)[joint].value<double>(); before && *before > 0)
        value =
            std::min(value, *before); // the lowest estimate at a transition is kept, as the module keeps it
      table->insert_or_assign(joint, value);
      std::cout << "overlay " << file.string() << ": " << key << "." << joint << " = " << value << " (status "
                << s << ", " << streams::enumName(source) << ")\n";
      ++written;
    }
  }
  if (written == 0)
  {
    std::cout << "overlay " << file.string()
              << ": nothing to write (no joint reported a status transition in this log)\n";
    return;
  }
  if (file.has_parent_path()) std::filesystem::create_directories(file.parent_path());
  const std::filesystem::path temporary = file.string() + ".tmp";
  {
    std::ofstream out(temporary);
    out << "# JointThermalStateProvider: status thresholds this robot taught, °C (LogTool thermal "
           "--overlay)\n"
        << streams::toTomlString(overlay);
    if (!out.flush()) throw std::runtime_error("cannot write " + temporary.string());
  }
  std::filesystem::rename(temporary, file); // never a half-written overlay
}
} // namespace nao
