#include "Tools/Kinematics/Data.h"

namespace nao::kinematics
{
Data::Data(const Model& model)
    : jointValues(static_cast<std::size_t>(model.bodyCount()), 0.0), sines(jointValues.size(), 0.0),
      cosines(jointValues.size(), 1.0), bodyPoses(jointValues.size()),
      jointAxes(jointValues.size(), Eigen::Vector3d::Zero()),
      linkPoses(static_cast<std::size_t>(model.linkCount())),
      subtreeFirstMoments(jointValues.size(), Eigen::Vector3d::Zero()),
      path(static_cast<std::size_t>(model.maxDepth()), 0),
      pathColumns(path.size(), Eigen::Matrix<double, 6, 1>::Zero())
{
}
} // namespace nao::kinematics
