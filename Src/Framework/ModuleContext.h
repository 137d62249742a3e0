#pragma once
// What a module is constructed from. The framework builds one ModuleContext per module instance and passes it
// to the module's constructor; Module<> takes from it exactly what the module declares, and nothing else is
// reachable from it:
//   Requires<T...>, Uses<T...>   pointers into the blackboard (this frame's values, last frame's values)
//   Parameters<P>                the module's parameters (Config/Modules/<Module>.toml, robot overlay on top)
//   Loads<T...>                  immutable inputs loaded once per robot process and shared (LoadedInputs)
// A test constructs a module the same way: a blackboard, a LoadedInputs and the module's ModuleInfo.
#include "Framework/ConfigFiles.h"
#include "Framework/TypeName.h"
#include <concepts>
#include <map>
#include <memory>
#include <string_view>

namespace nao
{
class Blackboard;
struct ModuleInfo;

/// A type a module may declare in Loads<>: loaded from the robot's or the scenario's files outside the motion
/// thread, then never changed.
template<class T>
concept Loadable = std::is_class_v<T> && requires(const ConfigFiles& files)
{
  {
    T::load(files)
    } -> std::same_as<T>;
};

/// The Loads<> inputs of one robot process: each is loaded when the first module that declares it is created,
/// then shared read-only by every module that declares it (one kinematic model per robot, not one per module:
/// Pinocchio's Model, with a Data per user). Kept until the process' controller ends; modules hold pointers.
class LoadedInputs
{
public:
  explicit LoadedInputs(ConfigFiles files) : files_(std::move(files)) {}
  LoadedInputs(const LoadedInputs&) = delete;
  LoadedInputs& operator=(const LoadedInputs&) = delete;

  const ConfigFiles& files() const { return files_; }

  /// The shared T, loaded now if no module needed it before. Throws StartupError naming T and the file.
  template<Loadable T>
  const T& get()
  {
    return *static_cast<const T*>(find(&tag<T>, typeName<T>(),
                                       [](const ConfigFiles& files) -> std::shared_ptr<const void>
                                       { return std::make_shared<const T>(T::load(files)); }));
  }

private:
  template<class T>
  static constexpr char tag = 0; ///< its address tells the types apart

  const void* find(const void* key, std::string_view name,
                   std::shared_ptr<const void> (*load)(const ConfigFiles&));

  ConfigFiles files_;
  std::map<const void*, std::shared_ptr<const void>> inputs_;
};

namespace detail
{
struct ModuleContextAccess;
}

class ModuleContext
{
public:
  /// `parameters`: the module's Parameters<> object (nullptr without); the module takes it over.
  ModuleContext(Blackboard& blackboard, const ModuleInfo& info, void* parameters, LoadedInputs& loaded)
      : blackboard_(blackboard), info_(info), parameters_(parameters), loaded_(loaded)
  {
  }

private:
  // Module<> reads these for what the module declared. A module itself never sees the blackboard: it could
  // otherwise read what it does not declare.
  friend struct detail::ModuleContextAccess;
  Blackboard& blackboard_;
  const ModuleInfo& info_;
  void* parameters_;
  LoadedInputs& loaded_;
};

namespace detail
{
/// The framework's side door into ModuleContext (Module<> and the pass-through step); modules never use it.
struct ModuleContextAccess
{
  static Blackboard& blackboard(const ModuleContext& context) { return context.blackboard_; }
  static const ModuleInfo& info(const ModuleContext& context) { return context.info_; }
  static void* parameters(const ModuleContext& context) { return context.parameters_; }
  static LoadedInputs& loaded(const ModuleContext& context) { return context.loaded_; }
};
} // namespace detail
} // namespace nao
