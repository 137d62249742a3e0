#pragma once
// The cases of NaoBenchmarkSetup.h for Orocos KDL: its tree of the same URDF, each configuration as KDL's joint
// array and the sole wrenches as KDL wants them. Shared by the KDL benchmark and the comparison test.
#include "Tools/Kinematics/Benchmarks/KdlTreeFromUrdf.h"
#include "Tools/Kinematics/Benchmarks/NaoBenchmarkSetup.h"

#include <kdl/jntarray.hpp>
#include <kdl/tree.hpp>
#include <kdl/treeidsolver.hpp> // KDL::WrenchMap
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
      : tree(kdlTreeFromUrdf(naoUrdfText(), onlyLoadedLinks, {"l_sole", "r_sole"}))
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
} // namespace nao::kinematics::benchmark
