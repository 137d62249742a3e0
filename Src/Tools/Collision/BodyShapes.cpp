#include "Tools/Collision/BodyShapes.h"
#include "Tools/Files/BoundedFile.h"
#include "Tools/Streams/TomlFiles.h"

#include <cmath>

namespace nao::collision
{
namespace
{
using streams::ConfigError;
using streams::ConfigIssue;

ConfigIssue issueAt(const toml::source_region& region, std::string key, std::string message)
{
  ConfigIssue issue;
  issue.file = region.path ? *region.path : std::string();
  issue.line = static_cast<int>(region.begin.line);
  issue.column = static_cast<int>(region.begin.column);
  issue.keyPath = std::move(key);
  issue.message = std::move(message);
  return issue;
}

std::string whereOf(const toml::source_region& region)
{
  return (region.path ? *region.path : std::string("<table>")) + ":" + std::to_string(region.begin.line) +
         ":" + std::to_string(region.begin.column);
}

/// Three finite numbers (m).
Eigen::Vector3d readPoint(const toml::table& shape, const std::string& key, const std::string& path)
{
  const toml::node* node = shape.get(key);
  if (!node) throw ConfigError(issueAt(shape.source(), path + "." + key, "missing key (3 numbers, m)"));
  const toml::array* array = node->as_array();
  if (!array || array->size() != 3)
    throw ConfigError(issueAt(node->source(), path + "." + key, "expected an array of 3 numbers (m)"));
  Eigen::Vector3d point;
  for (std::size_t i = 0; i < 3; ++i)
  {
    const std::optional<double> value = (*array)[i].value<double>();
    if (!value || !std::isfinite(*value) || std::abs(*value) > 1.0)
      throw ConfigError(issueAt((*array)[i].source(), path + "." + key + "[" + std::to_string(i) + "]",
                                "expected a number of metres in [-1, 1]"));
    point[static_cast<Eigen::Index>(i)] = *value;
  }
  return point;
}

BodyShapes::Shape readShape(const std::string& name, const toml::node& node)
{
  const std::string path = "shapes." + name;
  const toml::table* table = node.as_table();
  if (!table) throw ConfigError(issueAt(node.source(), path, "expected a table"));
  for (const auto& [key, value] : *table)
    if (key != "link" && key != "center" && key != "start" && key != "end" && key != "radius")
      throw ConfigError(issueAt(key.source(), path + "." + std::string(key.str()),
                                "unknown key (link, center or start and end, radius)"));
  BodyShapes::Shape shape;
  shape.name = name;
  shape.where = whereOf(table->source());
  const std::optional<std::string> link = (*table)["link"].value<std::string>();
  if (!link)
    throw ConfigError(issueAt(table->source(), path + ".link", "missing or not a string (URDF link)"));
  shape.link = *link;
  const bool sphere = table->contains("center");
  if (sphere && (table->contains("start") || table->contains("end")))
    throw ConfigError(issueAt(table->source(), path, "either center (sphere) or start and end (capsule)"));
  shape.kind = sphere ? ShapeKind::sphere : ShapeKind::capsule;
  shape.start = readPoint(*table, sphere ? "center" : "start", path);
  shape.end = sphere ? shape.start : readPoint(*table, "end", path);
  const toml::node* radius = table->get("radius");
  const std::optional<double> value = radius ? radius->value<double>() : std::nullopt;
  if (!value || !std::isfinite(*value) || *value <= 0.0 || *value > 0.5)
    throw ConfigError(issueAt(radius ? radius->source() : table->source(), path + ".radius",
                              "expected a radius in (0, 0.5] m"));
  shape.radius = *value;
  return shape;
}
} // namespace

BodyShapes BodyShapes::fromTable(const toml::table& file)
{
  BodyShapes result;
  for (const auto& [key, value] : file)
    if (key != "shapes" && key != "excludedLinkPairs")
      throw ConfigError(
          issueAt(key.source(), std::string(key.str()), "unknown key (shapes, excludedLinkPairs)"));
  const toml::table* shapes = file["shapes"].as_table();
  if (!shapes || shapes->empty())
    throw ConfigError(issueAt(file.source(), "shapes", "no [shapes.<name>] tables"));
  for (const auto& [name, node] : *shapes)
    result.shapes.push_back(readShape(std::string(name.str()), node));
  if (const toml::node* excluded = file.get("excludedLinkPairs"))
  {
    const toml::array* pairs = excluded->as_array();
    if (!pairs) throw ConfigError(issueAt(excluded->source(), "excludedLinkPairs", "expected an array"));
    for (std::size_t i = 0; i < pairs->size(); ++i)
    {
      const toml::array* pair = (*pairs)[i].as_array();
      const auto a = pair && pair->size() == 2 ? (*pair)[0].value<std::string>() : std::nullopt;
      const auto b = pair && pair->size() == 2 ? (*pair)[1].value<std::string>() : std::nullopt;
      if (!a || !b)
        throw ConfigError(issueAt((*pairs)[i].source(), "excludedLinkPairs[" + std::to_string(i) + "]",
                                  "expected two link names"));
      result.excludedLinkPairs.push_back({*a, *b, whereOf((*pairs)[i].source())});
    }
  }
  return result;
}

BodyShapes BodyShapes::load(const std::filesystem::path& configDirectory, const std::string& robot)
{
  const std::filesystem::path robots = configDirectory / "Robots";
  toml::table table = streams::loadTomlFile(robots / "Default" / "selfCollision.toml");
  const std::filesystem::path overlay = robots / robot / "selfCollision.toml";
  if (robot != "Default" && files::fileExists(overlay))
    streams::overlayPerKey(table, streams::loadTomlFile(overlay));
  return fromTable(table);
}
} // namespace nao::collision
