#pragma once
// How a module declares itself. In its header, in one place:
//
//   class ScenarioPlayer : public Module<ScenarioPlayer,
//                                        Requires<FrameInfo, JointSensorData>,     // this frame, read-only
//                                        Provides<MotionJointRequest>,             // filled in update()
//                                        Loads<RobotDescription, ScenarioScript>> // loaded once, shared
//   {
//   public:
//     explicit ScenarioPlayer(const ModuleContext& context); // `using Module::Module;` if no set-up
//     void update(MotionJointRequest& request);             // once per frame, with every output
//   };
//
// and in its .cpp: MAKE_MODULE(ScenarioPlayer);
// A module with several outputs gets them all in one call, in the order of Provides<> (`void update(A& a, B& b)`):
// it computes its frame once, and an output another module provides in this scenario (or one set `off`) is
// written to a scratch object of the framework's that nothing reads.
// Also: Uses<T...> (last frame's values, no ordering edge) and Parameters<P> (Config/Modules/<Module>.toml).
// The framework passes a ModuleContext to the constructor; Module<> takes from it what is declared and
// nothing else. get<T>() reads a required or used representation, params() the parameters, loaded<T>() a
// loaded input. A provided representation is only writable inside its update(); everything else is const, so
// writing what the module does not provide fails to compile. Declaration mistakes are caught by constraints
// and static_asserts at the user's line.
#include "Framework/Blackboard.h"
#include "Framework/ModuleBase.h"
#include "Framework/ModuleContext.h"
#include "Framework/TypeList.h"
#include "Tools/Streams/Field.h"
#include "Tools/Streams/FieldListArchive.h"
#include "Tools/Streams/TomlFiles.h"
#include <tuple>

namespace nao
{
template<Representation... Ts>
struct Requires
{
  using List = TypeList<Ts...>;
};
template<Representation... Ts>
struct Uses
{
  using List = TypeList<Ts...>;
};
template<Representation... Ts>
struct Provides
{
  using List = TypeList<Ts...>;
};

/// Inputs loaded once per robot process from the robot's or the scenario's files and shared read-only by the
/// modules that declare them (e.g. RobotDescription, ScenarioScript); never per frame, never edited live.
template<Loadable... Ts>
struct Loads
{
  using List = TypeList<Ts...>;
};

/// A module's parameters: a struct with serialize(), loaded from Config/Modules/<Module>.toml.
template<class P>
requires std::default_initializable<P> && requires(P& p, SerializeProbeArchive& a)
{
  p.serialize(a, 0u);
}
struct Parameters
{
  using Type = P;
};

namespace detail
{
/// What one declaration adds to each list; every other list stays empty.
struct NoDeclaration
{
  static constexpr bool valid = true;
  using Requires = TypeList<>;
  using Uses = TypeList<>;
  using Provides = TypeList<>;
  using Loads = TypeList<>;
};
template<class D>
struct DeclarationTraits
{
  static constexpr bool valid = false;
};
template<class... Ts>
struct DeclarationTraits<Requires<Ts...>> : NoDeclaration
{
  using Requires = TypeList<Ts...>;
};
template<class... Ts>
struct DeclarationTraits<Uses<Ts...>> : NoDeclaration
{
  using Uses = TypeList<Ts...>;
};
template<class... Ts>
struct DeclarationTraits<Provides<Ts...>> : NoDeclaration
{
  using Provides = TypeList<Ts...>;
};
template<class... Ts>
struct DeclarationTraits<Loads<Ts...>> : NoDeclaration
{
  using Loads = TypeList<Ts...>;
};
template<class P>
struct DeclarationTraits<Parameters<P>> : NoDeclaration
{
};

template<class D>
concept ModuleDeclaration = DeclarationTraits<D>::valid;

template<class... Ds>
struct ParametersOf
{
  using type = void;
};
template<class D, class... Ds>
struct ParametersOf<D, Ds...>
{
  using type = typename ParametersOf<Ds...>::type;
};
template<class P, class... Ds>
struct ParametersOf<Parameters<P>, Ds...>
{
  using type = P;
};

template<class List>
struct ConstPointers;
template<class... Ts>
struct ConstPointers<TypeList<Ts...>>
{
  using type = std::tuple<const Ts*...>;
};

template<class List>
struct RepresentationIds;
template<class... Ts>
struct RepresentationIds<TypeList<Ts...>>
{
  static std::vector<RepresentationId> get() { return {representationId<Ts>()...}; }
};

template<class List>
struct TypeNames;
template<class... Ts>
struct TypeNames<TypeList<Ts...>>
{
  static std::vector<std::string> get() { return {std::string(typeName<Ts>())...}; }
};
} // namespace detail

template<class Self, detail::ModuleDeclaration... Declarations>
class Module : public ModuleBase
{
public:
  using RequiredList = typename Concat<typename detail::DeclarationTraits<Declarations>::Requires...>::type;
  using UsedList = typename Concat<typename detail::DeclarationTraits<Declarations>::Uses...>::type;
  using ProvidedList = typename Concat<typename detail::DeclarationTraits<Declarations>::Provides...>::type;
  using LoadedList = typename Concat<typename detail::DeclarationTraits<Declarations>::Loads...>::type;
  using ParameterType = typename detail::ParametersOf<Declarations...>::type;

  static_assert(!HasDuplicates<RequiredList>::value, "a representation is listed twice in Requires<>");
  static_assert(!HasDuplicates<UsedList>::value, "a representation is listed twice in Uses<>");
  static_assert(!HasDuplicates<ProvidedList>::value, "a representation is listed twice in Provides<>");
  static_assert(!HasDuplicates<LoadedList>::value, "an input is listed twice in Loads<>");
  static_assert(!Intersects<RequiredList, UsedList>::value,
                "a representation is both in Requires<> (this frame) and Uses<> (last frame): choose one");
  static_assert(
      !Intersects<ProvidedList, RequiredList>::value,
      "a module cannot require what it provides: the representation is both in Provides<> and Requires<>");
  static_assert(!Intersects<ProvidedList, UsedList>::value,
                "a module cannot use what it provides: it already has its own value in update()");
  static_assert(ProvidedList::size > 0, "a module must provide at least one representation");

  /// Public, so that a module without set-up of its own can inherit it: `using Module::Module;`.
  explicit Module(const ModuleContext& context)
      : ModuleBase(detail::ModuleContextAccess::info(context),
                   detail::ModuleContextAccess::parameters(context))
  {
    Blackboard& blackboard = detail::ModuleContextAccess::blackboard(context);
    bindPointers(required_, blackboard, RequiredList{}, false);
    bindPointers(used_, blackboard, UsedList{}, true);
    bindLoaded(detail::ModuleContextAccess::loaded(context), LoadedList{});
  }

protected:
  /// This frame's value of a required representation, or last frame's value of a used one.
  template<class T>
  const T& get() const
  {
    static_assert(
        contains<T, RequiredList> || contains<T, UsedList>,
        "get<T>(): T is not in this module's Requires<> or Uses<>; declare it at the top of the module");
    if constexpr (contains<T, RequiredList>)
      return *std::get<indexOf<T, RequiredList>>(required_);
    else
      return *std::get<indexOf<T, UsedList>>(used_);
  }

  /// The module's parameters, as loaded from its config files (code sees SI units).
  const auto& params() const
  {
    static_assert(!std::is_void_v<ParameterType>, "params(): this module declares no Parameters<>");
    return *static_cast<const ParameterType*>(parameters_);
  }

  /// An input declared in Loads<>, shared with the other modules that declare it.
  template<class T>
  const T& loaded() const
  {
    static_assert(contains<T, LoadedList>,
                  "loaded<T>(): T is not in this module's Loads<>; declare it at the top of the module");
    return *std::get<indexOf<T, LoadedList>>(loaded_);
  }

private:
  template<class Tuple, class... Ts>
  static void bindPointers(Tuple& pointers, Blackboard& blackboard, TypeList<Ts...>,
                           [[maybe_unused]] bool previous)
  {
    ((std::get<indexOf<Ts, TypeList<Ts...>>>(pointers) =
          static_cast<const Ts*>(previous ? blackboard.previous(representationId<Ts>())
                                          : blackboard.current(representationId<Ts>()))),
     ...);
  }

  template<class... Ts>
  void bindLoaded([[maybe_unused]] LoadedInputs& inputs, TypeList<Ts...>)
  {
    ((std::get<indexOf<Ts, LoadedList>>(loaded_) = &inputs.template get<Ts>()), ...);
  }

  typename detail::ConstPointers<RequiredList>::type required_{};
  typename detail::ConstPointers<UsedList>::type used_{};
  typename detail::ConstPointers<LoadedList>::type loaded_{};
};

namespace detail
{
template<class P>
const ParameterInfo* parameterInfo()
{
  if constexpr (std::is_void_v<P>)
    return nullptr;
  else
  {
    static const ParameterInfo info = []
    {
      ParameterInfo i;
      i.typeName = std::string(typeName<P>());
      i.create = []() -> void* { return new P(); };
      i.destroy = [](void* p) { delete static_cast<P*>(p); };
      i.load = [](const toml::table& table, void* p) { streams::loadFromTable(table, *static_cast<P*>(p)); };
      i.save = [](const void* p, toml::table& table)
      { table = streams::saveToTable(*static_cast<const P*>(p)); };
      i.describe = [] { return describeForTools<P>(); };
      i.fields = i.describe();
      return i;
    }();
    return &info;
  }
}

template<class M, class... Ts, std::size_t... I>
void callUpdate(ModuleBase& module, void* const* outputs, std::index_sequence<I...>)
{
  static_cast<M&>(module).update(*static_cast<Ts*>(outputs[I])...);
}

template<class M, class... Ts>
UpdateFunction updateFunction(TypeList<Ts...>)
{
  return [](ModuleBase& module, void* const* outputs)
  { callUpdate<M, Ts...>(module, outputs, std::index_sequence_for<Ts...>{}); };
}

template<class M, class... Ts>
constexpr bool hasUpdate(TypeList<Ts...>)
{
  return requires(M & module, Ts & ... outputs)
  {
    module.update(outputs...);
  };
}
} // namespace detail

class ModuleRegistry
{
public:
  static ModuleRegistry& instance();
  void add(const ModuleInfo* info);
  const std::vector<const ModuleInfo*>& modules() const { return modules_; }
  const ModuleInfo* find(std::string_view name) const;

private:
  std::vector<const ModuleInfo*> modules_;
};

template<class M>
struct ModuleRegistration
{
  static_assert(std::is_base_of_v<ModuleBase, M>, "MAKE_MODULE: the type does not derive from Module<...>");
  static_assert(detail::hasUpdate<M>(typename M::ProvidedList{}),
                "MAKE_MODULE: the module lacks a public `void update(Ts&...)` taking every representation of "
                "its Provides<>, in that order");
  static_assert(std::is_constructible_v<M, const ModuleContext&>,
                "MAKE_MODULE: the module needs a public constructor from `const ModuleContext&` (declare "
                "`using Module::Module;` if it has no set-up of its own)");

  explicit ModuleRegistration(const char* file)
  {
    static ModuleInfo info;
    info.name = std::string(typeName<M>());
    info.requires_ = detail::RepresentationIds<typename M::RequiredList>::get();
    info.uses = detail::RepresentationIds<typename M::UsedList>::get();
    info.provides = detail::RepresentationIds<typename M::ProvidedList>::get();
    info.loads = detail::TypeNames<typename M::LoadedList>::get();
    info.update = detail::updateFunction<M>(typename M::ProvidedList{});
    info.parameters = detail::parameterInfo<typename M::ParameterType>();
    info.file = file;
    info.create = [](const ModuleContext& context) -> ModuleBase* { return new M(context); };
    ModuleRegistry::instance().add(&info);
  }
};
} // namespace nao

/// Registers a module with the framework. Put it in the module's .cpp file, at namespace scope.
#define MAKE_MODULE(ModuleType)                                                                              \
  static const ::nao::ModuleRegistration<ModuleType> naoModuleRegistration##ModuleType                       \
  {                                                                                                          \
    __FILE__                                                                                                 \
  }
