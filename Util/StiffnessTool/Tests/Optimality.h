#pragma once
// The paper's optimality conditions, per joint, as checks of a configuration (Eqs 20-38). w = K_c dx = (f,
// m), r_i = p - o_i (joint origin to tip point), a_i the unit axis; all in the base frame (Tools/Stiffness/Chain.h).
//
// Optimal stiffness (p = 0, the global minimum, Eq 16: J^T w = 0), joint by joint (Eq 20):
//   revolute:  a.(r x f) = 0 and a.m = 0 (Eq 22a, 22b), or they cancel: a.(r x f + m) = 0 (Eq 23-24)
//   prismatic: a.f = 0 (Eq 26)
// Optimal compliance (the passive stiffness vanishes, Eqs 28-30), the paper's sufficient pattern:
//   revolute:  r x f parallel to a and m parallel to a (Eq 33a, 33b), r x f and m in the same sense (Eq
//   35-36) prismatic: f parallel to a (Eq 38)
// The compliance pattern is what the paper derives for a maximum; it is a check, not a proof (the paper
// states the maximum is not proven; see README.md for where it is and is not a maximum).
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/Metric.h"
#include "Tools/Stiffness/Workspace.h"

#include <vector>

namespace nao::stiffness
{
/// Residuals of one joint: N*m for revolute joints, N for prismatic joints. Zero means the condition holds.
struct JointOptimality
{
  kinematics::JointType type = kinematics::JointType::revolute;
  double torque = 0.0; ///< c_i . w, the joint's share of the stiffness condition (Eq 20)
  // Revolute joints.
  double forceMomentAlongAxis = 0.0;  ///< a . (r x f) (Eq 22a)
  double momentAlongAxis = 0.0;       ///< a . m (Eq 22b)
  double forceMomentAcrossAxis = 0.0; ///< |a x (r x f)| (Eq 33a)
  double momentAcrossAxis = 0.0;      ///< |a x m| (Eq 33b)
  double momentsOpposed = 0.0;        ///< max(0, -(r x f) . m) / (|r x f| + |m|): 0 if same sense (Eq 35-36)
  // Prismatic joints.
  double forceAlongAxis = 0.0;  ///< a . f (Eq 26)
  double forceAcrossAxis = 0.0; ///< |a x f| (Eq 38)
};

struct OptimalityReport
{
  std::vector<JointOptimality> joints; ///< base -> tip
  bool stiff = false;                  ///< every joint meets its stiffness condition within the tolerance
  bool compliant = false;              ///< every joint meets its compliance condition within the tolerance
};

/// Allocates the report (n entries). tolerance: N*m for revolute, N for prismatic residuals.
OptimalityReport checkOptimality(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                                 double tolerance);
} // namespace nao::stiffness
