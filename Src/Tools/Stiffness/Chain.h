#pragma once
// A serial chain of a kinematics::Model from a base link to a tip link: the immutable "model" of the
// stiffness algorithms (the Workspace is their "data"). Frames and units: Conventions.h.
#include "Tools/Kinematics/Model.h"

#include <Eigen/Core>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nao::stiffness
{
/// One joint on the path from base to tip.
struct ChainJoint
{
  std::string name;   ///< the URDF joint name
  int body = 0;       ///< its kinematics::Model body
  int coordinate = 0; ///< the model coordinate that drives it
  double multiplier =
      1.0;             ///< joint value = multiplier * q_model[coordinate] + offset (1 and 0 unless a mimic)
  double offset = 0.0; ///< rad (m for prismatic)
  kinematics::JointType type = kinematics::JointType::revolute;
};

class Chain
{
public:
  /// Allocates. The model must outlive the chain. `pointInTip` (m, tip link frame) is the reference point of
  /// the Jacobian, the tip link's origin by default. Throws StiffnessError naming the model and the link or
  /// joint when: a link is unknown; the base is not an ancestor of the tip (links fixed to one body count as
  /// that body); no moving joint lies between them; two chain joints are coupled by a <mimic>, or a chain
  /// joint is coupled to a joint above the base (which would move the base).
  Chain(const kinematics::Model& model, std::string_view baseLink, std::string_view tipLink,
        const Eigen::Vector3d& pointInTip = Eigen::Vector3d::Zero());

  const kinematics::Model& model() const { return *model_; }
  int jointCount() const { return static_cast<int>(joints_.size()); } ///< n
  std::span<const ChainJoint> joints() const { return joints_; }
  const ChainJoint& joint(int index) const { return joints_[static_cast<std::size_t>(index)]; }
  /// Index of the chain joint with this URDF name, -1 if it is not on the chain.
  int findJoint(std::string_view jointName) const;
  /// "j1, j2, ..." for messages.
  std::string jointNames() const;

  int baseLink() const { return baseLink_; }
  int tipLink() const { return tipLink_; }
  const std::string& baseLinkName() const;
  const std::string& tipLinkName() const;
  const Eigen::Vector3d& pointInTip() const { return pointInTip_; }

private:
  const kinematics::Model* model_;
  int baseLink_ = 0;
  int tipLink_ = 0;
  Eigen::Vector3d pointInTip_;
  std::vector<ChainJoint> joints_;
};
} // namespace nao::stiffness
