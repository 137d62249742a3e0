#include "Framework/ModuleContext.h"
#include "Framework/Scenario.h"

namespace nao
{
const void* LoadedInputs::find(const void* key, std::string_view name,
                               std::shared_ptr<const void> (*load)(const ConfigFiles&))
{
  auto& input = inputs_[key];
  if (!input)
  {
    try
    {
      input = load(files_);
    }
    catch (const StartupError&)
    {
      inputs_.erase(key);
      throw;
    }
    catch (const std::exception& error)
    {
      inputs_.erase(key);
      throw StartupError(std::string(name) + ": " + error.what());
    }
  }
  return input.get();
}
} // namespace nao
