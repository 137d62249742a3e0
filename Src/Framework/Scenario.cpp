#include "Framework/Scenario.h"
#include "Framework/ConfigFiles.h"
#include "Tools/Files/BoundedFile.h"
#include "Tools/Streams/ClosestName.h"
#include <algorithm>
#include <toml++/toml.h>

namespace nao
{
namespace
{
constexpr std::string_view defaultsName = "default"; ///< Config/Scenarios/default.toml: the shared [Motion]
constexpr std::string_view dropDefault = "none";     ///< a scenario's value that removes default.toml's entry

SourcePosition positionOf(const toml::node& node, const std::string& fallbackFile)
{
  const auto& source = node.source();
  return {source.path ? *source.path : fallbackFile, static_cast<int>(source.begin.line),
          static_cast<int>(source.begin.column)};
}

/// files::fileExists with its error as a StartupError.
bool existing(const std::filesystem::path& file)
{
  try
  {
    return files::fileExists(file);
  }
  catch (const files::FileError& error)
  {
    throw StartupError(error.what());
  }
}

toml::table parse(const std::filesystem::path& file)
{
  const std::string path = file.string();
  if (!existing(file))
  {
    std::vector<std::string> scenarios = namesInFolder(file.parent_path(), ".toml");
    std::erase(scenarios, std::string(defaultsName));
    throw StartupError(path + ":1:1: scenario file not found" +
                       streams::didYouMean(file.stem().string(), scenarios) +
                       "; scenarios: " + joined(scenarios));
  }
  try
  {
    return toml::parse(files::readBoundedFile(file), path);
  }
  catch (const toml::parse_error& error)
  {
    throw StartupError(path + ":" + std::to_string(error.source().begin.line) + ":" +
                       std::to_string(error.source().begin.column) + ": " + std::string(error.description()));
  }
  catch (const files::FileError& error)
  {
    throw StartupError(error.what());
  }
}

/// A [Motion] table's choices in the file's order (toml++ keeps keys sorted; the file's order breaks ties in
/// the module order).
std::vector<ProviderChoice> motionChoices(const toml::node& node, const std::string& path)
{
  const toml::table* providers = node.as_table();
  if (!providers)
    throw StartupError(positionOf(node, path).text() +
                       ": [Motion] must be a table of representation = \"provider\"");
  std::vector<ProviderChoice> choices;
  for (const auto& [representation, provider] : *providers)
  {
    const auto* name = provider.as_string();
    if (!name)
      throw StartupError(positionOf(provider, path).text() + ": provider of '" +
                         std::string(representation.str()) + "' must be a string: a module name or \"off\"");
    choices.push_back({std::string(representation.str()), name->get(), positionOf(provider, path)});
  }
  std::stable_sort(choices.begin(), choices.end(),
                   [](const auto& a, const auto& b) {
                     return std::pair(a.where.line, a.where.column) < std::pair(b.where.line, b.where.column);
                   });
  return choices;
}

/// default.toml's [Motion] choices, or none if the folder has no default.toml.
std::vector<ProviderChoice> defaultChoices(const std::filesystem::path& scenarioFile)
{
  const auto file = scenarioFile.parent_path() / (std::string(defaultsName) + ".toml");
  if (!existing(file)) return {};
  const std::string path = file.string();
  const toml::table table = parse(file);
  std::vector<ProviderChoice> choices;
  for (const auto& [key, node] : table)
  {
    if (key != "Motion")
      throw StartupError(positionOf(node, path).text() + ": unknown table '" + std::string(key.str()) +
                         "' (" + std::string(defaultsName) + ".toml only holds the shared [Motion] table)");
    choices = motionChoices(node, path);
  }
  return choices;
}

/// The scenario's own choices over the defaults, per key; "none" drops the default's entry.
void overlay(std::vector<ProviderChoice>& choices, const std::vector<ProviderChoice>& own)
{
  for (const ProviderChoice& choice : own)
  {
    auto existing = std::find_if(choices.begin(), choices.end(),
                                 [&](const ProviderChoice& base)
                                 { return base.representation == choice.representation; });
    if (choice.provider == dropDefault)
    {
      if (existing == choices.end())
        throw StartupError(choice.where.text() + ": '" + choice.representation + "' = \"" +
                           std::string(dropDefault) + "\", but " + std::string(defaultsName) +
                           ".toml names no provider for it to drop");
      choices.erase(existing);
    }
    else if (existing != choices.end())
      *existing = choice; // the default's place in the order, the scenario's provider and position
    else
      choices.push_back(choice);
  }
}
} // namespace

std::string SourcePosition::text() const
{
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

Scenario Scenario::load(const std::filesystem::path& file)
{
  Scenario scenario;
  scenario.name = file.stem().string();
  scenario.file = file;
  const std::string path = file.string();
  if (scenario.name == defaultsName && existing(file))
    throw StartupError(path + ":1:1: the [Motion] table every scenario overlays, not a scenario to run");
  const toml::table table = parse(file);
  std::vector<ProviderChoice> own;
  for (const auto& [key, node] : table)
  {
    const SourcePosition where = positionOf(node, path);
    if (key == "Motion")
      own = motionChoices(node, path);
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
      continue; // ScenarioScript: loaded by the modules that declare it in Loads<>, and by the simulator
    else
      throw StartupError(
          where.text() + ": unknown table '" + std::string(key.str()) +
          "' (expected [Motion], [Log] or [Script]; Motion is the only thread that runs modules)");
  }
  scenario.motion = defaultChoices(file);
  overlay(scenario.motion, own);
  return scenario;
}

void Scenario::override(const std::vector<ProviderChoice>& overrides)
{
  for (const ProviderChoice& choice : overrides)
  {
    auto existing =
        std::find_if(motion.begin(), motion.end(),
                     [&](const ProviderChoice& own) { return own.representation == choice.representation; });
    if (existing != motion.end())
      *existing = choice;
    else
      motion.push_back(choice);
  }
}
} // namespace nao
