#pragma once
// A module under test, without a robot: a blackboard of its own, its parameters and its Loads<> inputs from
// Config/, and nothing else. A test sets the inputs, runs the updates and reads the outputs, as one tests a Drake
// system with fixed inputs:
//
//   nao::ModuleHarness<FilteredCurrentProvider> harness;  // parameters as on the robot (ParameterFiles.h)
//   harness.input<JointSensorData>().currents[index(Joint::LKneePitch)] = 0.8f; // A
//   harness.run();                                         // every update of Provides<>, in order
//   EXPECT_GT(harness.output<FilteredCurrent>().highestLegCurrent, 0.f);
//
// input<T>() is this frame's value for T in Requires<> and what the module sees as last frame's value for T in
// Uses<>. parameters() edits the module's parameters; setParameter() edits one of them as the debug channel does,
// by its key in the file's units; either edit reaches the module at the next run() as a live edit does on the robot
// (onParametersChanged). It lives in namespace nao, not nao::testing, which would clash
// with GoogleTest's ::testing under `using namespace nao`. Link NaoModuleHarness.
#include "Framework/Module.h"
#include "Framework/ParameterFiles.h"
#include "Tools/Streams/TomlFiles.h"
#include <array>
#include <memory>
#include <optional>

namespace nao
{
/// Config/ of this checkout, robot `robot`, no scenario (or `scenario` in Config/Scenarios/).
ConfigFiles testConfigFiles(const std::string& robot = "Default", const std::string& scenario = "");

/// The text of a module's parameters (struct P) as the robot loads them: P's defaults, Config/Modules/<module>.toml
/// and the robot's overlay on top (ParameterFiles.h). Throws streams::ConfigError naming the file.
template<class P>
toml::table moduleParameterTable(const ConfigLocation& location, const std::string& module)
{
  return layeredParameterTable(streams::saveToTable(P{}), location, module);
}

/// A module's parameters loaded from moduleParameterTable(). Throws streams::ConfigError naming the file.
template<class P>
P loadModuleParameters(const ConfigLocation& location, const std::string& module)
{
  P parameters;
  streams::loadFromTable(moduleParameterTable<P>(location, module), parameters);
  return parameters;
}

template<class M>
class ModuleHarness
{
public:
  using ParameterType = typename M::ParameterType;
  static constexpr bool hasParameters = !std::is_void_v<ParameterType>;
  using ParameterStorage = std::conditional_t<hasParameters, ParameterType, char>;

  /// Parameters (if the module has any) from the config files, as on the robot.
  explicit ModuleHarness(ConfigFiles files = testConfigFiles()) : loaded_(files)
  {
    if constexpr (hasParameters)
    {
      parameterTable_ = moduleParameterTable<ParameterType>(files.location, std::string(typeName<M>()));
      parameters_ = std::make_unique<ParameterStorage>();
      streams::loadFromTable(*parameterTable_, *parameters_);
    }
    construct();
  }

  /// Given parameters: the test states the numbers it computes with.
  template<class P = ParameterType>
  requires(!std::is_void_v<P>) explicit ModuleHarness(const P& parameters,
                                                      ConfigFiles files = testConfigFiles())
      : loaded_(files), parameters_(std::make_unique<ParameterStorage>(parameters))
  {
    construct();
  }

  ModuleHarness(const ModuleHarness&) = delete;
  ModuleHarness& operator=(const ModuleHarness&) = delete;

  template<class T>
  T& input()
  {
    static_assert(contains<T, typename M::RequiredList> || contains<T, typename M::UsedList>,
                  "input<T>(): T is not in the module's Requires<> or Uses<>");
    return blackboard_.get<T>();
  }

  template<class T>
  const T& output() const
  {
    static_assert(contains<T, typename M::ProvidedList>, "output<T>(): T is not in the module's Provides<>");
    return blackboard_.get<T>();
  }

  /// The module's parameters; an edit reaches the module at the next run().
  template<class P = ParameterType>
  requires(!std::is_void_v<P>) P& parameters()
  {
    parametersEdited_ = true;
    parameterTable_.reset(); // the object may now differ from the text it was loaded from
    return *parameters_;
  }

  /// A live edit as the debug channel makes it (Controller::setParameter): the value at `keyPath` ("maxOffset",
  /// "guard.enabled", "centerOfMassMin[0]") becomes `valueToml` (TOML value syntax, in the file's units: degrees,
  /// mA, ms), and the parameters are loaded again from the edited text with every check of a file load. The text is
  /// the file's (and the earlier edits'); after parameters() or with given parameters, the parameters' own. The
  /// edit reaches the module at the next run(). Throws streams::ConfigError and changes nothing if it is refused.
  template<class P = ParameterType>
  requires(!std::is_void_v<P>) void setParameter(std::string_view keyPath, std::string_view valueToml)
  {
    if (!parameterTable_) parameterTable_ = streams::saveToTable(*parameters_);
    streams::applyEdit(*parameterTable_, keyPath, valueToml, *parameters_);
    parametersEdited_ = true;
  }

  /// One frame: the module's update() with every output of Provides<>.
  void run()
  {
    if (parametersEdited_)
    {
      module_->exchangeParameters(parameters_.get());
      parametersEdited_ = false;
    }
    for (RepresentationId id : info_.uses)
      blackboard_.snapshot(id);
    std::array<void*, M::ProvidedList::size> outputs{};
    for (std::size_t i = 0; i < info_.provides.size(); ++i)
      outputs[i] = blackboard_.current(info_.provides[i]);
    info_.update(*module_, outputs.data());
  }
  void run(int frames)
  {
    for (int frame = 0; frame < frames; ++frame)
      run();
  }

  M& module() { return *module_; }

private:
  void construct()
  {
    info_.name = std::string(typeName<M>());
    info_.requires_ = detail::RepresentationIds<typename M::RequiredList>::get();
    info_.uses = detail::RepresentationIds<typename M::UsedList>::get();
    info_.provides = detail::RepresentationIds<typename M::ProvidedList>::get();
    info_.update = detail::updateFunction<M>(typename M::ProvidedList{});
    module_ = std::make_unique<M>(ModuleContext(blackboard_, info_, parameters_.get(), loaded_));
  }

  Blackboard blackboard_;
  LoadedInputs loaded_;
  ModuleInfo info_;
  std::unique_ptr<ParameterStorage> parameters_;
  std::optional<toml::table>
      parameterTable_; ///< the text the parameters were loaded from, when they still are
  bool parametersEdited_ = false;
  std::unique_ptr<M> module_;
};
} // namespace nao
