#pragma once
// The paper's planar demonstration (Fig 12) for any chain: integrate the chain under the null-space torque of
// Eq 43, resolved by Eq 42, while the held endpoint rows stay at their start. Not for the motion thread: it
// allocates the trajectory.
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Metric.h"
#include "Util/StiffnessTool/Redundancy.h"

#include <Eigen/Core>
#include <vector>

namespace nao::stiffness
{
struct SimulationSettings
{
  RedundancyParameters redundancy;
  EndpointHold hold;
  double duration = 10.0;  ///< s
  double step = 1e-3;      ///< s, of the fourth-order Runge-Kutta integrator
  int samplePeriod = 10;   ///< steps between stored samples (the first and the last step are always stored)
  Eigen::MatrixXd inertia; ///< M (n x n, kg*m^2, symmetric positive definite); empty: identity
};

struct SimulationSample
{
  double time = 0.0;          ///< s
  Eigen::VectorXd q;          ///< rad (m)
  double metric = 0.0;        ///< p (Eq 13)
  double endpointDrift = 0.0; ///< m: |tip point - its start|
  double rotationDrift = 0.0; ///< rad: angle between the tip rotation and its start
};

struct SimulationResult
{
  std::vector<SimulationSample> samples;
  double maxEndpointDrift = 0.0; ///< m, over every integration step
  double maxRotationDrift = 0.0; ///< rad, over every integration step
};

/// Starts at rest at q0. Throws StiffnessError for invalid settings (naming the value), a q0 of the wrong
/// size, an inertia that is not n x n symmetric positive definite, or a singular case: held rows singular at
/// q0 or on the way (the message gives the time and the conditioning).
SimulationResult simulateNullSpaceMotion(const Chain& chain, const StiffnessQuery& query,
                                         const Eigen::VectorXd& q0, const SimulationSettings& settings);
} // namespace nao::stiffness
