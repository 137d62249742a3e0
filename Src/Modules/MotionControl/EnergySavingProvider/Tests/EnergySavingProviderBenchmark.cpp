// Cost per frame of EnergySavingProvider (its update: JointRequest and EnergySaving) and of
// FilteredCurrentProvider, called directly as the motion loop calls them, with the parameters of Config/.
// "working": a hot stand in which a round runs every 250 ms (21 frames) and every joint searches its offset,
// so the figure averages the rounds (and the caps, resets and fades they lead to) in.
#include "Framework/Blackboard.h"
#include "Framework/ModuleContext.h"
#include "Framework/ParameterFiles.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Representations/MotionControl/EnergySavingRequest.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/FilteredCurrent.h"
#include "Tools/Streams/TomlFiles.h"
#include <array>
#include <benchmark/benchmark.h>
#include <memory>

using namespace nao;

namespace
{
/// One module created through the registry from a ModuleContext, as the Controller creates it.
struct DirectModule
{
  const ModuleInfo* info;
  LoadedInputs loaded{ConfigFiles{{NAO_CONFIG_DIR, "Default"}, {}}};
  std::unique_ptr<ModuleBase> module;

  DirectModule(const char* name, Blackboard& blackboard) : info(ModuleRegistry::instance().find(name))
  {
    void* parameters = info->parameters->create();
    info->parameters->load(layeredParameterTable(*info, loaded.files().location), parameters);
    module.reset(info->create(ModuleContext(blackboard, *info, parameters, loaded)));
  }
  /// Calls update() with every provided representation in the blackboard.
  void update(Blackboard& blackboard)
  {
    std::array<void*, 4> outputs{};
    for (std::size_t i = 0; i < info->provides.size(); ++i)
      outputs[i] = blackboard.current(info->provides[i]);
    info->update(*module, outputs.data());
  }
};

/// A stand whose joints sag 2° and draw 1.2 A, so that every round adjusts something.
void fillHotStand(Blackboard& blackboard, bool requested)
{
  auto& request = blackboard.get<StiffnessJointRequest>();
  auto& sensors = blackboard.get<JointSensorData>();
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    request.angles[j] = 0.1f * static_cast<float>(j);
    request.stiffnesses[j] = 1.f;
    sensors.angles[j] = request.angles[j] + 0.035f;
    sensors.currents[j] = 1.2f;
  }
  blackboard.get<FsrSensorData>().left.totalWeight = blackboard.get<FsrSensorData>().right.totalWeight = 2.6f;
  blackboard.get<RobotModel>().centerOfMass = {0.003f, 0.f, -0.05f};
  JointLimits& limits = blackboard.get<JointLimits>();
  limits.min.fill(-3.f);
  limits.max.fill(3.f);
  EnergySavingRequest& energy = blackboard.get<EnergySavingRequest>();
  energy.adjust = requested;
  energy.adjustLeftLeg = energy.adjustRightLeg = energy.adjustLeftArm = energy.adjustRightArm = true;
  energy.posture = EnergySavingPosture::stand;
}

void nextFrame(Blackboard& blackboard)
{
  FrameInfo& frame = blackboard.get<FrameInfo>();
  ++frame.frameNumber;
  frame.time = frame.frameNumber * 0.012;
}

void energySaving(benchmark::State& state, bool requested)
{
  Blackboard blackboard;
  DirectModule filter("FilteredCurrentProvider", blackboard);
  DirectModule module("EnergySavingProvider", blackboard);
  fillHotStand(blackboard, requested);
  for (int frame = 0; frame < 200; ++frame) // through waiting into working
  {
    nextFrame(blackboard);
    filter.update(blackboard);
    module.update(blackboard);
  }
  if (requested && blackboard.get<EnergySaving>().state != EnergySavingState::working)
    state.SkipWithError("not working");
  for (auto _ : state)
  {
    nextFrame(blackboard);
    module.update(blackboard);
    benchmark::DoNotOptimize(blackboard.get<JointRequest>().angles[10]);
  }
}

void BM_EnergySavingProviderWorking(benchmark::State& state)
{
  energySaving(state, true);
}
void BM_EnergySavingProviderNotRequested(benchmark::State& state)
{
  energySaving(state, false);
}

void BM_FilteredCurrentProvider(benchmark::State& state)
{
  Blackboard blackboard;
  DirectModule filter("FilteredCurrentProvider", blackboard);
  fillHotStand(blackboard, true);
  float wobble = 0;
  for (auto _ : state)
  {
    nextFrame(blackboard);
    blackboard.get<JointSensorData>().currents[10] = (wobble += 0.001f);
    filter.update(blackboard);
    benchmark::DoNotOptimize(blackboard.get<FilteredCurrent>().currents[10]);
  }
}
} // namespace

BENCHMARK(BM_EnergySavingProviderWorking);
BENCHMARK(BM_EnergySavingProviderNotRequested);
BENCHMARK(BM_FilteredCurrentProvider);
BENCHMARK_MAIN();
