#include "Metadata.h"

#include "Tools/BinaryIO/LogFormat.h"
#include <iostream>

namespace nao::logtool
{
namespace
{
void printList(std::ostream& out, const char* label, const std::vector<std::string>& names)
{
  if (names.empty()) return;
  out << "    " << label << ":";
  for (const std::string& name : names)
    out << " " << name;
  out << "\n";
}
} // namespace

void printMetadataSummary(const LogMetadata& metadata, std::ostream& out)
{
  if (!metadata.graph)
    out << "module graph: not in this log (written before logs recorded it)\n";
  else
  {
    const debug::ListReply& graph = *metadata.graph;
    std::size_t active = 0;
    for (const debug::ModuleEntry& module : graph.modules)
      active += module.active;
    out << "module graph (scenario " << graph.scenario << ", " << active << " of " << graph.modules.size()
        << " modules active):\n";
    for (const debug::ModuleEntry& module : graph.modules)
    {
      if (!module.active) continue;
      out << "  " << module.name << "\n";
      printList(out, "requires", module.requires_);
      printList(out, "uses", module.uses);
      printList(out, "provides", module.provides);
    }
    out << "  inactive:";
    for (const debug::ModuleEntry& module : graph.modules)
      if (!module.active) out << " " << module.name;
    out << "\nexecution order:\n" << graph.plan;
    if (!graph.plan.empty() && graph.plan.back() != '\n') out << "\n";
  }
  if (!metadata.hasParameters())
    out << "parameters: not in this log (written before logs recorded them)\n";
  else
  {
    out << "parameters (`LogTool parameters LOG [FRAME]` prints them):";
    for (const LoggedParameters& entry : metadata.parameters)
      if (entry.loaded) out << " " << entry.module;
    out << "\n";
    for (const LoggedParameters* edit : metadata.edits())
    {
      out << "  edited from frame " << edit->fromFrame << ": " << edit->module << "\n";
    }
  }
  for (const std::string& error : metadata.errors)
    std::cerr << "warning: " << error << "\n";
}

int printParameters(const std::string& path, std::optional<std::uint32_t> frame)
{
  binaryio::LogReader reader(path);
  std::optional<std::uint32_t> first;
  while (auto logged = reader.nextFrame())
    if (!first) first = logged->frameNumber();
  const LogMetadata metadata = LogMetadata::fromAnnotations(reader.annotations());
  for (const std::string& warning : reader.warnings())
    std::cerr << "warning: " << warning << "\n";
  for (const std::string& error : metadata.errors)
    std::cerr << "warning: " << error << "\n";
  if (!metadata.hasParameters())
  {
    std::cerr << "LogTool parameters: " << path
              << " holds no parameters (written before logs recorded them)\n";
    return 2;
  }
  const std::uint32_t at = frame.value_or(first.value_or(0));
  std::cout << "# parameters in force at frame " << at << " (file units)\n";
  for (const auto& [module, toml] : metadata.parametersAt(at))
  {
    std::cout << "\n## " << module << "\n" << toml;
    if (!toml.empty() && toml.back() != '\n') std::cout << "\n";
  }
  return 0;
}
} // namespace nao::logtool
