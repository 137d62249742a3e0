#include "Framework/Module.h"
#include <stdexcept>

namespace nao
{
ModuleRegistry& ModuleRegistry::instance()
{
  static ModuleRegistry registry;
  return registry;
}

void ModuleRegistry::add(const ModuleInfo* info)
{
  if (const ModuleInfo* existing = find(info->name))
    throw std::logic_error("two modules are named '" + info->name + "' (" + existing->file + " and " +
                           info->file + ")");
  modules_.push_back(info);
}

const ModuleInfo* ModuleRegistry::find(std::string_view name) const
{
  for (const ModuleInfo* info : modules_)
    if (info->name == name) return info;
  return nullptr;
}
} // namespace nao
