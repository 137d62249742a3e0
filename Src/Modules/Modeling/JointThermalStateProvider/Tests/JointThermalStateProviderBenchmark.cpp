// Cost of JointThermalStateProvider per frame for the 25 joints: every joint's I² into its window, the status
// checks, one joint's filter step, and in one frame of forecastEvery its forecast and its forecast in the named
// posture (the module's update alone, as the framework calls it; the mean over many frames).
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/JointThermalStateProvider/JointThermalStateProvider.h"
#include <benchmark/benchmark.h>
#include <cmath>

using namespace nao;

namespace
{
void BM_JointThermalStateFrame(benchmark::State& state)
{
  ModuleHarness<JointThermalStateProvider> harness;
  JointSensorData& sensors = harness.input<JointSensorData>();
  FrameInfo& frame = harness.input<FrameInfo>();
  JointThermalState output;
  harness.input<ForecastPosture>().name =
      PostureName::sit; // as in the default graph: the posture forecast too
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    sensors.currents[j] = 0.5f + 0.1f * static_cast<float>(j % 7); // A
    sensors.temperatures[j] = 30.f + static_cast<float>(j % 3);    // °C
  }
  auto runFrame = [&]
  {
    frame.time += 0.012;
    ++frame.frameNumber;
    harness.module().update(output);
  };
  for (int i = 0; i < 5000; ++i) // 60 s: every filter started
    runFrame();
  for (auto _ : state)
  {
    runFrame();
    benchmark::DoNotOptimize(output.temperatures.values.data());
  }
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (!output.valid[j] || !std::isfinite(output.temperatures[j]))
      state.SkipWithError("a joint has no estimate");
}
} // namespace

BENCHMARK(BM_JointThermalStateFrame);
BENCHMARK_MAIN();
