#include "Tools/Kinematics/Tests/TestModels.h"

#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/UrdfLoader.h"

#include <cmath>
#include <numbers>
#include <sstream>

namespace nao::kinematics::test
{
namespace
{
std::string number(double value)
{
  std::ostringstream text;
  text.precision(17);
  text << value;
  return text.str();
}

std::string vector3(const Eigen::Vector3d& v)
{
  return number(v.x()) + " " + number(v.y()) + " " + number(v.z());
}

std::string inertial(double mass, const Eigen::Vector3d& com)
{
  return "<inertial><origin xyz=\"" + vector3(com) + "\" rpy=\"0 0 0\"/><mass value=\"" + number(mass) +
         "\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial>";
}
} // namespace

const std::vector<std::string>& lolaJointOrder()
{
  static const std::vector<std::string> order{
      "HeadYaw",    "HeadPitch",   "LShoulderPitch", "LShoulderRoll",  "LElbowYaw",
      "LElbowRoll", "LWristYaw",   "LHipYawPitch",   "LHipRoll",       "LHipPitch",
      "LKneePitch", "LAnklePitch", "LAnkleRoll",     "RHipRoll",       "RHipPitch",
      "RKneePitch", "RAnklePitch", "RAnkleRoll",     "RShoulderPitch", "RShoulderRoll",
      "RElbowYaw",  "RElbowRoll",  "RWristYaw",      "LHand",          "RHand"};
  return order;
}

Model loadNao()
{
  ModelOptions options;
  options.coordinateOrder = lolaJointOrder();
  return loadModel(naoUrdfPath(), options);
}

const std::array<DhRow, 6>& ur3Dh()
{
  constexpr double pi = std::numbers::pi;
  static const std::array<DhRow, 6> rows{DhRow{0.1519, 0.0, pi / 2},   DhRow{0.0, -0.24365, 0.0},
                                         DhRow{0.0, -0.21325, 0.0},    DhRow{0.11235, 0.0, pi / 2},
                                         DhRow{0.08535, 0.0, -pi / 2}, DhRow{0.0819, 0.0, 0.0}};
  return rows;
}

const std::array<double, 6>& ur3Masses()
{
  static const std::array<double, 6> masses{2.0, 3.42, 1.26, 0.8, 0.8, 0.35};
  return masses;
}

const std::array<Eigen::Vector3d, 6>& ur3CentersOfMass()
{
  static const std::array<Eigen::Vector3d, 6> centers{
      Eigen::Vector3d(0, -0.02, 0), Eigen::Vector3d(0.13, 0, 0.1157), Eigen::Vector3d(0.05, 0, 0.0238),
      Eigen::Vector3d(0, 0, 0.01),  Eigen::Vector3d(0, 0, 0.01),      Eigen::Vector3d(0, 0, -0.02)};
  return centers;
}

std::string ur3Urdf()
{
  // URDF link i is DH frame i-1 turned by theta_i; DH frame i = link i * Tz(d_i) Tx(a_i) Rx(alpha_i), which
  // is the origin of joint i+1 (and of the fixed tool0 joint after joint 6).
  std::string urdf = "<robot name=\"ur3\"><link name=\"base_link\"/>";
  std::string parent = "base_link";
  Eigen::Vector3d origin = Eigen::Vector3d::Zero();
  double roll = 0.0;
  for (std::size_t i = 0; i < 6; ++i)
  {
    const DhRow& row = ur3Dh()[i];
    const std::string link = "link" + std::to_string(i + 1);
    const std::string type = i == 5 ? "continuous" : "revolute";
    urdf += "<joint name=\"joint" + std::to_string(i + 1) + "\" type=\"" + type + "\"><parent link=\"" +
            parent + "\"/><child link=\"" + link + "\"/><origin xyz=\"" + vector3(origin) + "\" rpy=\"" +
            number(roll) + " 0 0\"/><axis xyz=\"0 0 1\"/>" +
            "<limit lower=\"-6.2831853\" upper=\"6.2831853\" effort=\"56\" velocity=\"3.14\"/></joint>";
    origin = {row.a, 0.0, row.d};
    roll = row.alpha;
    const Eigen::Vector3d comInLink =
        origin + Eigen::AngleAxisd(row.alpha, Eigen::Vector3d::UnitX()) * ur3CentersOfMass()[i];
    urdf += "<link name=\"" + link + "\">" + inertial(ur3Masses()[i], comInLink) + "</link>";
    parent = link;
  }
  urdf += "<joint name=\"tool0_joint\" type=\"fixed\"><parent link=\"link6\"/><child link=\"tool0\"/><origin "
          "xyz=\"" +
          vector3(origin) + "\" rpy=\"" + number(roll) + " 0 0\"/></joint><link name=\"tool0\"/></robot>";
  return urdf;
}

math::Pose ur3DhFrame(const Eigen::VectorXd& theta, int frame)
{
  math::Pose pose;
  for (int i = 0; i < frame; ++i)
  {
    const DhRow& row = ur3Dh()[static_cast<std::size_t>(i)];
    Eigen::Matrix4d rz = Eigen::Matrix4d::Identity(), tz = Eigen::Matrix4d::Identity(),
                    tx = Eigen::Matrix4d::Identity(), rx = Eigen::Matrix4d::Identity();
    const double c = std::cos(theta[i]), s = std::sin(theta[i]), ca = std::cos(row.alpha),
                 sa = std::sin(row.alpha);
    rz.topLeftCorner<2, 2>() << c, -s, s, c;
    tz(2, 3) = row.d;
    tx(0, 3) = row.a;
    rx.block<2, 2>(1, 1) << ca, -sa, sa, ca;
    const Eigen::Matrix4d step = rz * tz * tx * rx;
    math::Pose stepPose{step.topLeftCorner<3, 3>(), step.topRightCorner<3, 1>()};
    pose = pose * stepPose;
  }
  return pose;
}

std::string planarArmUrdf()
{
  std::string urdf = "<robot name=\"planar\"><link name=\"base\"/>";
  std::string parent = "base";
  for (std::size_t i = 0; i < 4; ++i)
  {
    const std::string link = "l" + std::to_string(i);
    const double originX = i == 0 ? 0.0 : planarLengths[i - 1];
    urdf += "<joint name=\"j" + std::to_string(i) + "\" type=\"revolute\"><parent link=\"" + parent +
            "\"/><child link=\"" + link + "\"/><origin xyz=\"" + number(originX) +
            " 0 0\"/><axis xyz=\"0 1 0\"/><limit lower=\"-3.14\" upper=\"3.14\" effort=\"1\" "
            "velocity=\"1\"/></joint>" +
            "<link name=\"" + link + "\">" + inertial(planarMasses[i], {planarLengths[i] / 2, 0, 0}) +
            "</link>";
    parent = link;
  }
  return urdf + "</robot>";
}

std::string mixedRobotUrdf()
{
  const std::string limit = "<limit lower=\"-2\" upper=\"2\" effort=\"10\" velocity=\"1\"/>";
  return R"(<robot name="mixed"><link name="root">)" + inertial(1.0, {0.01, 0.02, 0.03}) + R"(</link>
  <joint name="slide" type="prismatic"><parent link="root"/><child link="carriage"/>
    <origin xyz="0.1 0.0 0.2" rpy="0.3 -0.2 0.1"/><axis xyz="1 2 2"/>)" +
         limit + R"(</joint>
  <link name="carriage">)" +
         inertial(0.7, {0.05, -0.01, 0.02}) + R"(</link>
  <joint name="shoulder" type="revolute"><parent link="carriage"/><child link="upper"/>
    <origin xyz="0 0.1 0.05" rpy="0 0.4 0"/><axis xyz="0 0.6 -0.8"/>)" +
         limit + R"(</joint>
  <link name="upper">)" +
         inertial(0.9, {0.12, 0.0, -0.01}) + R"(</link>
  <joint name="upper_cover_joint" type="fixed"><parent link="upper"/><child link="upper_cover"/>
    <origin xyz="0.1 0.02 0" rpy="0.5 0 -0.3"/></joint>
  <link name="upper_cover">)" +
         inertial(0.3, {0.0, 0.03, 0.01}) + R"(</link>
  <joint name="elbow" type="continuous"><parent link="upper_cover"/><child link="fore"/>
    <origin xyz="0.15 0 0" rpy="0 0 0.2"/><axis xyz="0 0 -1"/></joint>
  <link name="fore">)" +
         inertial(0.5, {0.08, 0.01, 0.0}) + R"(</link>
  <joint name="wrist" type="revolute"><parent link="fore"/><child link="hand"/>
    <origin xyz="0.16 0 0"/><axis xyz="1 0 0"/>)" +
         limit + R"(</joint>
  <link name="hand">)" +
         inertial(0.2, {0.03, 0.0, 0.01}) + R"(</link>
  <joint name="twin_joint" type="revolute"><parent link="carriage"/><child link="twin"/>
    <origin xyz="0 -0.1 0.05" rpy="0.1 0 0"/><axis xyz="0 1 0"/>)" +
         limit + R"(
    <mimic joint="shoulder" multiplier="-2" offset="0.3"/></joint>
  <link name="twin">)" +
         inertial(0.6, {0.1, 0.0, 0.02}) + R"(</link>
  <joint name="twin_tip_joint" type="fixed"><parent link="twin"/><child link="twin_tip"/>
    <origin xyz="0.2 0 0" rpy="0 0 0"/></joint>
  <link name="twin_tip"/>
</robot>)";
}

Eigen::VectorXd randomConfiguration(const Model& model, std::mt19937& random)
{
  Eigen::VectorXd q(model.coordinateCount());
  for (int k = 0; k < model.coordinateCount(); ++k)
  {
    const JointLimits& limits = model.body(model.coordinates()[static_cast<std::size_t>(k)].body).limits;
    const double lower = limits.bounded ? limits.lower : -std::numbers::pi;
    const double upper = limits.bounded ? limits.upper : std::numbers::pi;
    q[k] = std::uniform_real_distribution<double>(lower, upper)(random);
  }
  return q;
}

double potentialEnergy(const Model& model, Data& data, const Eigen::VectorXd& q,
                       const Eigen::Vector3d& gravity)
{
  forwardKinematics(model, data, q);
  double energy = 0.0;
  for (int i = 0; i < model.linkCount(); ++i)
  {
    const Link& link = model.link(i);
    energy -= link.inertial.mass *
              gravity.dot(data.linkPoses[static_cast<std::size_t>(i)] * link.inertial.centerOfMass);
  }
  return energy;
}

Eigen::VectorXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& q, int k, double step)
{
  Eigen::VectorXd plus = q, minus = q;
  plus[k] += step;
  minus[k] -= step;
  return (f(plus) - f(minus)) / (2.0 * step);
}

Eigen::Vector3d rotationDifference(const Eigen::Matrix3d& plus, const Eigen::Matrix3d& minus,
                                   const Eigen::Matrix3d& center, double step)
{
  const Eigen::Matrix3d skewMatrix = (plus - minus) / (2.0 * step) * center.transpose();
  return {0.5 * (skewMatrix(2, 1) - skewMatrix(1, 2)), 0.5 * (skewMatrix(0, 2) - skewMatrix(2, 0)),
          0.5 * (skewMatrix(1, 0) - skewMatrix(0, 1))};
}
} // namespace nao::kinematics::test
