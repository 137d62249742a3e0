#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"

#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/ForwardKinematics.h"

#include <cmath>
#include <numbers>
#include <sstream>

namespace nao::stiffness::test
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

std::string triple(const Eigen::Vector3d& v)
{
  return number(v.x()) + " " + number(v.y()) + " " + number(v.z());
}

std::string fixedJoint(const std::string& name, const std::string& parent, const std::string& child,
                       const Eigen::Vector3d& xyz, const Eigen::Vector3d& rpy)
{
  return "<joint name=\"" + name + "\" type=\"fixed\"><parent link=\"" + parent + "\"/><child link=\"" +
         child + "\"/><origin xyz=\"" + triple(xyz) + "\" rpy=\"" + triple(rpy) +
         "\"/></joint><link name=\"" + child + "\"/>";
}
} // namespace

std::string dataPath(const std::string& name)
{
  return std::string(NAO_SOURCE_DIR) + "/Src/Tools/Stiffness/Tests/Data/" + name;
}

std::string randomChainUrdf(int jointCount, unsigned seed)
{
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> offset(-0.3, 0.3), angle(-std::numbers::pi, std::numbers::pi);
  const auto randomTriple = [&](std::uniform_real_distribution<double>& d)
  { return Eigen::Vector3d(d(random), d(random), d(random)); };
  std::string urdf = "<robot name=\"random" + std::to_string(jointCount) + "_" + std::to_string(seed) +
                     "\"><link name=\"world\"/>" +
                     fixedJoint("mount_joint", "world", "mount", randomTriple(offset), randomTriple(angle));
  std::string parent = "mount";
  for (int i = 0; i < jointCount; ++i)
  {
    // Joint 1 is prismatic and joint 2 revolute; the rest are random.
    const bool prismatic = i == 1 || (i != 2 && random() % 3 == 0);
    Eigen::Vector3d axis;
    switch (random() % 4)
    {
    case 0:
      axis = Eigen::Vector3d::Unit(static_cast<int>(random() % 3));
      break;
    case 1:
      axis = -Eigen::Vector3d::Unit(static_cast<int>(random() % 3));
      break;
    default:
      axis = randomTriple(offset).normalized();
    }
    const std::string link = "link" + std::to_string(i);
    urdf += "<joint name=\"joint" + std::to_string(i) + "\" type=\"" +
            (prismatic ? "prismatic" : "revolute") + "\"><parent link=\"" + parent + "\"/><child link=\"" +
            link + "\"/><origin xyz=\"" + triple(randomTriple(offset)) + "\" rpy=\"" +
            triple(randomTriple(angle)) + "\"/><axis xyz=\"" + triple(axis) +
            "\"/><limit lower=\"-3\" upper=\"3\" effort=\"10\" velocity=\"1\"/></joint><link name=\"" + link +
            "\"/>";
    if (i == 1)
      urdf += "<joint name=\"side_joint\" type=\"revolute\"><parent link=\"link1\"/><child link=\"side\"/>"
              "<origin xyz=\"0 0.1 0\"/><axis xyz=\"1 0 0\"/>"
              "<limit lower=\"-3\" upper=\"3\" effort=\"10\" velocity=\"1\"/></joint><link name=\"side\"/>";
    parent = link;
  }
  return urdf + fixedJoint("tool_joint", parent, "tool", randomTriple(offset), randomTriple(angle)) +
         "</robot>";
}

Eigen::VectorXd randomJointValues(int count, double range, std::mt19937& random)
{
  std::uniform_real_distribution<double> value(-range, range);
  Eigen::VectorXd q(count);
  for (int i = 0; i < count; ++i)
    q[i] = value(random);
  return q;
}

kinematics::Matrix6 randomCartesianStiffness(std::mt19937& random)
{
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  kinematics::Matrix6 a;
  for (int i = 0; i < 36; ++i)
    a(i / 6, i % 6) = value(random);
  return a * a.transpose() + 0.5 * kinematics::Matrix6::Identity();
}

kinematics::Vector6 randomVector6(std::mt19937& random)
{
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  kinematics::Vector6 v;
  for (int i = 0; i < 6; ++i)
    v[i] = value(random);
  return v;
}

Eigen::VectorXd centralDifference(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& f,
                                  const Eigen::VectorXd& q, int k, double step)
{
  Eigen::VectorXd plus = q, minus = q;
  plus[k] += step;
  minus[k] -= step;
  return (f(plus) - f(minus)) / (2.0 * step);
}

Eigen::Vector3d angularVelocityFromDifference(const Eigen::Matrix3d& plus, const Eigen::Matrix3d& minus,
                                              const Eigen::Matrix3d& center, double step)
{
  const Eigen::Matrix3d w = (plus - minus) / (2.0 * step) * center.transpose();
  return {0.5 * (w(2, 1) - w(1, 2)), 0.5 * (w(0, 2) - w(2, 0)), 0.5 * (w(1, 0) - w(0, 1))};
}

math::Pose relativeLinkPose(const kinematics::Model& model, const std::vector<std::string>& jointNames,
                            const Eigen::VectorXd& q, const std::string& baseLink, const std::string& tipLink)
{
  Eigen::VectorXd modelQ = Eigen::VectorXd::Zero(model.coordinateCount());
  for (std::size_t i = 0; i < jointNames.size(); ++i)
    modelQ[model.coordinateIndex(jointNames[i])] = q[static_cast<Eigen::Index>(i)];
  kinematics::Data data(model);
  kinematics::forwardKinematics(model, data, modelQ);
  const auto pose = [&](const std::string& link)
  { return data.linkPoses[static_cast<std::size_t>(model.linkIndex(link))]; };
  return pose(baseLink).inverse() * pose(tipLink);
}

} // namespace nao::stiffness::test
