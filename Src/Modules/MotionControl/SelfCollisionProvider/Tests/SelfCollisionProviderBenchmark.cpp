// The whole stage per frame (its update: both outputs): free (the stand held: forward kinematics at the reference, every
// pair's distance, pass-through), moving free (the same at the request too) and constrained (NAOqi's LArm example held against the torso, every group protected:
// pair rows with their Jacobians and the QP). Issue 13's goal: <= 5 us typical.
#include "Modules/MotionControl/SelfCollisionProvider/Tests/SelfCollisionRig.h"

#include <benchmark/benchmark.h>
#include <cmath>

using namespace nao;
using namespace nao::selfcollisiontest;

namespace
{
SelfCollisionParameters everyGroup()
{
  return protecting({&SelfCollisionProtection::Arms, &SelfCollisionProtection::Head,
                     &SelfCollisionProtection::LLeg, &SelfCollisionProtection::RLeg});
}

void StageFree(benchmark::State& state)
{
  Harness h(everyGroup());
  const JointArray<float> stand = standPosture();
  step(h, stand, stand);
  for (auto _ : state)
  {
    h.run();
    benchmark::DoNotOptimize(h.output<CollisionFreeJointRequest>().angles[0]);
  }
  state.counters["pairs"] = h.output<SelfCollision>().pairCount;
}
BENCHMARK(StageFree);

void StageMovingFree(benchmark::State& state)
{
  // A moving request far from the body (the arms swing by ±10° at the shoulders, as while walking): the
  // distances at the reference and at the request, no constraint.
  Harness h(everyGroup());
  const JointArray<float> stand = standPosture();
  step(h, stand, stand);
  int frame = 0;
  for (auto _ : state)
  {
    JointArray<float> request = stand;
    const float swing = 10.f * degree * std::sin(0.1f * static_cast<float>(frame++));
    request[Joint::LShoulderPitch] += swing;
    request[Joint::RShoulderPitch] -= swing;
    h.input<FallSafeJointRequest>().angles = request;
    h.input<JointSensorData>().angles = h.output<CollisionFreeJointRequest>().angles;
    h.run();
    benchmark::DoNotOptimize(h.output<CollisionFreeJointRequest>().angles[0]);
  }
  state.counters["constrainedPairs"] = h.output<SelfCollision>().constrainedPairs;
}
BENCHMARK(StageMovingFree);

void StageConstrained(benchmark::State& state)
{
  Harness h(everyGroup());
  play(h, naoqiArm(false), naoqiArm(true), 100, 5);
  // The request keeps pushing into the torso while the command stays at the stop: every frame constrained.
  int constrained = 0, frames = 0;
  for (auto _ : state)
  {
    h.input<JointSensorData>().angles = h.output<CollisionFreeJointRequest>().angles;
    h.run();
    benchmark::DoNotOptimize(h.output<CollisionFreeJointRequest>().angles[0]);
    constrained += h.output<SelfCollision>().constrainedPairs;
    ++frames;
  }
  state.counters["constrainedPairs"] = static_cast<double>(constrained) / std::max(1, frames);
  state.counters["iterations"] = h.output<SelfCollision>().iterations;
}
BENCHMARK(StageConstrained);
} // namespace

BENCHMARK_MAIN();
