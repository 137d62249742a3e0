// The Eigen path on the NAO model (25 coordinates, 26 revolute joints): EigenBenchmarks.h. Report medians, e.g.
//   KinematicsBenchmark --benchmark_repetitions=15 --benchmark_report_aggregates_only=true
#include "Tools/Kinematics/Benchmarks/EigenBenchmarks.h"

BENCHMARK_MAIN();
