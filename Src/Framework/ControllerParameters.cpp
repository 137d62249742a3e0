// The controller's module parameters (Controller.h): each module's TOML shadow (its defaults, its file and the
// robot's overlay: ParameterFiles.h), kept for live edits, the edits themselves, checked before the motion thread
// gets them, and the text a client reads.
#include "Framework/Controller.h"
#include "Framework/ParameterFiles.h"
#include "Tools/Streams/TomlFiles.h"

namespace nao
{
const toml::table& Controller::shadowParameters(const ModuleInfo& module)
{
  if (auto found = shadows_.find(module.name); found != shadows_.end()) return found->second;
  try
  {
    return shadows_.emplace(module.name, layeredParameterTable(module, config_)).first->second;
  }
  catch (const streams::ConfigError& error)
  {
    throw StartupError(std::string("parameters of module '") + module.name + "': " + error.what());
  }
}

std::string Controller::setParameter(const std::string& module, const std::string& keyPath,
                                     const std::string& valueToml)
{
  const ModuleInfo* info = ModuleRegistry::instance().find(module);
  if (!info) return "'" + module + "' is not a module of this binary";
  if (!info->parameters) return "module '" + module + "' has no parameters";
  void* parameters = nullptr;
  try
  {
    shadowParameters(*info);
    toml::table& shadow = shadows_.at(module);
    // Edit in place and put the old node back on failure: copying toml++ nodes would lose their file
    // positions.
    streams::detail::EditSlot slot(shadow, keyPath, valueToml);
    parameters = info->parameters->create();
    try
    {
      info->parameters->load(shadow, parameters);
    }
    catch (const streams::ConfigError& error)
    {
      slot.revert();
      throw streams::detail::editError(error);
    }
    catch (...)
    {
      slot.revert();
      throw;
    }
  }
  catch (const streams::ConfigError& error)
  {
    if (parameters) info->parameters->destroy(parameters);
    // The new value has no file: its issues say where it came from instead of a made-up line 1.
    std::vector<streams::ConfigIssue> issues = error.issues();
    for (streams::ConfigIssue& issue : issues)
      if (issue.file == streams::editSourceName)
      {
        issue.file = "debug channel: set " + module + " " + keyPath + " " + valueToml;
        issue.line = issue.column = 0;
      }
    return std::string("edit refused, old value kept: ") + streams::ConfigError(std::move(issues)).what();
  }
  catch (const std::exception& error)
  {
    if (parameters) info->parameters->destroy(parameters);
    return std::string("edit refused, old value kept: ") + error.what();
  }
  if (auto running = instances_.find(module); running != instances_.end())
    post(SwapParameters{running->second.get(), parameters});
  else
    info->parameters->destroy(parameters);
  return {};
}

std::string Controller::parametersText(const std::string& module)
{
  const ModuleInfo* info = ModuleRegistry::instance().find(module);
  if (!info) throw StartupError("'" + module + "' is not a module of this binary");
  if (!info->parameters) return "";
  return streams::toTomlString(shadowParameters(*info));
}
} // namespace nao
