#pragma once
// The StiffnessTool's subcommands over nao::stiffness. Each returns the exit code; errors throw (InputError,
// StiffnessError or kinematics::ModelError) with a message naming the file, option, link, joint or value.
#include <ostream>
#include <string>

namespace nao::stiffness::tool
{
struct ChainOptions
{
  std::string urdf; ///< file
  std::string base; ///< link
  std::string tip;  ///< link
};

struct QueryOptions
{
  std::string direction; ///< "dx,dy,dz,rx,ry,rz"
  std::string kc;        ///< "" (identity), 6 or 36 numbers
};

struct MetricOptions
{
  ChainOptions chain;
  QueryOptions query;
  std::string configurations; ///< q.csv
  bool json = false;
};

struct SimulateOptions
{
  ChainOptions chain;
  QueryOptions query;
  double alpha = 0.0;           ///< Eq 43: < 0 stiffer, > 0 more compliant
  std::string start;            ///< --q0, chain order
  double jointDamping = 4.0;    ///< k_d, N*m*s/rad
  double duration = 20.0;       ///< s
  double step = 1e-3;           ///< s
  std::string hold = "x,y,z";   ///< held endpoint rows
  double holdStiffness = 400.0; ///< 1/s^2
  double holdDamping = 40.0;    ///< 1/s
  /// writes <out>.csv and <out>.png (folders made as needed); by default into Build/, which git ignores
  std::string out = "Build/StiffnessTool/simulation";
  std::string view = "xy"; ///< plane of the drawing: xy, xz or yz
  bool json = false;
};

/// Per configuration: p, gradient, ellipsoid.
int runMetric(const MetricOptions& options, std::ostream& out);
/// The configurations from stiffest to most compliant.
int runRank(const MetricOptions& options, std::ostream& out);
/// Null-space optimisation with the endpoint held: trajectory CSV, PNG, summary.
int runSimulate(const SimulateOptions& options, std::ostream& out);
} // namespace nao::stiffness::tool
