// The module per frame (its update: the request and the heat adjustment's request), in the motion loop's terms: the
// stand with no target (the five levels: joint bounds, feet and the close shape pairs, the balance box, the start
// posture); a hand on its way to a target and the head turning (two more tasks, the collision rows of an arm near
// the body); on the left foot alone with the right foot out (the support switched). The measured angles follow the
// request, as a perfect servo.
#include "Framework/ScenarioScript.h"
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionProvider.h"

#include <benchmark/benchmark.h>
#include <functional>

using namespace nao;

namespace
{
void run(benchmark::State& state, const std::function<void(TaskSpaceMotionParameters&)>& aim, int settle)
{
  ModuleHarness<TaskSpaceMotionProvider> harness;
  // B-Human's stand, as Config/Scenarios/stand.toml holds it.
  harness.input<JointSensorData>().angles =
      ScenarioScript::load(testConfigFiles("Default", "stand").scenarioFile).pose("stand").angles;
  aim(harness.parameters());
  for (int frame = 0; frame < settle; ++frame)
  {
    harness.run();
    harness.input<JointSensorData>().angles = harness.output<MotionJointRequest>().angles;
  }
  for (auto _ : state)
  {
    harness.run();
    harness.input<JointSensorData>().angles = harness.output<MotionJointRequest>().angles;
    benchmark::DoNotOptimize(harness.output<MotionJointRequest>().angles[0]);
  }
  state.counters["failed"] = harness.module().failedFrames();
}

void Stand(benchmark::State& state)
{
  run(
      state, [](TaskSpaceMotionParameters&) {}, 2);
}
BENCHMARK(Stand);

void HandAndHead(benchmark::State& state)
{
  // The left hand across the chest (an arm near the body: its pairs get rows), the head to a point on the left.
  run(
      state,
      [](TaskSpaceMotionParameters& p)
      {
        p.leftHand = {true, 0.15, -0.02, 0.33};
        p.lookAt = {true, 0.5, 0.6, 0.0};
      },
      100);
}
BENCHMARK(HandAndHead);

void OnOneFoot(benchmark::State& state)
{
  // 3 s: the weight over the left foot, the right foot lifted out.
  run(
      state,
      [](TaskSpaceMotionParameters& p) {
        p.rightFoot = {true, 0.0, -0.13, 0.02};
      },
      250);
}
BENCHMARK(OnOneFoot);
} // namespace

BENCHMARK_MAIN();
