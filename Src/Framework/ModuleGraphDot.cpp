#include "Framework/ModuleGraph.h"
#include "Representations/MotionControl/JointRequest.h"
#include <algorithm>
#include <set>

namespace nao
{
namespace
{
/// A DOT string literal: only the quote and the backslash need escaping.
std::string quoted(const std::string& text)
{
  std::string result = "\"";
  for (char c : text)
  {
    if (c == '"' || c == '\\') result += '\\';
    result += c;
  }
  return result + "\"";
}

std::string moduleNode(const std::string& name)
{
  return quoted("module:" + name);
}

std::string representationNode(RepresentationId id)
{
  return quoted("representation:" + RepresentationRegistry::instance().info(id).name);
}

std::string inputNode(const std::string& name)
{
  return quoted("input:" + name);
}
} // namespace

std::string toDot(const ExecutionPlan& plan, const std::vector<FixedProvider>& fixedProviders,
                  const std::string& scenarioName)
{
  const auto& registry = RepresentationRegistry::instance();
  std::string dot = "digraph " + quoted(scenarioName) + " {\n  rankdir=LR;\n";

  // Representations: everything with a provider, and everything a module reads.
  std::set<RepresentationId> representations;
  std::set<std::string> inputs;
  for (const auto& [id, provider] : plan.providerOf)
    representations.insert(id);
  for (const ModulePlan& modulePlan : plan.modules)
  {
    representations.insert(modulePlan.module->requires_.begin(), modulePlan.module->requires_.end());
    representations.insert(modulePlan.module->uses.begin(), modulePlan.module->uses.end());
    inputs.insert(modulePlan.module->loads.begin(), modulePlan.module->loads.end());
  }

  std::set<std::string> fixedNames;
  for (const FixedProvider& fixed : fixedProviders)
    if (fixedNames.insert(fixed.provider).second)
      dot += "  " + moduleNode(fixed.provider) + " [label=" + quoted(fixed.provider) +
             ", shape=box, style=filled, fillcolor=lightgrey];\n";
  for (std::size_t index = 0; index < plan.modules.size(); ++index)
  {
    const ModuleInfo& module = *plan.modules[index].module;
    const bool passThrough = module.name.starts_with("PassThrough("); // a stage set `off`
    dot += "  " + moduleNode(module.name) + " [label=" + quoted(module.name) + ", shape=box" +
           (passThrough ? ", style=dashed" : "") + ", order=" + std::to_string(index + 1) + "];\n";
  }
  for (RepresentationId id : representations)
  {
    const bool off = std::find(plan.off.begin(), plan.off.end(), id) != plan.off.end();
    dot += "  " + representationNode(id) + " [label=" + quoted(registry.info(id).name) + ", shape=ellipse" +
           (off ? ", style=dashed, xlabel=\"off\"" : "") + "];\n";
  }
  for (const std::string& input : inputs)
    dot += "  " + inputNode(input) + " [label=" + quoted(input) + ", shape=note];\n";

  for (const FixedProvider& fixed : fixedProviders)
    dot += "  " + moduleNode(fixed.provider) + " -> " + representationNode(fixed.representation) + ";\n";
  for (const ModulePlan& modulePlan : plan.modules)
  {
    const ModuleInfo& module = *modulePlan.module;
    for (std::size_t index : modulePlan.provides)
      dot += "  " + moduleNode(module.name) + " -> " + representationNode(module.provides[index]) + ";\n";
    for (RepresentationId id : module.requires_)
      dot += "  " + representationNode(id) + " -> " + moduleNode(module.name) + ";\n";
    for (RepresentationId id : module.uses)
      dot += "  " + representationNode(id) + " -> " + moduleNode(module.name) +
             " [style=dashed, label=\"last frame\"];\n";
    for (const std::string& input : module.loads)
      dot += "  " + inputNode(input) + " -> " + moduleNode(module.name) + " [style=dotted];\n";
  }
  // The frame ends with the body sending the final request.
  if (fixedNames.contains("Body") && representations.contains(representationId<JointRequest>()))
    dot += "  " + representationNode(representationId<JointRequest>()) + " -> " + moduleNode("Body") + ";\n";
  return dot + "}\n";
}
} // namespace nao
