#include "Framework/Controller.h"
#include "Tools/Streams/ClosestName.h"
#include <algorithm>
#include <chrono>
#include <thread>

namespace nao
{
Controller::Controller(ConfigLocation config, Blackboard& blackboard, MotionLoop& motion)
    : config_(std::move(config)), blackboard_(blackboard), motion_(motion)
{
}

Controller::~Controller() = default;

std::vector<FixedProvider> Controller::fixedProviders()
{
  return {{representationId<FrameInfo>(), "Body", true},
          {representationId<JointSensorData>(), "Body", true},
          {representationId<FsrSensorData>(), "Body", true},
          {representationId<InertialSensorData>(), "Body", true},
          {representationId<BatteryData>(), "Body", true},
          {representationId<TouchData>(), "Body", true},
          {representationId<UnreadableReadings>(), "Body", true},
          {representationId<ModuleTimes>(), "Framework", false}};
}

std::shared_ptr<ModuleBase> Controller::createModule(const ModuleInfo& module)
{
  void* parameters = nullptr;
  if (module.parameters)
  {
    const toml::table& table = shadowParameters(module);
    parameters = module.parameters->create();
    try
    {
      module.parameters->load(table, parameters);
    }
    catch (const std::exception& error)
    {
      module.parameters->destroy(parameters);
      throw StartupError(std::string("parameters of module '") + module.name + "': " + error.what());
    }
  }
  ModuleBase* instance = nullptr;
  try
  {
    instance = module.create(ModuleContext(blackboard_, module, parameters, *loaded_));
  }
  catch (const std::exception& error)
  {
    if (parameters) module.parameters->destroy(parameters);
    throw StartupError("module '" + module.name + "': " + error.what());
  }
  // The module owns nothing of its parameters: they are swapped live, so the deleter frees whatever is
  // current.
  const ParameterInfo* parameterInfo = module.parameters;
  return std::shared_ptr<ModuleBase>(instance,
                                     [parameterInfo](ModuleBase* instance)
                                     {
                                       void* current = const_cast<void*>(instance->parametersObject());
                                       delete instance;
                                       if (parameterInfo && current) parameterInfo->destroy(current);
                                     });
}

void Controller::post(const MotionCommand& command)
{
  // Every command is answered once (retired). Keeping at most queueCapacity unanswered means the motion thread
  // can always hand back what it lets go of: without this bound, commands faster than service() calls (a flood
  // of subscriptions) overflowed the retired queue, and every dropped answer leaked a tap for good. Waiting here
  // is fine: this is not the motion thread, which answers within a frame.
  while (!motionStopped_.load(std::memory_order_acquire))
  {
    service();
    if (unanswered_ < MotionLoop::queueCapacity && motion_.post(command))
    {
      ++unanswered_;
      return;
    }
    waitForMotion(std::chrono::milliseconds(1));
  }
  // No motion thread takes commands any more: what it left in the queue, then this command, are applied here.
  motion_.applyCommandsWhileStopped();
  service();
  motion_.post(command);
  ++unanswered_;
  motion_.applyCommandsWhileStopped();
  service();
}

void Controller::install(const ExecutionPlan& plan,
                         std::map<std::string, std::shared_ptr<ModuleBase>> instances)
{
  auto schedule = std::make_unique<Schedule>();
  for (const ModulePlan& modulePlan : plan.modules)
  {
    const auto& instance = instances.at(modulePlan.module->name);
    const auto slot = static_cast<std::uint16_t>(schedule->timeSlotNames.size());
    schedule->modules.push_back(instance);
    schedule->timeSlotNames.push_back(modulePlan.module->name);
    ScheduleStep step{instance.get(), modulePlan.module->update, {}, slot};
    const auto& provides = modulePlan.module->provides;
    for (std::size_t index = 0; index < provides.size(); ++index)
      if (std::find(modulePlan.provides.begin(), modulePlan.provides.end(), index) !=
          modulePlan.provides.end())
        step.outputs.push_back(blackboard_.current(provides[index]));
      else
      {
        schedule->scratch.push_back(RepresentationRegistry::instance().create(provides[index]));
        step.outputs.push_back(schedule->scratch.back().get());
      }
    schedule->steps.push_back(std::move(step));
  }
  schedule->timeSlotNames.push_back("(framework, body send)");
  if (schedule->timeSlotNames.size() > ModuleTimes::capacity)
    throw StartupError("more than " + std::to_string(ModuleTimes::capacity - 1) +
                       " modules in the motion thread");
  schedule->resetOnInstall = plan.off;
  schedule->snapshots = plan.snapshots;
  Schedule* raw = schedule.get();
  schedules_.push_back(std::move(schedule));
  post(InstallSchedule{raw});
  plan_ = plan;
  ++planVersion_;
  instances_ = std::move(instances);
}

namespace
{
/// Why switching `representation` live as in `plan` would make the robot drop, or "". A representation set
/// `off` returns to its default value; if the final JointRequest is computed from it, the motors get the
/// default request (stiffness 0) in the next frame and a standing robot collapses. A stage set off passes its
/// input through and is not affected.
std::string dropsTheRequest(const ExecutionPlan& plan, const std::string& representation)
{
  const int id = RepresentationRegistry::instance().find(representation);
  if (id < 0 ||
      std::find(plan.off.begin(), plan.off.end(), static_cast<RepresentationId>(id)) == plan.off.end())
    return {};
  std::map<RepresentationId, const ModuleInfo*> providers;
  for (const ModulePlan& modulePlan : plan.modules)
    for (std::size_t index : modulePlan.provides)
      providers[modulePlan.module->provides[index]] = modulePlan.module;
  std::vector<RepresentationId> open{representationId<JointRequest>()}, seen;
  while (!open.empty())
  {
    const RepresentationId next = open.back();
    open.pop_back();
    if (std::find(seen.begin(), seen.end(), next) != seen.end()) continue;
    seen.push_back(next);
    if (next == static_cast<RepresentationId>(id))
      return "refused: with " + representation +
             " off, the robot would be sent the default joint request (stiffness 0) in the next frame and a "
             "standing robot would collapse; choose another provider, or set a stage off (it passes its "
             "input "
             "through)";
    if (auto provider = providers.find(next); provider != providers.end())
      open.insert(open.end(), provider->second->requires_.begin(), provider->second->requires_.end());
  }
  return {};
}
} // namespace

void Controller::start(const Scenario& scenario)
{
  loaded_ = std::make_unique<LoadedInputs>(ConfigFiles{config_, scenario.file});
  start(scenario.motion, scenario.name, true);
}

void Controller::checkRobotFiles()
{
  checkRobotExists(config_);
  const auto overlays = config_.directory / "Robots" / config_.robot / "Modules";
  std::vector<std::string> modules;
  for (const ModuleInfo* module : ModuleRegistry::instance().modules())
    if (module->parameters) modules.push_back(module->name);
  for (const std::string& name : namesInFolder(overlays, ".toml"))
  {
    const ModuleInfo* module = ModuleRegistry::instance().find(name);
    const std::string file = (overlays / (name + ".toml")).string();
    if (!module || !module->parameters)
      throw StartupError(file + ": the robot overlay names no module with parameters" +
                         streams::didYouMean(name, modules) +
                         "; modules with parameters: " + joined(modules));
    const toml::table& table = shadowParameters(*module); // keys the module lacks fail here
    void* parameters = module->parameters->create();
    try
    {
      module->parameters->load(table, parameters);
    }
    catch (const std::exception& error)
    {
      module->parameters->destroy(parameters);
      throw StartupError(std::string("parameters of module '") + name + "': " + error.what());
    }
    module->parameters->destroy(parameters);
  }
}

void Controller::start(const std::vector<ProviderChoice>& choices, const std::string& scenarioName)
{
  start(choices, scenarioName, false);
}

void Controller::start(const std::vector<ProviderChoice>& choices, const std::string& scenarioName,
                       bool refuseDroppingTheRequest)
{
  checkRobotFiles();
  if (!loaded_) loaded_ = std::make_unique<LoadedInputs>(ConfigFiles{config_, {}});
  scenarioName_ = scenarioName;
  ExecutionPlan plan = resolveModuleGraph(choices, fixedProviders(), scenarioName);
  // What a live switch refuses is refused at start-up too: a robot must not start by dropping its request.
  for (const ProviderChoice& choice : choices)
    if (refuseDroppingTheRequest && choice.provider == "off")
      if (const std::string refusal = dropsTheRequest(plan, choice.representation); !refusal.empty())
        throw StartupError(choice.representation + "=off " + refusal);
  std::map<std::string, std::shared_ptr<ModuleBase>> instances;
  for (const ModulePlan& modulePlan : plan.modules)
    instances[modulePlan.module->name] = createModule(*modulePlan.module);
  choices_ = choices;
  install(plan, std::move(instances));
}

std::string Controller::setProvider(const std::string& representation, const std::string& provider)
{
  std::vector<ProviderChoice> choices = choices_;
  auto existing =
      std::find_if(choices.begin(), choices.end(),
                   [&](const ProviderChoice& choice) { return choice.representation == representation; });
  const SourcePosition where{"debug channel", 0, 0}; // no file: errors say where, not an invented line
  if (existing != choices.end())
    *existing = {representation, provider, where};
  else
    choices.push_back({representation, provider, where});
  try
  {
    ExecutionPlan plan = resolveModuleGraph(choices, fixedProviders(), scenarioName_);
    if (const std::string refusal = dropsTheRequest(plan, representation); !refusal.empty()) return refusal;
    std::map<std::string, std::shared_ptr<ModuleBase>> instances;
    for (const ModulePlan& modulePlan : plan.modules)
    {
      auto running = instances_.find(modulePlan.module->name);
      instances[modulePlan.module->name] =
          running != instances_.end() ? running->second : createModule(*modulePlan.module);
    }
    choices_ = std::move(choices);
    install(plan, std::move(instances));
    return {};
  }
  catch (const std::exception& error)
  {
    return error.what();
  }
}

std::shared_ptr<Tap> Controller::addTap(std::vector<RepresentationId> ids, std::uint32_t everyNthFrame,
                                        std::size_t capacity)
{
  // The motion thread takes commands in order, so a tap on its way out has left its slot before this one arrives:
  // only taps not being removed count against maxTaps. Those being removed still hold their rings until the motion
  // thread answers (within a frame); at most as many again may wait for that, so a flood cannot pile them up.
  const auto leaving = [&] {
    return std::count_if(liveTaps_.begin(), liveTaps_.end(), [](const auto& live) { return live.removing; });
  };
  if (liveTaps_.size() - static_cast<std::size_t>(leaving()) >= MotionLoop::maxTaps) return nullptr;
  for (int waited = 0; static_cast<std::size_t>(leaving()) >= MotionLoop::maxTaps && waited < 1000; ++waited)
  {
    service();
    if (static_cast<std::size_t>(leaving()) < MotionLoop::maxTaps || motionStopped_) break;
    waitForMotion(std::chrono::milliseconds(1));
  }
  if (static_cast<std::size_t>(leaving()) >= MotionLoop::maxTaps) return nullptr;
  auto tap = std::make_shared<Tap>(std::move(ids), everyNthFrame, capacity);
  liveTaps_.push_back({tap, false});
  post(AddTap{tap.get()});
  return tap;
}

void Controller::removeTap(const std::shared_ptr<Tap>& tap)
{
  auto live =
      std::find_if(liveTaps_.begin(), liveTaps_.end(), [&](const auto& entry) { return entry.tap == tap; });
  if (live == liveTaps_.end() || live->removing) return;
  live->removing = true;
  post(RemoveTap{tap.get()});
}

void Controller::waitForMotion(std::chrono::milliseconds pause)
{
  if (motionWait_)
    motionWait_();
  else
    std::this_thread::sleep_for(pause);
}

bool Controller::tapAttached(const Tap* tap) const
{
  return std::any_of(liveTaps_.begin(), liveTaps_.end(),
                     [&](const auto& live) { return live.tap.get() == tap; });
}

void Controller::service()
{
  while (auto retired = motion_.takeRetired())
  {
    if (unanswered_ > 0) --unanswered_;
    if (const auto* schedule = std::get_if<InstallSchedule>(&*retired))
    {
      if (schedule->schedule)
        std::erase_if(schedules_, [&](const auto& owned) { return owned.get() == schedule->schedule; });
    }
    else if (const auto* swap = std::get_if<SwapParameters>(&*retired))
    {
      if (swap->parameters) swap->module->info().parameters->destroy(swap->parameters);
    }
    else if (const auto* removed = std::get_if<RemoveTap>(&*retired))
      std::erase_if(liveTaps_, [&](const auto& live) { return live.tap.get() == removed->tap; });
  }
}
} // namespace nao
