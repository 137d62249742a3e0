#include "Util/StiffnessTool/Tests/Optimality.h"

#include <algorithm>
#include <cmath>

namespace nao::stiffness
{
OptimalityReport checkOptimality(const Chain& chain, Workspace& workspace, const StiffnessQuery& query,
                                 double tolerance)
{
  const kinematics::Vector6 w = query.wrench();
  const Eigen::Vector3d force = w.head<3>();
  const Eigen::Vector3d moment = w.tail<3>();
  OptimalityReport report;
  report.stiff = true;
  report.compliant = true;
  for (int i = 0; i < chain.jointCount(); ++i)
  {
    JointOptimality joint;
    joint.type = chain.joint(i).type;
    joint.torque = workspace.jacobian.col(i).dot(w);
    const Eigen::Vector3d axis = workspace.axes.col(i);
    if (joint.type == kinematics::JointType::prismatic)
    {
      joint.forceAlongAxis = axis.dot(force);
      joint.forceAcrossAxis = axis.cross(force).norm();
      report.stiff = report.stiff && std::abs(joint.forceAlongAxis) <= tolerance;
      report.compliant = report.compliant && joint.forceAcrossAxis <= tolerance;
    }
    else
    {
      const Eigen::Vector3d lever = workspace.tipPoint - workspace.origins.col(i);
      const Eigen::Vector3d forceMoment = lever.cross(force);
      joint.forceMomentAlongAxis = axis.dot(forceMoment);
      joint.momentAlongAxis = axis.dot(moment);
      joint.forceMomentAcrossAxis = axis.cross(forceMoment).norm();
      joint.momentAcrossAxis = axis.cross(moment).norm();
      const double scale = forceMoment.norm() + moment.norm();
      joint.momentsOpposed = scale > 0.0 ? std::max(0.0, -forceMoment.dot(moment)) / scale : 0.0;
      const bool orthogonal =
          std::abs(joint.forceMomentAlongAxis) <= tolerance && std::abs(joint.momentAlongAxis) <= tolerance;
      report.stiff = report.stiff && (orthogonal || std::abs(joint.torque) <= tolerance);
      report.compliant = report.compliant && joint.forceMomentAcrossAxis <= tolerance &&
                         joint.momentAcrossAxis <= tolerance && joint.momentsOpposed <= tolerance;
    }
    report.joints.push_back(joint);
  }
  return report;
}
} // namespace nao::stiffness
