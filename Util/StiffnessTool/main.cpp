// StiffnessTool: configuration stiffness (Woolfrey et al., PLOS ONE 2024) of any URDF chain from the command
// line: the metric per configuration, a ranking of configurations, and the null-space optimisation.
#include "Util/StiffnessTool/Commands.h"

#include <CLI/CLI.hpp>
#include <iostream>

using namespace nao::stiffness::tool;

namespace
{
void addChainAndQuery(CLI::App& command, ChainOptions& chain, QueryOptions& query)
{
  command.add_option("--urdf", chain.urdf, "robot description (URDF file)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_option("--base", chain.base, "base link: every vector is expressed in its frame")->required();
  command.add_option("--tip", chain.tip, "tip link: its origin is the endpoint")->required();
  command
      .add_option("--direction", query.direction,
                  "deflection dx,dy,dz,rx,ry,rz (m, rad) in the base frame, used as given")
      ->required();
  command.add_option(
      "--kc", query.kc,
      "Cartesian stiffness K_c: 6 diagonal values or 36 (row-major, symmetric positive definite); "
      "default identity");
}

void addConfigurations(CLI::App& command, MetricOptions& options)
{
  addChainAndQuery(command, options.chain, options.query);
  command
      .add_option("--configs", options.configurations,
                  "CSV: a header naming the joints between base and tip, one configuration per row (rad, m)")
      ->required()
      ->check(CLI::ExistingFile);
  command.add_flag("--json", options.json, "machine-readable output");
}
} // namespace

int main(int argc, char** argv)
{
  CLI::App app{
      "Configuration stiffness of a URDF chain (Woolfrey et al., PLOS ONE 2024): p = 1/2 |J^T K_c dx|^2, "
      "small = stiff"};
  app.require_subcommand(1);
  MetricOptions metricOptions, rankOptions;
  SimulateOptions simulateOptions;
  auto* metric =
      app.add_subcommand("metric", "per configuration: p, its gradient and the stiffness ellipsoid");
  addConfigurations(*metric, metricOptions);
  auto* rank =
      app.add_subcommand("rank", "configurations from stiffest to most compliant along the direction");
  addConfigurations(*rank, rankOptions);
  auto* simulate = app.add_subcommand(
      "simulate", "null-space motion toward stiffness (alpha < 0) or compliance (alpha > 0) "
                  "with the endpoint held; writes <out>.csv and <out>.png");
  SimulateOptions& s = simulateOptions;
  addChainAndQuery(*simulate, s.chain, s.query);
  simulate->add_option("--alpha", s.alpha, "gain of the gradient (Eq 43): < 0 stiffer, > 0 more compliant")
      ->required();
  simulate->add_option("--q0", s.start, "start configuration, base to tip (rad, m), comma-separated")
      ->required();
  simulate->add_option("--damping", s.jointDamping, "joint damping k_d (N*m*s/rad)")->capture_default_str();
  simulate->add_option("--duration", s.duration, "simulated time (s)")->capture_default_str();
  simulate->add_option("--step", s.step, "integration step (s)")->capture_default_str();
  simulate->add_option("--hold", s.hold, "endpoint rows held fixed, out of x,y,z,rx,ry,rz")
      ->capture_default_str();
  simulate->add_option("--hold-stiffness", s.holdStiffness, "K_p of the held rows (1/s^2)")
      ->capture_default_str();
  simulate->add_option("--hold-damping", s.holdDamping, "K_d of the held rows (1/s)")->capture_default_str();
  simulate->add_option("--out", s.out, "output prefix: <out>.csv and <out>.png (folders made as needed)")
      ->capture_default_str();
  simulate->add_option("--view", s.view, "plane of the drawing: xy, xz or yz")->capture_default_str();
  simulate->add_flag("--json", s.json, "machine-readable summary");
  CLI11_PARSE(app, argc, argv);

  const char* name = *metric ? "metric" : *rank ? "rank" : "simulate";
  try
  {
    if (*metric) return runMetric(metricOptions, std::cout);
    if (*rank) return runRank(rankOptions, std::cout);
    return runSimulate(simulateOptions, std::cout);
  }
  catch (const std::exception& error)
  {
    std::cerr << "StiffnessTool " << name << ": " << error.what() << "\n";
    return 1;
  }
}
