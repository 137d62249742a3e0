// Analytic inverse kinematics of the UR3 (standard DH, alpha = [pi/2, 0, 0, pi/2, -pi/2, 0], a1 = a4 = a5 =
// a6 = 0, d2 = d3 = 0), derived here from the DH product A_i = Rz(theta_i) Tz(d_i) Tx(a_i) Rx(alpha_i):
//
// 1. Shoulder. z_1 = Rz(theta1) Rx(pi/2) e_z = (sin t1, -cos t1, 0) is horizontal, and joints 2, 3, 4 turn
// about
//    axes parallel to it (alpha2 = alpha3 = 0), so links 2 and 3 move in a plane normal to z_1 through o_1;
//    the origin o_4 sits d4 off that plane along z_1, and o_5 = o_4 + d5 z_4 with z_4 normal to z_1. Hence
//    the wrist point p5 = p - d6 z_6 satisfies p5 . z_1 = d4, i.e. rho sin(t1 - psi) = d4 with (rho, psi) the
//    polar coordinates of (p5x, p5y):  t1 = psi + asin(d4 / rho)  or  psi + pi - asin(d4 / rho).
// 2. Wrist 2. z_1 seen from frame 4 is R_x(pi/2)^T R_z(t234)^T e_z = (0, 1, 0); z_5 = R_04 Rz(t5) Rx(-pi/2)
// e_z =
//    R_04 (-sin t5, cos t5, 0), so z_6 . z_1 = z_5 . z_1 = cos t5:  t5 = +-acos(z_6 . z_1).
// 3. Wrist 3. z_1 seen from frame 6 is Rz(-t6) Rx(pi/2) Rz(-t5) (0, 1, 0) = (sin t5 cos t6, -sin t5 sin t6,
// cos t5);
//    with (u, v, .) = R^T z_1:  t6 = atan2(-v / sin t5, u / sin t5)  (undefined at the wrist singularity t5 =
//    0).
// 4. Elbow. T_14 = A_1^-1 T_06 (A_5 A_6)^-1 = Rz(t2) Tx(a2) Rz(t3) Tx(a3) Rz(t4) Tz(d4) Rx(pi/2): its origin
// is a
//    planar two-link point (x, y) = a2 (c2, s2) + a3 (c23, s23), lifted by d4 along z. So
//    t3 = +-acos((x^2 + y^2 - a2^2 - a3^2) / (2 a2 a3)),  t2 = atan2(y, x) - atan2(a3 s3, a2 + a3 c3),
//    and the first column of R_14 = Rz(t234) e_x gives t234 = atan2(R14(1,0), R14(0,0)), t4 = t234 - t2 - t3.
// Two shoulder x two wrist x two elbow choices: 8 solutions.
#include "Util/StiffnessTool/Tests/Ur3Kinematics.h"

#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"

#include <cmath>
#include <numbers>

namespace nao::stiffness::test
{
namespace
{
double wrap(double angle)
{
  angle = std::remainder(angle, 2.0 * std::numbers::pi);
  return angle <= -std::numbers::pi ? angle + 2.0 * std::numbers::pi : angle;
}

} // namespace

std::string toolDataPath(const std::string& name)
{
  return std::string(NAO_SOURCE_DIR) + "/Util/StiffnessTool/Tests/Data/" + name;
}

const std::array<DhRow, 6>& ur3Dh()
{
  constexpr double pi = std::numbers::pi;
  static const std::array<DhRow, 6> rows{DhRow{0.1519, 0.0, pi / 2},   DhRow{0.0, -0.24365, 0.0},
                                         DhRow{0.0, -0.21325, 0.0},    DhRow{0.11235, 0.0, pi / 2},
                                         DhRow{0.08535, 0.0, -pi / 2}, DhRow{0.0819, 0.0, 0.0}};
  return rows;
}

math::Pose ur3DhStep(int joint, double theta)
{
  const DhRow& row = ur3Dh()[static_cast<std::size_t>(joint)];
  const double c = std::cos(theta), s = std::sin(theta), ca = std::cos(row.alpha), sa = std::sin(row.alpha);
  math::Pose step; // Rz(theta) Rx(alpha) and Rz(theta) (a, 0, d)
  step.rotation << c, -s * ca, s * sa, s, c * ca, -c * sa, 0.0, sa, ca;
  step.translation << row.a * c, row.a * s, row.d;
  return step;
}

math::Pose ur3DhFrame(const Eigen::VectorXd& theta, int frame)
{
  math::Pose pose;
  for (int i = 0; i < frame; ++i)
    pose = pose * ur3DhStep(i, theta[i]);
  return pose;
}

Eigen::Matrix<double, 6, 6> ur3DifferenceJacobian(const Eigen::VectorXd& theta, double step)
{
  Eigen::Matrix<double, 6, 6> jacobian;
  const Eigen::Matrix3d center = ur3DhFrame(theta, 6).rotation;
  for (int k = 0; k < 6; ++k)
  {
    Eigen::VectorXd plus = theta, minus = theta;
    plus[k] += step;
    minus[k] -= step;
    const math::Pose a = ur3DhFrame(plus, 6), b = ur3DhFrame(minus, 6);
    jacobian.col(k) << (a.translation - b.translation) / (2.0 * step),
        angularVelocityFromDifference(a.rotation, b.rotation, center, step);
  }
  return jacobian;
}

std::vector<Eigen::VectorXd> ur3InverseKinematics(const math::Pose& flange)
{
  const auto& dh = ur3Dh();
  const double d4 = dh[3].d, d6 = dh[5].d, a2 = dh[1].a, a3 = dh[2].a;
  const Eigen::Matrix3d& r = flange.rotation;
  const Eigen::Vector3d wrist = flange.translation - d6 * r.col(2);
  const double rho = std::hypot(wrist.x(), wrist.y());
  std::vector<Eigen::VectorXd> solutions;
  if (rho < std::abs(d4)) return solutions;
  const double psi = std::atan2(wrist.y(), wrist.x());
  const double shoulderOffset = std::asin(d4 / rho);
  for (const double t1 : {psi + shoulderOffset, psi + std::numbers::pi - shoulderOffset})
  {
    const Eigen::Vector3d z1(std::sin(t1), -std::cos(t1), 0.0);
    const double c5 = r.col(2).dot(z1);
    if (std::abs(c5) > 1.0) continue;
    for (const double t5 : {std::acos(c5), -std::acos(c5)})
    {
      const double s5 = std::sin(t5);
      if (std::abs(s5) < 1e-9) continue; // wrist singularity: theta6 is not determined
      const Eigen::Vector3d z1InFlange = r.transpose() * z1;
      const double t6 = std::atan2(-z1InFlange.y() / s5, z1InFlange.x() / s5);
      const math::Pose t14 =
          ur3DhStep(0, t1).inverse() * flange * (ur3DhStep(4, t5) * ur3DhStep(5, t6)).inverse();
      const double x = t14.translation.x(), y = t14.translation.y();
      const double c3 = (x * x + y * y - a2 * a2 - a3 * a3) / (2.0 * a2 * a3);
      if (std::abs(c3) > 1.0) continue;
      for (const double t3 : {std::acos(c3), -std::acos(c3)})
      {
        const double t2 = std::atan2(y, x) - std::atan2(a3 * std::sin(t3), a2 + a3 * std::cos(t3));
        const double t234 = std::atan2(t14.rotation(1, 0), t14.rotation(0, 0));
        Eigen::VectorXd solution(6);
        solution << wrap(t1), wrap(t2), wrap(t3), wrap(t234 - t2 - t3), wrap(t5), wrap(t6);
        solutions.push_back(solution);
      }
    }
  }
  return solutions;
}
} // namespace nao::stiffness::test
