// Cost of LimbStiffnessProvider per frame: one forward pass of the robot description and, for each of the
// four limbs, the chain geometry, p along the vertical and the translational ellipsoid. Postures vary from frame
// to frame (a walk-like sweep), so nothing is cached.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Modeling/LimbStiffnessProvider/LimbStiffnessProvider.h"
#include <benchmark/benchmark.h>
#include <cmath>

using namespace nao;

namespace
{
void setPosture(ModuleHarness<LimbStiffnessProvider>& harness, int frame)
{
  const float phase = 0.05f * static_cast<float>(frame);
  JointArray<float>& angles = harness.input<JointSensorData>().angles;
  angles[Joint::LShoulderPitch] = 1.5f + 0.2f * std::sin(phase);
  angles[Joint::RShoulderPitch] = 1.5f - 0.2f * std::sin(phase);
  angles[Joint::LKneePitch] = 0.8f + 0.1f * std::sin(phase);
  angles[Joint::RKneePitch] = 0.8f - 0.1f * std::sin(phase);
  angles[Joint::LHipPitch] = -0.35f - 0.05f * std::sin(phase);
  angles[Joint::RHipPitch] = -0.35f + 0.05f * std::sin(phase);
  angles[Joint::LAnklePitch] = -0.45f;
  angles[Joint::RAnklePitch] = -0.45f;
  harness.input<InertialSensorData>().angles = {0.01f * std::sin(phase), 0.05f};
}

void BM_LimbStiffnessFrame(benchmark::State& state, kinematics::KinematicsBackend backend, bool avx2)
{
  ModuleHarness<LimbStiffnessProvider> harness;
  harness.parameters().backend = backend;
  harness.parameters().allowAvx2 = avx2;
  int frame = 0;
  for (auto _ : state)
  {
    setPosture(harness, frame++);
    harness.run();
    benchmark::DoNotOptimize(harness.output<LimbStiffness>().limbs.values.data());
  }
  if (!harness.output<LimbStiffness>().valid) state.SkipWithError("no valid output");
}
} // namespace

BENCHMARK_CAPTURE(BM_LimbStiffnessFrame, automatic, kinematics::KinematicsBackend::automatic, true);
BENCHMARK_CAPTURE(BM_LimbStiffnessFrame, jitSse41, kinematics::KinematicsBackend::automatic, false);
BENCHMARK_CAPTURE(BM_LimbStiffnessFrame, eigen, kinematics::KinematicsBackend::eigen, false);
BENCHMARK_MAIN();
