#pragma once
// The gains of the redundancy resolution toward stiffness or compliance (Eq 43): the torque tau_r = alpha
// dp/dq - k_d qdot, whose steady state is the joint velocity qdot = (alpha / k_d) dp/dq. Shared by the
// stiffness task (Tools/TaskStack/Stiffness) and the research code of Util/StiffnessTool.
namespace nao::stiffness
{
struct RedundancyParameters
{
  /// alpha (Eq 43): < 0 moves toward stiffness (p falls), > 0 toward compliance (p rises); N*m per unit of
  /// dp/dq.
  double alpha = 0.0;
  double jointDamping = 1.0; ///< k_d (Eq 43), N*m*s/rad
};
} // namespace nao::stiffness
