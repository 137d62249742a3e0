#pragma once
// The cases of NaoBenchmarkSetup.h for Orocos KDL: its tree of the same URDF, each configuration as KDL's joint
// array and the sole wrenches as KDL wants them. Shared by the KDL benchmark and the comparison test.
#include "Tools/Kinematics/Benchmarks/KdlTreeFromUrdf.h"
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"

#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver_recursive_newton_euler.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nao::kinematics::benchmark
{
struct KdlCases
{
  KDL::Tree tree;
  std::vector<std::string> segmentNames;
  std::vector<int> bodyOfKdlJoint; ///< per KDL q index: the nao::kinematics body
  std::vector<KDL::JntArray> configurations;
  std::vector<KDL::WrenchMap> wrenches; ///< per configuration: the sole wrenches in the sole segment frames

  explicit KdlCases(bool onlyLoadedLinks)
      : tree(kdlTreeFromUrdf(nao::test::naoUrdfText(), onlyLoadedLinks, {"l_sole", "r_sole"}))
  {
    const NaoCases& cases = naoCases();
    const Model& model = cases.model;
    bodyOfKdlJoint.assign(tree.getNrOfJoints(), -1);
    for (const auto& [name, element] : tree.getSegments())
    {
      segmentNames.push_back(name);
      const KDL::Joint& joint = GetTreeElementSegment(element).getJoint();
      if (joint.getType() != KDL::Joint::None)
        bodyOfKdlJoint[GetTreeElementQNr(element)] = model.findBodyOfJoint(joint.getName());
    }
    Data data(model);
    for (std::size_t c = 0; c < NaoCases::count; ++c)
    {
      updateBodyPoses(model, data, cases.configurations[c]);
      KDL::JntArray q(tree.getNrOfJoints());
      for (unsigned int j = 0; j < q.rows(); ++j)
        q(j) = data.jointValues[static_cast<std::size_t>(bodyOfKdlJoint[j])];
      configurations.push_back(q);
      KDL::WrenchMap map;
      for (const ContactWrench& wrench : cases.wrenches[c])
      {
        // KDL wants the wrench on the segment in the segment frame, about the segment origin.
        const math::Pose sole = linkPose(model, data, wrench.link);
        const Eigen::Vector3d force = sole.rotation.transpose() * wrench.force;
        const Eigen::Vector3d moment =
            sole.rotation.transpose() *
            (wrench.moment + (wrench.point - sole.translation).cross(wrench.force));
        map[model.link(wrench.link).name] = KDL::Wrench(KDL::Vector(force.x(), force.y(), force.z()),
                                                        KDL::Vector(moment.x(), moment.y(), moment.z()));
      }
      wrenches.push_back(map);
    }
  }

  /// KDL's per-joint torques summed into the model's coordinates (mimic factors applied).
  Eigen::VectorXd toCoordinates(const Model& model, const KDL::JntArray& kdlTorques) const
  {
    Eigen::VectorXd tau = Eigen::VectorXd::Zero(model.coordinateCount());
    for (unsigned int j = 0; j < kdlTorques.rows(); ++j)
    {
      const Body& body = model.body(bodyOfKdlJoint[j]);
      tau[body.coordinate] += body.multiplier * kdlTorques(j);
    }
    return tau;
  }
};

inline const KdlCases& kdlCases(bool onlyLoadedLinks)
{
  static const KdlCases all(false), loaded(true);
  return onlyLoadedLinks ? loaded : all;
}

inline KDL::Vector toKdl(const Eigen::Vector3d& v)
{
  return {v.x(), v.y(), v.z()};
}

/// N·m over every case: how far KDL's inverse dynamics lies from nao::kinematics' torques, and the largest torque.
struct TorqueComparison
{
  double largestDifference = 0;
  double largestTorque = 0;
};

/// KDL's inverse dynamics of the robot at rest (gravity only, or with the two sole wrenches) against
/// computeGravityTorques or computeStaticTorques for every case; nullopt when KDL's solver fails on one.
inline std::optional<TorqueComparison> compareTorques(const KdlCases& kdl, bool withWrenches)
{
  const NaoCases& cases = naoCases();
  KDL::TreeIdSolver_RNE solver(kdl.tree, toKdl(cases.gravity));
  Data data(cases.model);
  Eigen::VectorXd expected(cases.model.coordinateCount());
  KDL::JntArray zero(kdl.tree.getNrOfJoints()), torques(kdl.tree.getNrOfJoints());
  TorqueComparison comparison;
  for (std::size_t c = 0; c < NaoCases::count; ++c)
  {
    if (solver.CartToJnt(kdl.configurations[c], zero, zero, withWrenches ? kdl.wrenches[c] : KDL::WrenchMap{},
                         torques) < 0)
      return std::nullopt;
    if (withWrenches)
      computeStaticTorques(cases.model, data, cases.configurations[c], cases.gravity, cases.wrenches[c],
                           expected);
    else
      computeGravityTorques(cases.model, data, cases.configurations[c], cases.gravity, expected);
    comparison.largestDifference =
        std::max(comparison.largestDifference,
                 (kdl.toCoordinates(cases.model, torques) - expected).cwiseAbs().maxCoeff());
    comparison.largestTorque = std::max(comparison.largestTorque, expected.cwiseAbs().maxCoeff());
  }
  return comparison;
}
} // namespace nao::kinematics::benchmark
