// How much faster than real time a headless simulated stand runs (physics, motors, LoLA round trips, the
// robot's modules), in lock-step. The goal: 10 simulated minutes in at most 12 s, i.e. 50x real time.
#include "Util/Simulator/Run/SimulationRun.h"
#include <benchmark/benchmark.h>

namespace
{
void BM_HeadlessStand(benchmark::State& state)
{
  nao::SimulationOptions options;
  options.configDirectory = NAO_CONFIG_DIR;
  options.scenario = "stand";
  options.minutes = static_cast<double>(state.range(0)) / 60.0;
  options.writeLog = true; // as Make/run does: the robot logs every frame
  options.outputDirectory = std::filesystem::temp_directory_path() / "nao-simulation-benchmark";
  double simulated = 0, wall = 0;
  for (auto _ : state)
  {
    const nao::SimulationResult result = nao::runSimulation(options);
    simulated += result.simulatedSeconds;
    wall += result.wallSeconds;
  }
  state.counters["realTimeFactor"] = simulated / wall;
  state.counters["simulatedSeconds"] = simulated / static_cast<double>(state.iterations());
}
BENCHMARK(BM_HeadlessStand)->Arg(600)->Unit(benchmark::kSecond)->Iterations(1);
} // namespace

BENCHMARK_MAIN();
