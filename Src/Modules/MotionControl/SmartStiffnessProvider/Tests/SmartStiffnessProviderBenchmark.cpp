// Cost of the smart stiffness stage per frame, beyond the static torques it reads (those are
// StaticTorqueProvider's): its update of one frame, static posture (the stage computes every joint).
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/SmartStiffnessProvider/SmartStiffnessProvider.h"
#include <benchmark/benchmark.h>

using namespace nao;

namespace
{
void prepare(ModuleHarness<SmartStiffnessProvider>& harness)
{
  JointTorques& torques = harness.input<JointTorques>();
  torques.valid = true;
  torques.sensorsTrusted = true;
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    torques.torques[j] = 0.05f * static_cast<float>(j);
    harness.input<CollisionFreeJointRequest>().angles[j] = 0.01f * static_cast<float>(j);
    harness.input<CollisionFreeJointRequest>().stiffnesses[j] = 1.f;
    harness.input<JointSensorData>().angles[j] = 0.01f * static_cast<float>(j);
    harness.input<JointRequest>().angles[j] = 0.01f * static_cast<float>(j);
  }
}

void BM_SmartStiffnessFrame(benchmark::State& state, bool enabled)
{
  ModuleHarness<SmartStiffnessProvider> harness;
  harness.parameters().enabled = enabled;
  prepare(harness);
  FrameInfo& frame = harness.input<FrameInfo>();
  auto runFrame = [&]
  {
    frame.time += 0.012;
    ++frame.frameNumber;
    harness.run();
  };
  for (int i = 0; i < 1000; ++i) // 12 s, past the settle time: the stage limits
    runFrame();
  for (auto _ : state)
  {
    runFrame();
    benchmark::DoNotOptimize(harness.output<StiffnessJointRequest>().stiffnesses.values.data());
  }
  if (enabled && harness.output<SmartStiffness>().state != SmartStiffnessState::active)
    state.SkipWithError("the stage never became active");
}

/// The module's update alone, without the harness' blackboard snapshot of Uses<> (which the robot's
/// framework does once per frame for every module anyway).
void BM_SmartStiffnessUpdatesOnly(benchmark::State& state)
{
  ModuleHarness<SmartStiffnessProvider> harness;
  prepare(harness);
  FrameInfo& frame = harness.input<FrameInfo>();
  StiffnessJointRequest request;
  SmartStiffness status;
  auto runFrame = [&]
  {
    frame.time += 0.012;
    ++frame.frameNumber;
    harness.module().update(request, status);
  };
  for (int i = 0; i < 1000; ++i)
    runFrame();
  for (auto _ : state)
  {
    runFrame();
    benchmark::DoNotOptimize(request.stiffnesses.values.data());
    benchmark::DoNotOptimize(status.needed.values.data());
  }
  if (status.state != SmartStiffnessState::active) state.SkipWithError("the stage never became active");
}
} // namespace

BENCHMARK(BM_SmartStiffnessUpdatesOnly);
BENCHMARK_CAPTURE(BM_SmartStiffnessFrame, active, true);
BENCHMARK_CAPTURE(BM_SmartStiffnessFrame, disabled, false);
BENCHMARK_MAIN();
