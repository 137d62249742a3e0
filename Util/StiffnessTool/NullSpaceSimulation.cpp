#include "Util/StiffnessTool/NullSpaceSimulation.h"

#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"

#include <Eigen/Geometry>
#include <cmath>
#include <sstream>

namespace nao::stiffness
{
namespace
{
const char* const rowNames[6] = {"x", "y", "z", "rx", "ry", "rz"};

std::string heldRowNames(const EndpointHold& hold)
{
  std::string names;
  for (int r = 0; r < 6; ++r)
    if (hold.rows[static_cast<std::size_t>(r)])
      names += (names.empty() ? "" : ",") + std::string(rowNames[r]);
  return names.empty() ? "none" : names;
}

void validate(const Chain& chain, const Eigen::VectorXd& q0, const SimulationSettings& settings)
{
  const int n = chain.jointCount();
  const auto fail = [](const std::string& message) { throw StiffnessError("simulation: " + message); };
  if (q0.size() != n)
    fail("q0 has " + std::to_string(q0.size()) + " values, the chain from '" + chain.baseLinkName() +
         "' to '" + chain.tipLinkName() + "' has " + std::to_string(n) + " joints (" + chain.jointNames() +
         ")");
  if (!q0.allFinite()) fail("q0 is not finite");
  if (!(settings.step > 0.0) || !std::isfinite(settings.step))
    fail("step must be a positive number of seconds, not " + std::to_string(settings.step));
  if (!(settings.duration >= 0.0) || !std::isfinite(settings.duration))
    fail("duration must be >= 0 s, not " + std::to_string(settings.duration));
  if (settings.samplePeriod < 1) fail("samplePeriod must be >= 1 step");
  if (!std::isfinite(settings.redundancy.alpha) || !std::isfinite(settings.redundancy.jointDamping) ||
      settings.redundancy.jointDamping < 0.0)
    fail("alpha must be finite and the joint damping finite and >= 0");
  if (settings.inertia.size() != 0)
  {
    if (settings.inertia.rows() != n || settings.inertia.cols() != n)
      fail("the inertia must be " + std::to_string(n) + " x " + std::to_string(n));
    if (!settings.inertia.isApprox(settings.inertia.transpose()) ||
        settings.inertia.llt().info() != Eigen::Success)
      fail("the inertia is not symmetric positive definite");
  }
}
} // namespace

SimulationResult simulateNullSpaceMotion(const Chain& chain, const StiffnessQuery& query,
                                         const Eigen::VectorXd& q0, const SimulationSettings& settings)
{
  validate(chain, q0, settings);
  const int n = chain.jointCount();
  const Eigen::MatrixXd inertia =
      settings.inertia.size() != 0 ? settings.inertia : Eigen::MatrixXd(Eigen::MatrixXd::Identity(n, n));
  Workspace workspace(chain);
  RedundancyWorkspace scratch(chain);
  updateChain(chain, workspace, q0);
  const Eigen::Vector3d targetPoint = workspace.tipPoint;
  const Eigen::Matrix3d targetRotation = workspace.tipRotation;

  Eigen::VectorXd gradient(n), torque(n), acceleration(n);
  double time = 0.0;
  // The joint accelerations of state (q, qdot): Eq 43 through Eq 42.
  const auto accelerate = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& qdot) -> const Eigen::VectorXd&
  {
    updateChain(chain, workspace, q);
    computeMetricGradient(chain, workspace, query, gradient);
    computeRedundancyTorque(gradient, qdot, settings.redundancy, torque);
    const kinematics::Vector6 error = endpointError(workspace, targetPoint, targetRotation);
    if (!computeNullSpaceAcceleration(chain, workspace, scratch, inertia, qdot, error, torque, settings.hold,
                                      acceleration))
    {
      std::ostringstream message;
      message << "singular case: the held endpoint rows (" << heldRowNames(settings.hold)
              << ") of the Jacobian from '" << chain.baseLinkName() << "' to '" << chain.tipLinkName()
              << "' are singular at t = " << time << " s (smallest/largest eigenvalue of J M^-1 J^T = "
              << heldRowsConditioning(scratch, settings.hold.count())
              << "); the chain cannot hold its endpoint in these rows here";
      throw StiffnessError(message.str());
    }
    return acceleration;
  };

  SimulationResult result;
  const auto record = [&](const Eigen::VectorXd& q, bool store)
  {
    updateChain(chain, workspace, q);
    const double drift = (workspace.tipPoint - targetPoint).norm();
    const double turn =
        Eigen::AngleAxisd(Eigen::Matrix3d(workspace.tipRotation * targetRotation.transpose())).angle();
    result.maxEndpointDrift = std::max(result.maxEndpointDrift, drift);
    result.maxRotationDrift = std::max(result.maxRotationDrift, turn);
    if (store) result.samples.push_back({time, q, computeMetric(chain, workspace, query), drift, turn});
  };

  Eigen::VectorXd q = q0, qdot = Eigen::VectorXd::Zero(n);
  accelerate(q, qdot); // throws if the start is singular
  record(q, true);
  const auto steps = static_cast<long>(std::ceil(settings.duration / settings.step - 1e-9));
  const double h = steps > 0 ? settings.duration / static_cast<double>(steps) : 0.0;
  for (long step = 1; step <= steps; ++step)
  {
    // Classical fourth-order Runge-Kutta on (q, qdot).
    const Eigen::VectorXd a1 = accelerate(q, qdot);
    const Eigen::VectorXd v1 = qdot;
    const Eigen::VectorXd v2 = qdot + 0.5 * h * a1;
    const Eigen::VectorXd a2 = accelerate(q + 0.5 * h * v1, v2);
    const Eigen::VectorXd v3 = qdot + 0.5 * h * a2;
    const Eigen::VectorXd a3 = accelerate(q + 0.5 * h * v2, v3);
    const Eigen::VectorXd v4 = qdot + h * a3;
    const Eigen::VectorXd a4 = accelerate(q + h * v3, v4);
    q += h / 6.0 * (v1 + 2.0 * v2 + 2.0 * v3 + v4);
    qdot += h / 6.0 * (a1 + 2.0 * a2 + 2.0 * a3 + a4);
    time = static_cast<double>(step) * h;
    record(q, step % settings.samplePeriod == 0 || step == steps);
  }
  return result;
}
} // namespace nao::stiffness
