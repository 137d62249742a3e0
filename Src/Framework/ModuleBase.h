#pragma once
// The untyped part of a module: what the framework holds and calls. Typed declarations are in Module.h.
#include "Framework/Representation.h"
#include <string>
#include <vector>

namespace toml
{
inline namespace v3
{
class table;
}
} // namespace toml

namespace nao
{
class ModuleBase;
class ModuleContext;

/// Calls the module's update(Ts&...) once with every representation it provides, in the order of its Provides<>:
/// outputs[i] is where the i-th one is written.
using UpdateFunction = void (*)(ModuleBase& module, void* const* outputs);

/// Type-erased operations on a module's parameter struct. All run outside the motion thread.
struct ParameterInfo
{
  std::string typeName;
  void* (*create)() = nullptr;
  void (*destroy)(void*) = nullptr;
  /// Loads from a table (all validation: unknown/missing keys, types, ranges, units); throws
  /// streams::ConfigError.
  void (*load)(const toml::table& table, void* parameters) = nullptr;
  void (*save)(const void* parameters, toml::table& table) = nullptr;
  std::vector<FieldDescription> (*describe)() = nullptr;
  /// describe() of a default struct, kept: the debug channel's list, get and set read it for every request.
  std::vector<FieldDescription> fields;
};

struct ModuleInfo
{
  std::string name;
  std::vector<RepresentationId> requires_; ///< this frame's values: ordering edges
  std::vector<RepresentationId> uses;      ///< last frame's values: no edge
  std::vector<RepresentationId> provides;
  std::vector<std::string> loads;            ///< type names of its Loads<> inputs
  UpdateFunction update = nullptr;           ///< one call per frame with every provided representation
  const ParameterInfo* parameters = nullptr; ///< nullptr when the module has none
  /// Creates an instance (outside the motion thread); it takes over the context's parameters.
  ModuleBase* (*create)(const ModuleContext& context) = nullptr;
  const char* file = ""; ///< where MAKE_MODULE stands
};

class ModuleBase
{
public:
  virtual ~ModuleBase() = default;
  ModuleBase(const ModuleBase&) = delete;
  ModuleBase& operator=(const ModuleBase&) = delete;

  const ModuleInfo& info() const { return *info_; }

  /// Motion thread, at a frame boundary: installs new parameters and returns the old ones (the caller frees
  /// them outside the motion thread).
  void* exchangeParameters(void* parameters)
  {
    void* old = parameters_;
    parameters_ = parameters;
    onParametersChanged();
    return old;
  }
  const void* parametersObject() const { return parameters_; }

protected:
  ModuleBase(const ModuleInfo& info, void* parameters) : info_(&info), parameters_(parameters) {}
  /// Called in the motion thread after a live parameter edit. Must not allocate or block.
  virtual void onParametersChanged() {}

  const ModuleInfo* info_;
  void* parameters_;
};
} // namespace nao
