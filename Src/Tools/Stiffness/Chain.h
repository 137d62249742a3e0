#pragma once
// A serial chain of a kinematics::Model from a base link to a tip link: the immutable "model" of the
// stiffness algorithms (the Workspace is their "data"). Configuration stiffness after Woolfrey, Ajoudani, Lu,
// Natale, "Optimal configurations for stiffness and compliance in human & robot arms", PLOS ONE 2024; equation
// numbers (Eq N) are the paper's.
//
// Units, the Jacobian's layout and its columns are nao::kinematics' (Tools/Kinematics/Conventions.h, Jacobian.h);
// a chain adds two things:
// - Variables: the URDF joints on the path from the BASE link to the TIP link, ordered base -> tip; q holds
//   their own values (rad, m for prismatic joints; for a <mimic> joint its own value, not its master's). Only
//   they are variables: nothing below depends on the rest of the robot.
// - Frame: everything (axes, origins, the tip point, Jacobian columns, directions, wrenches, ellipsoid axes) is
//   expressed in the BASE link's frame, which need not be the model's root. With the base pose (R, t) from
//   nao::kinematics: a_B = R^T a, o_B = R^T (o - t), p_B = R^T (p - t), J_B = diag(R^T, R^T) J restricted to the
//   chain's columns. This is exact because no chain joint moves the base (the constructor checks it).
// The Jacobian J (6 x n) is the TIP POINT's (the tip link's origin, or a point fixed in the tip link) relative to
// the base link, column i per unit of chain joint i (Eq 9): revolute c_i = (a_i x (p - o_i), a_i), prismatic
// c_i = (a_i, 0).
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
