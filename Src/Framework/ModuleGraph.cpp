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
  PassThroughModule(const ModuleInfo& info, Blackboard& blackboard)
      : ModuleBase(info, nullptr), input(blackboard.current(info.requires_.front())),
        copy(RepresentationRegistry::instance().info(info.provides.front()).passThroughCopy)
  {
  }
  static void update(ModuleBase& module, void* target)
  {
    auto& self = static_cast<PassThroughModule&>(module);
    self.copy(target, self.input);
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
    module->updates = {&PassThroughModule::update};
    module->file = __FILE__;
    module->create = [](const ModuleInfo& info, Blackboard& blackboard, void*) -> ModuleBase*
    { return new PassThroughModule(info, blackboard); };
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

ExecutionPlan resolveModuleGraph(const std::vector<ProviderChoice>& choices,
                                 const std::vector<FixedProvider>& fixedProviders,
                                 const std::string& scenarioName)
{
  const auto& representations = RepresentationRegistry::instance();
  const auto& registry = ModuleRegistry::instance();
  ExecutionPlan plan;
  std::map<RepresentationId, const ModuleInfo*> providerModule;
  std::map<const ModuleInfo*, std::vector<std::size_t>> selected;
  std::vector<const ModuleInfo*> moduleOrder; // first mention in the scenario
  std::set<RepresentationId> afterModules;

  for (const FixedProvider& fixed : fixedProviders)
  {
    plan.providerOf[fixed.representation] = fixed.provider;
    if (!fixed.beforeModules) afterModules.insert(fixed.representation);
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
    providerModule[id] = module;
    if (!selected.contains(module)) moduleOrder.push_back(module);
    selected[module].push_back(static_cast<std::size_t>(position - module->provides.begin()));
  }

  // Every input of every selected module needs a provider.
  std::set<RepresentationId> snapshots;
  for (const ModuleInfo* module : moduleOrder)
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
      if (afterModules.contains(id))
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

  // Topological order (Kahn), ties broken by the scenario's order so that the result is stable.
  std::map<const ModuleInfo*, std::set<const ModuleInfo*>> dependsOn;
  for (const ModuleInfo* module : moduleOrder)
    for (RepresentationId id : module->requires_)
      if (auto provider = providerModule.find(id); provider != providerModule.end())
        dependsOn[module].insert(provider->second);
  std::set<const ModuleInfo*> done;
  while (done.size() < moduleOrder.size())
  {
    const ModuleInfo* next = nullptr;
    for (const ModuleInfo* module : moduleOrder)
      if (!done.contains(module) &&
          std::all_of(dependsOn[module].begin(), dependsOn[module].end(),
                      [&](const ModuleInfo* dependency) { return done.contains(dependency); }))
      {
        next = module;
        break;
      }
    if (!next)
    {
      // Walk from any blocked module along unfinished dependencies until a module repeats: that is the cycle.
      std::vector<const ModuleInfo*> path;
      const ModuleInfo* current = nullptr;
      for (const ModuleInfo* module : moduleOrder)
        if (!done.contains(module))
        {
          current = module;
          break;
        }
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
          if (providerModule.contains(id) && providerModule[id] == following)
          {
            text += module->name + " requires " + nameOf(id) + " (provided by " + following->name + "); ";
            break;
          }
      }
      throw StartupError("scenario '" + scenarioName + "': cycle in the motion thread: " + text +
                         "break it by declaring one of these in Uses<> (last frame's value)");
    }
    // A module's updates run in the order of its Provides<> declaration, whatever order the scenario names
    // them in.
    std::vector<std::size_t> provides = selected[next];
    std::sort(provides.begin(), provides.end());
    plan.modules.push_back({next, provides});
    done.insert(next);
  }
  plan.snapshots.assign(snapshots.begin(), snapshots.end());
  return plan;
}
} // namespace nao
