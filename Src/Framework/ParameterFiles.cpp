#include "Framework/ParameterFiles.h"
#include "Tools/Files/BoundedFile.h"
#include "Tools/Streams/TomlFiles.h"

namespace nao
{
namespace
{
/// files::fileExists with its error as a ConfigError (file:1:1), as every other problem of a parameter file.
bool fileExists(const std::filesystem::path& path)
{
  try
  {
    return files::fileExists(path);
  }
  catch (const files::FileError& error)
  {
    const std::string message = error.what(), prefix = path.string() + ":1:1: ";
    throw streams::ConfigError(streams::ConfigIssue{
        .file = path.string(), .line = 1, .column = 1, .message = message.substr(prefix.size())});
  }
}
} // namespace

toml::table layeredParameterTable(toml::table defaults, const ConfigLocation& location,
                                  const std::string& module)
{
  for (const auto& file : {location.moduleFile(module), location.robotOverlay(module)})
    if (fileExists(file))
      streams::overlayPerKey(defaults, streams::loadTomlFile(file), "the parameters of " + module);
  return defaults;
}

toml::table layeredParameterTable(const ModuleInfo& module, const ConfigLocation& location)
{
  void* parameters = module.parameters->create();
  toml::table defaults;
  try
  {
    module.parameters->save(parameters, defaults);
  }
  catch (...)
  {
    module.parameters->destroy(parameters);
    throw;
  }
  module.parameters->destroy(parameters);
  return layeredParameterTable(std::move(defaults), location, module.name);
}
} // namespace nao
