#include "Tools/Kinematics/MassCalibration.h"
#include "Tools/Files/BoundedFile.h"

#include "Tools/Kinematics/ModelError.h"

#include <cmath>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

namespace nao::kinematics
{
namespace
{
constexpr double metresPerMillimetre = 0.001;
/// kg: a correction of a weighed link, not a new part (the NAO's heaviest link, the torso, is 1.05 kg).
constexpr double maxExtraMassKg = 1.0;
/// mm: a centre of mass moved within a link (the NAO's longest links, thigh and tibia, are 100 mm).
constexpr double maxComOffsetMm = 100.0;

std::string where(std::string_view sourceName, const toml::source_region& region)
{
  return std::string(sourceName) + ":" + std::to_string(region.begin.line) + ":" +
         std::to_string(region.begin.column);
}

[[noreturn]] void fail(std::string_view sourceName, const toml::node& node, const std::string& key,
                       const std::string& problem)
{
  throw ModelError(where(sourceName, node.source()) + ": key '" + key + "': " + problem);
}

std::string numberText(double value)
{
  std::ostringstream text;
  text << value;
  return text.str();
}

/// A number in [-limit, limit] (file units).
double readNumber(std::string_view sourceName, const toml::node& node, const std::string& key, double limit,
                  std::string_view unit)
{
  const std::optional<double> value = node.value<double>(); // integers convert too
  if (!node.is_number() || !value || !std::isfinite(*value))
    fail(sourceName, node, key, "expected a finite number");
  if (std::abs(*value) > limit)
    fail(sourceName, node, key,
         numberText(*value) + " is out of range [" + numberText(-limit) + ", " + numberText(limit) + "] " +
             std::string(unit));
  return *value;
}

LinkMassCalibration readEntry(std::string_view sourceName, const std::string& link, const toml::node& node)
{
  const std::string prefix = "links." + link;
  const toml::table* table = node.as_table();
  if (!table)
    fail(sourceName, node, prefix, "expected a table { extraMassKg = ..., comOffsetMm = [x, y, z] }");
  LinkMassCalibration entry;
  entry.link = link;
  entry.origin = where(sourceName, node.source());
  for (const auto& [name, value] : *table)
  {
    const std::string key = prefix + "." + std::string(name.str());
    if (name.str() == "extraMassKg")
      entry.extraMass = readNumber(sourceName, value, key, maxExtraMassKg, "kg");
    else if (name.str() == "comOffsetMm")
    {
      const toml::array* components = value.as_array();
      if (!components || components->size() != 3)
        fail(sourceName, value, key, "expected an array of 3 numbers (mm)");
      for (std::size_t i = 0; i < 3; ++i)
        entry.centerOfMassOffset[static_cast<Eigen::Index>(i)] =
            readNumber(sourceName, *components->get(i), key, maxComOffsetMm, "mm") * metresPerMillimetre;
    }
    else
      fail(sourceName, value, key, "unknown key (expected extraMassKg or comOffsetMm)");
  }
  return entry;
}
} // namespace

MassCalibration parseMassCalibration(std::string_view toml, std::string_view sourceName)
{
  toml::table root;
  try
  {
    root = toml::parse(toml, sourceName);
  }
  catch (const toml::parse_error& error)
  {
    throw ModelError(where(sourceName, error.source()) + ": " + std::string(error.description()));
  }
  MassCalibration calibration;
  for (const auto& [name, node] : root)
  {
    if (name.str() != "links")
      fail(sourceName, node, std::string(name.str()), "unknown key (expected the table 'links')");
    const toml::table* links = node.as_table();
    if (!links) fail(sourceName, node, "links", "expected a table of links");
    for (const auto& [link, entry] : *links)
      calibration.links.push_back(readEntry(sourceName, std::string(link.str()), entry));
  }
  return calibration;
}

MassCalibration loadMassCalibration(const std::filesystem::path& file)
{
  std::string text;
  try
  {
    text = files::readBoundedFile(file);
  }
  catch (const files::FileError& error)
  {
    throw ModelError(error.what());
  }
  return parseMassCalibration(text, file.string());
}
} // namespace nao::kinematics
