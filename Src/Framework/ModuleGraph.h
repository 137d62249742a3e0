#pragma once
// Resolves a thread's provider choices into an execution plan: which modules run, in which order, which
// representation each one fills. Every inconsistency stops start-up (or refuses a live switch) with a message
// naming the modules and representations involved.
#include "Framework/Module.h"
#include "Framework/Scenario.h"
#include <map>

namespace nao
{
struct ModulePlan
{
  const ModuleInfo* module = nullptr;
  std::vector<std::size_t> provides; ///< indices into module->provides that this scenario selects
};

struct ExecutionPlan
{
  std::vector<ModulePlan> modules;         ///< in execution order
  std::vector<RepresentationId> off;       ///< representations set `off`
  std::vector<RepresentationId> snapshots; ///< representations some module USES (copied at frame end)
  /// Module name, "off", or a fixed provider ("Body", ...).
  std::map<RepresentationId, std::string> providerOf;
  std::string describe() const; ///< the order as text, for logs and the debug channel
};

/// Representations filled by the framework itself rather than a module, with their provider's name.
struct FixedProvider
{
  RepresentationId representation;
  std::string provider; ///< "Body" or "Framework"
  bool beforeModules;   ///< false: filled after all modules ran, so modules may only USE it
};

ExecutionPlan resolveModuleGraph(const std::vector<ProviderChoice>& choices,
                                 const std::vector<FixedProvider>& fixedProviders,
                                 const std::string& scenarioName);

/// The plan as a Graphviz digraph (`nao --print-graph dot`): modules are boxes (in execution order), the
/// representations between them ellipses, and the inputs modules load (Loads<>) notes. Edges run from a
/// provider to its representation and from a representation to the modules that require it (solid) or use
/// last frame's value (dashed). A representation set `off` and the pass-through steps are drawn dashed.
/// Node ids are "module:<name>", "representation:<name>" and "input:<name>"; labels are the bare names.
std::string toDot(const ExecutionPlan& plan, const std::vector<FixedProvider>& fixedProviders,
                  const std::string& scenarioName);
} // namespace nao
