#include "Framework/Scenario.h"
#include <algorithm>
#include <toml++/toml.h>

namespace nao
{
namespace
{
SourcePosition positionOf(const toml::node& node, const std::string& fallbackFile)
{
  const auto& source = node.source();
  return {source.path ? *source.path : fallbackFile, static_cast<int>(source.begin.line),
          static_cast<int>(source.begin.column)};
}
} // namespace

std::string SourcePosition::text() const
{
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

Scenario Scenario::load(const std::filesystem::path& file)
{
  Scenario scenario;
  scenario.name = file.stem().string();
  const std::string path = file.string();
  if (!std::filesystem::exists(file)) throw StartupError(path + ": scenario file not found");
  toml::table table;
  try
  {
    table = toml::parse_file(path);
  }
  catch (const toml::parse_error& error)
  {
    throw StartupError(path + ":" + std::to_string(error.source().begin.line) + ":" +
                       std::to_string(error.source().begin.column) + ": " + std::string(error.description()));
  }
  for (const auto& [key, node] : table)
  {
    const SourcePosition where = positionOf(node, path);
    if (key == "Motion")
    {
      const toml::table* providers = node.as_table();
      if (!providers)
        throw StartupError(where.text() + ": [Motion] must be a table of representation = \"provider\"");
      for (const auto& [representation, provider] : *providers)
      {
        const auto* name = provider.as_string();
        if (!name)
          throw StartupError(positionOf(provider, path).text() + ": provider of '" +
                             std::string(representation.str()) +
                             "' must be a string: a module name or \"off\"");
        scenario.motion.push_back(
            {std::string(representation.str()), name->get(), positionOf(provider, path)});
      }
    }
    else if (key == "Log")
    {
      const toml::table* log = node.as_table();
      if (!log) throw StartupError(where.text() + ": [Log] must be a table");
      for (const auto& [logKey, logNode] : *log)
      {
        if (logKey != "representations")
          throw StartupError(positionOf(logNode, path).text() + ": unknown key 'Log." +
                             std::string(logKey.str()) + "' (expected: representations)");
        const toml::array* names = logNode.as_array();
        if (!names)
          throw StartupError(positionOf(logNode, path).text() +
                             ": Log.representations must be an array of names");
        scenario.loggedWhere = positionOf(logNode, path);
        for (const auto& element : *names)
        {
          if (!element.is_string())
            throw StartupError(positionOf(element, path).text() + ": Log.representations: expected a name");
          scenario.logged.push_back(element.as_string()->get());
        }
      }
    }
    else if (key == "Script")
      continue; // timed poses and simulator events, read by the ScenarioPlayer module and the simulator
    else
      throw StartupError(
          where.text() + ": unknown table '" + std::string(key.str()) +
          "' (expected [Motion], [Log] or [Script]; Motion is the only thread that runs modules)");
  }
  // toml++ keeps keys sorted; restore the file's order, which breaks ties in the module order.
  std::stable_sort(scenario.motion.begin(), scenario.motion.end(),
                   [](const auto& a, const auto& b) {
                     return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
                   });
  return scenario;
}
} // namespace nao
