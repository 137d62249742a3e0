// TOML loading with overlays, as the controller loads a module's parameters: Config/Modules/<Module>.toml, the robot's
// overlay on top (overlayPerKey), then every check of the module's parameter struct (keys, types, units, ranges).
// The input is the module file and the overlay, separated by the first NUL byte (none: no overlay). Every module
// of the binary loads the merged table, or only the module that a first line `#<Module>` names (a TOML comment: the
// seeds name theirs, which saves the other modules' refusals). A table that loads must save, parse and load again to
// the same text.
#include "Framework/Module.h"
#include "Framework/ModuleBase.h"
#include "Tools/Streams/TomlFiles.h"
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string_view>

namespace
{
void loadModules(const toml::table& table, std::string_view firstLine)
{
  const nao::ModuleInfo* named =
      firstLine.starts_with('#') ? nao::ModuleRegistry::instance().find(firstLine.substr(1)) : nullptr;
  for (const nao::ModuleInfo* module : nao::ModuleRegistry::instance().modules())
  {
    if (named && module != named) continue;
    const nao::ParameterInfo* info = module->parameters;
    if (!info) continue;
    const std::unique_ptr<void, void (*)(void*)> parameters(info->create(), info->destroy);
    try
    {
      info->load(table, parameters.get());
    }
    catch (const std::exception&)
    {
      continue; // refused with a ConfigError: what the file's author sees
    }
    // Loaded: what the robot saves (a live edit's shadow, `DebugClient get`) must read back the same.
    toml::table saved;
    info->save(parameters.get(), saved);
    const std::string text = nao::streams::toTomlString(saved);
    const std::unique_ptr<void, void (*)(void*)> again(info->create(), info->destroy);
    try
    {
      info->load(nao::streams::parseToml(text, "saved.toml"), again.get());
    }
    catch (const std::exception&)
    {
      std::abort(); // saved parameters that do not load again
    }
    toml::table savedAgain;
    info->save(again.get(), savedAgain);
    if (nao::streams::toTomlString(savedAgain) != text) std::abort();
  }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t split = input.find('\0');
  const std::string_view baseText = input.substr(0, split);
  const std::string_view overlayText = split == std::string_view::npos ? "" : input.substr(split + 1);
  try
  {
    toml::table base = nao::streams::parseToml(baseText, "Module.toml");
    if (!overlayText.empty())
      nao::streams::overlayPerKey(base, nao::streams::parseToml(overlayText, "Robots/Fuzz/Module.toml"));
    loadModules(base, baseText.substr(0, baseText.find('\n')));
  }
  catch (const nao::streams::ConfigError&)
  {
  }
  return 0;
}
