// How fast the simulated NAO runs, everything included (motor boards, heat, battery, sensors every LoLA
// frame):
//   StandTenMinutes        the headless stand scenario: 10 simulated minutes, LoLA-style loop (command, one
//                          frame, sensors); the robot rests and sleeps (physics.toml sleepVelocity)
//   StandAwake             the same with sleeping disabled: every 1 ms step computed by MuJoCo
//   MovingHead             a command that changes every frame (head sweeping), so the robot never sleeps
// Counters: realtime = simulated s per wall s; steps/s = 1 kHz physics steps per wall s (computed or slept);
// computed/s = steps MuJoCo actually computed per wall s.
#include "TestRobot.h"

#include <benchmark/benchmark.h>
#include <cmath>

namespace nao::sim
{
namespace
{
void reportRates(benchmark::State& state, double simulatedSeconds, double computedSteps, double timestep)
{
  state.counters["realtime"] = benchmark::Counter(simulatedSeconds, benchmark::Counter::kIsRate);
  state.counters["steps/s"] = benchmark::Counter(simulatedSeconds / timestep, benchmark::Counter::kIsRate);
  state.counters["computed/s"] = benchmark::Counter(computedSteps, benchmark::Counter::kIsRate);
}

void standFor(benchmark::State& state, const SimConfig& config, double seconds)
{
  SimulatedRobot robot(config);
  const JointValues stand = test::standPosture();
  const JointValues stiffness = test::uniform(1.f);
  double simulated = 0.0;
  double computed = 0.0;
  for (auto _ : state)
  {
    state.PauseTiming();
    robot.resetToPosture(stand);
    const auto computedBefore = robot.computedSteps();
    state.ResumeTiming();
    const int frames = static_cast<int>(std::lround(seconds / robot.frameTime()));
    for (int frame = 0; frame < frames; ++frame)
    {
      robot.setCommand(stand, stiffness);
      robot.advance(robot.frameTime());
      benchmark::DoNotOptimize(robot.sensors().currents[index(Joint::LKneePitch)]);
    }
    simulated += frames * robot.frameTime();
    computed += static_cast<double>(robot.computedSteps() - computedBefore);
  }
  reportRates(state, simulated, computed, config.physics.timestep);
}

void StandTenMinutes(benchmark::State& state)
{
  standFor(state, test::projectConfig(), 600.0);
}
BENCHMARK(StandTenMinutes)->Unit(benchmark::kMillisecond)->UseRealTime();

void StandAwake(benchmark::State& state)
{
  SimConfig config = test::projectConfig();
  config.physics.sleepVelocity = 0.0;
  standFor(state, config, 60.0);
}
BENCHMARK(StandAwake)->Unit(benchmark::kMillisecond)->UseRealTime();

void MovingHead(benchmark::State& state)
{
  SimulatedRobot robot(test::projectConfig());
  const JointValues stiffness = test::uniform(1.f);
  JointValues command = test::standPosture();
  robot.resetToPosture(command);
  double simulated = 0.0;
  const auto computedBefore = robot.computedSteps();
  for (auto _ : state)
  {
    for (int frame = 0; frame < 500; ++frame) // 6 s, a 1 Hz sweep of ±30°
    {
      command[index(Joint::HeadYaw)] = static_cast<float>(0.5 * std::sin(2.0 * 3.14159265 * robot.time()));
      robot.setCommand(command, stiffness);
      robot.advance(robot.frameTime());
      benchmark::DoNotOptimize(robot.sensors().positions[0]);
    }
    simulated += 500 * robot.frameTime();
  }
  reportRates(state, simulated, static_cast<double>(robot.computedSteps() - computedBefore),
              robot.config().physics.timestep);
}
BENCHMARK(MovingHead)->Unit(benchmark::kMillisecond)->UseRealTime();
} // namespace
} // namespace nao::sim

BENCHMARK_MAIN();
