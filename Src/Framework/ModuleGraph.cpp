#include "Framework/ModuleGraph.h"
#include <algorithm>
#include <memory>
#include <set>

namespace nao
{
namespace
{
/// What `off` runs for a stage representation: a copy of its input, as if a module provided it.
class PassThroughModule : public ModuleBase
{
public:
  explicit PassThroughModule(const ModuleContext& context)
      : ModuleBase(detail::ModuleContextAccess::info(context), nullptr),
        input(detail::ModuleContextAccess::blackboard(context).current(info().requires_.front())),
        copy(RepresentationRegistry::instance().info(info().provides.front()).passThroughCopy)
  {
  }
  static void update(ModuleBase& module, void* const* outputs)
  {
    auto& self = static_cast<PassThroughModule&>(module);
    self.copy(outputs[0], self.input);
  }

private:
  const void* input;
  void (*copy)(void*, const void*);
};

const ModuleInfo& passThroughModule(RepresentationId id)
{
  // Created on the controller's thread only (start-up and live switches), kept for the process' lifetime.
  static std::map<RepresentationId, std::unique_ptr<ModuleInfo>> modules;
  auto& module = modules[id];
  if (!module)
  {
    const auto& registry = RepresentationRegistry::instance();
    const auto input = static_cast<RepresentationId>(registry.info(id).passThroughFrom);
    module = std::make_unique<ModuleInfo>();
    module->name = "PassThrough(" + registry.info(id).name + ")"; // its input: PassThroughFrom<T>
    module->requires_ = {input};
    module->provides = {id};
    module->update = &PassThroughModule::update;
    module->file = __FILE__;
    module->create = [](const ModuleContext& context) -> ModuleBase*
    { return new PassThroughModule(context); };
  }
  return *module;
}

const std::string& nameOf(RepresentationId id)
{
  return RepresentationRegistry::instance().info(id).name;
}

std::string providersOf(RepresentationId id)
{
  std::string names;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
    if (std::find(module->provides.begin(), module->provides.end(), id) != module->provides.end())
      names += (names.empty() ? "" : ", ") + module->name;
  return names.empty() ? "no module of this binary provides it" : "modules that provide it: " + names;
}

std::string joinNames(const std::vector<std::string>& names)
{
  std::string text;
  for (const auto& name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text;
}
} // namespace

std::string ExecutionPlan::describe() const
{
  std::string text;
  for (const ModulePlan& plan : modules)
  {
    text += plan.module->name + " ->";
    for (std::size_t index : plan.provides)
      text += " " + nameOf(plan.module->provides[index]);
    text += "\n";
  }
  for (RepresentationId id : off)
    text += nameOf(id) + " = off\n";
  return text;
}

namespace
{
/// What the choices select, before ordering.
struct Selection
{
  ExecutionPlan plan; ///< providerOf and off filled
  std::map<RepresentationId, const ModuleInfo*> providerModule;
  std::map<const ModuleInfo*, std::vector<std::size_t>> selected; ///< indices into provides
  std::vector<const ModuleInfo*> moduleOrder;                     ///< first mention in the scenario
  std::set<RepresentationId> afterModules; ///< filled by the framework after all modules ran
};

/// Every choice names a representation of this binary, once, and a module that provides it (or `off`).
Selection checkChoices(const std::vector<ProviderChoice>& choices,
                       const std::vector<FixedProvider>& fixedProviders)
{
  const auto& representations = RepresentationRegistry::instance();
  const auto& registry = ModuleRegistry::instance();
  Selection selection;
  ExecutionPlan& plan = selection.plan;
  for (const FixedProvider& fixed : fixedProviders)
  {
    plan.providerOf[fixed.representation] = fixed.provider;
    if (!fixed.beforeModules) selection.afterModules.insert(fixed.representation);
  }

  for (const ProviderChoice& choice : choices)
  {
    const std::string at = choice.where.text() + ": ";
    const int found = representations.find(choice.representation);
    if (found < 0)
    {
      std::vector<std::string> known;
      for (RepresentationId id = 0; id < representations.size(); ++id)
        known.push_back(nameOf(id));
      throw StartupError(at + "'" + choice.representation +
                         "' is not a representation of this binary (known: " + joinNames(known) + ")");
    }
    const auto id = static_cast<RepresentationId>(found);
    if (auto existing = plan.providerOf.find(id); existing != plan.providerOf.end())
      throw StartupError(at + "two providers for '" + choice.representation + "': " + existing->second +
                         " and " + choice.provider);
    const int passThroughFrom = representations.info(id).passThroughFrom;
    if (choice.isOff() && passThroughFrom < 0)
    {
      plan.providerOf[id] = "off";
      plan.off.push_back(id);
      continue;
    }
    const ModuleInfo* module = choice.isOff() ? &passThroughModule(id) : registry.find(choice.provider);
    if (!module)
      throw StartupError(at + "provider '" + choice.provider + "' of '" + choice.representation +
                         "' is not a module of this binary (" + providersOf(id) + "; or \"off\")");
    const auto position = std::find(module->provides.begin(), module->provides.end(), id);
    if (position == module->provides.end())
      throw StartupError(at + "module '" + module->name + "' does not provide '" + choice.representation +
                         "' (" + providersOf(id) + ")");
    plan.providerOf[id] = choice.isOff() ? "off (pass-through from " +
                                               nameOf(static_cast<RepresentationId>(passThroughFrom)) + ")"
                                         : module->name;
    selection.providerModule[id] = module;
    if (!selection.selected.contains(module)) selection.moduleOrder.push_back(module);
    selection.selected[module].push_back(static_cast<std::size_t>(position - module->provides.begin()));
  }
  return selection;
}

/// Every input of every selected module has a provider that runs before it (Requires) or at all (Uses).
/// Returns the representations some module uses: they are copied at the frame's end.
std::vector<RepresentationId> checkInputs(Selection& selection, const std::string& scenarioName)
{
  ExecutionPlan& plan = selection.plan;
  std::set<RepresentationId> snapshots;
  for (const ModuleInfo* module : selection.moduleOrder)
  {
    auto check = [&](RepresentationId id, const char* how)
    {
      if (!plan.providerOf.contains(id))
        throw StartupError("scenario '" + scenarioName + "': module '" + module->name + "' " + how + " '" +
                           nameOf(id) + "', but the scenario names no provider for it; add " + nameOf(id) +
                           " = \"<module>\" or \"off\" under [Motion] (" + providersOf(id) + ")");
    };
    for (RepresentationId id : module->requires_)
    {
      check(id, "requires");
      if (selection.afterModules.contains(id))
        throw StartupError("scenario '" + scenarioName + "': module '" + module->name + "' requires '" +
                           nameOf(id) + "', which " + plan.providerOf[id] +
                           " fills after all modules ran; declare it in Uses<> (last frame's value) instead");
    }
    for (RepresentationId id : module->uses)
    {
      check(id, "uses");
      snapshots.insert(id);
    }
  }
  return {snapshots.begin(), snapshots.end()};
}

using Dependencies = std::map<const ModuleInfo*, std::set<const ModuleInfo*>>;

/// Throws the error for modules that cannot be ordered: walks from a blocked module along unfinished
/// dependencies until a module repeats, and names every module and representation on that cycle.
[[noreturn]] void reportCycle(const Selection& selection, Dependencies& dependsOn,
                              const std::set<const ModuleInfo*>& done, const std::string& scenarioName)
{
  std::vector<const ModuleInfo*> path;
  const ModuleInfo* current = *std::find_if(selection.moduleOrder.begin(), selection.moduleOrder.end(),
                                            [&](const ModuleInfo* module) { return !done.contains(module); });
  while (std::find(path.begin(), path.end(), current) == path.end())
  {
    path.push_back(current);
    for (const ModuleInfo* dependency : dependsOn[current])
      if (!done.contains(dependency))
      {
        current = dependency;
        break;
      }
  }
  std::string text;
  for (auto it = std::find(path.begin(), path.end(), current); it != path.end(); ++it)
  {
    const ModuleInfo* module = *it;
    const ModuleInfo* following = (it + 1 != path.end()) ? *(it + 1) : current;
    for (RepresentationId id : module->requires_)
      if (auto provider = selection.providerModule.find(id);
          provider != selection.providerModule.end() && provider->second == following)
      {
        text += module->name + " requires " + nameOf(id) + " (provided by " + following->name + "); ";
        break;
      }
  }
  throw StartupError("scenario '" + scenarioName + "': cycle in the motion thread: " + text +
                     "break it by declaring one of these in Uses<> (last frame's value)");
}

/// Topological order (Kahn), ties broken by the scenario's order so that the result is stable.
std::vector<ModulePlan> orderModules(const Selection& selection, const std::string& scenarioName)
{
  Dependencies dependsOn;
  for (const ModuleInfo* module : selection.moduleOrder)
    for (RepresentationId id : module->requires_)
      if (auto provider = selection.providerModule.find(id); provider != selection.providerModule.end())
        dependsOn[module].insert(provider->second);
  std::vector<ModulePlan> order;
  std::set<const ModuleInfo*> done;
  while (done.size() < selection.moduleOrder.size())
  {
    const auto next = std::find_if(selection.moduleOrder.begin(), selection.moduleOrder.end(),
                                   [&](const ModuleInfo* module)
                                   {
                                     return !done.contains(module) &&
                                            std::all_of(dependsOn[module].begin(), dependsOn[module].end(),
                                                        [&](const ModuleInfo* dependency)
                                                        { return done.contains(dependency); });
                                   });
    if (next == selection.moduleOrder.end()) reportCycle(selection, dependsOn, done, scenarioName);
    // The selected outputs in the order of the module's Provides<> declaration, whatever order the scenario
    // names them in.
    std::vector<std::size_t> provides = selection.selected.at(*next);
    std::sort(provides.begin(), provides.end());
    order.push_back({*next, provides});
    done.insert(*next);
  }
  return order;
}
} // namespace

ExecutionPlan resolveModuleGraph(const std::vector<ProviderChoice>& choices,
                                 const std::vector<FixedProvider>& fixedProviders,
                                 const std::string& scenarioName)
{
  Selection selection = checkChoices(choices, fixedProviders);
  selection.plan.snapshots = checkInputs(selection, scenarioName);
  selection.plan.modules = orderModules(selection, scenarioName);
  return std::move(selection.plan);
}
} // namespace nao
