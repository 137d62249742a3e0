#pragma once
// Where a module's parameters come from: the defaults its struct declares (each value written once, there, with
// its unit, range and reason), the module's file Config/Modules/<module>.toml over them, and the robot's overlay
// Config/Robots/<robot>/Modules/<module>.toml over that. A file states only what differs from what it overlays.
#include "Framework/ConfigFiles.h"
#include "Framework/ModuleBase.h"
#include <toml++/toml.h>

namespace nao
{
/// `defaults` (the struct's defaults saved as TOML, file units) with the module's file and then the robot's overlay
/// on top, per key; either file may be missing. A key the struct does not have, or a table where it has a value, is a
/// streams::ConfigError at that key's position in its file (values are checked later, when the table is loaded).
toml::table layeredParameterTable(toml::table defaults, const ConfigLocation& location,
                                  const std::string& module);

/// layeredParameterTable() over the defaults of a registered module's parameter struct (which it must have).
toml::table layeredParameterTable(const ModuleInfo& module, const ConfigLocation& location);

} // namespace nao
