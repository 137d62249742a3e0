#pragma once
// The one place that states the frames, units and sign conventions of nao::kinematics.
//
// Units: SI everywhere (m, kg, kg*m^2, rad, N, N*m, m/s^2).
//
// Frames: every pose, axis, point, force and moment returned by the algorithms is expressed in the BASE
// frame, the frame of the URDF's root link (for the NAO: base_link = torso; x forward, y left, z up). The
// base is where the model is rooted, not an assumption that the base is fixed: the standing algorithms treat
// it as free.
//
// Joint coordinates: q holds one entry per independent joint (revolute, continuous or prismatic, not a
// mimic). A mimic joint's value is multiplier * q[master] + offset. Positive q turns the child about the
// joint axis by the right-hand rule (prismatic: moves it along the axis).
//
// Torque sign: tau is the torque (N*m; N for prismatic joints) that the MOTOR must produce to HOLD the
// posture against the loads, about the joint axis, positive in the direction of positive q. Example: if
// positive q lowers a horizontal arm, gravity pulls towards positive q and the holding torque is negative. A
// mimic joint adds multiplier * (its own torque) to its master's entry, so the NAO's shared hip-yaw-pitch
// motor gets the sum of both legs.
//
// With a fixed base this is the generalized gravity vector G(q) = dV/dq, the gradient of the potential energy
// V(q) = -sum_i m_i * g . c_i(q) (g: gravity acceleration, c_i: centre of mass of link i).
//
// Contact wrenches W = (f, n) are what the ENVIRONMENT exerts ON THE ROBOT at a point p: force f (N) and
// moment n (N*m) about p, both in the base frame. With contacts the static torques are
//   tau = G(q) - sum_c J_c(q)^T W_c,
// where J_c is the 6 x nq Jacobian of the contact point (rows: linear velocity, then angular velocity). A
// floor pushing a sole up (f opposite to gravity) carries weight through that leg, so its motors hold the
// body above them instead of the hanging leg below them.
//
// Jacobian of a point p on a link: 6 x nq, column k = d(velocity of p, angular velocity of the link)/d(dq_k),
// in the base frame. For a revolute joint j on the path: (a_j x (p - o_j), a_j); prismatic: (a_j, 0); a_j:
// the unit axis, o_j: a point on the axis, both in the base frame.
#include <Eigen/Core>

namespace nao::kinematics
{
/// m/s^2, gravity acceleration in the base frame of an upright robot. When the torso is tilted, pass the
/// measured vector instead (e.g. from the IMU).
inline const Eigen::Vector3d defaultGravity{0.0, 0.0, -9.81};
} // namespace nao::kinematics
