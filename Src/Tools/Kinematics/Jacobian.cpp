#include "Tools/Kinematics/Jacobian.h"

#include <cassert>

namespace nao::kinematics
{
namespace
{
using Column = Eigen::Matrix<double, 6, 1>;

Eigen::Vector3d pointInBase(const Model& model, const Data& data, int link,
                            const Eigen::Vector3d& pointInLink)
{
  const Link& l = model.link(link);
  return data.bodyPoses[static_cast<std::size_t>(l.body)] * (l.placement * pointInLink);
}

/// The column of body `i`'s own joint (before the mimic multiplier) for a point p on a body it moves.
Column jointColumn(const Model& model, const Data& data, int i, const Eigen::Vector3d& p)
{
  const Eigen::Vector3d& axis = data.jointAxes[static_cast<std::size_t>(i)];
  Column column;
  if (model.body(i).type == JointType::prismatic)
    column << axis, Eigen::Vector3d::Zero();
  else
    column << axis.cross(p - data.bodyPoses[static_cast<std::size_t>(i)].translation), axis;
  return column;
}

/// Fills data.path with the bodies from the base's first child down to `body` and their columns; returns
/// count.
int collectPath(const Model& model, Data& data, int body, const Eigen::Vector3d& p)
{
  int depth = 0;
  for (int i = body; i > 0; i = model.body(i).parent)
    ++depth;
  int position = depth;
  for (int i = body; i > 0; i = model.body(i).parent)
  {
    --position;
    data.path[static_cast<std::size_t>(position)] = i;
    data.pathColumns[static_cast<std::size_t>(position)] = jointColumn(model, data, i, p);
  }
  return depth;
}

/// d(column of path[j])/d(value of joint path[i]) for two joints on one chain (i, j are path positions).
Column columnDerivative(const Data& data, int i, int j)
{
  const auto& columns = data.pathColumns;
  const auto angularOf = [&](int position) -> Eigen::Vector3d
  { return columns[static_cast<std::size_t>(position)].tail<3>(); };
  Column derivative;
  if (i <= j)
  {
    // Joint i moves joint j and the point rigidly: both parts of column j turn with angular velocity omega_i.
    const Eigen::Vector3d omega = angularOf(i);
    const Column& column = columns[static_cast<std::size_t>(j)];
    derivative << omega.cross(column.head<3>()), omega.cross(column.tail<3>());
  }
  else
  {
    // Joint i lies beyond joint j: only the point moves, by the linear part of column i.
    derivative << angularOf(j).cross(columns[static_cast<std::size_t>(i)].head<3>()), Eigen::Vector3d::Zero();
  }
  return derivative;
}

void addDerivative(const Model& model, Data& data, int depth, int coordinate, Eigen::Ref<Jacobian> derivative)
{
  for (int i = 0; i < depth; ++i)
  {
    const Body& moving = model.body(data.path[static_cast<std::size_t>(i)]);
    if (moving.coordinate != coordinate) continue;
    for (int j = 0; j < depth; ++j)
    {
      const Body& column = model.body(data.path[static_cast<std::size_t>(j)]);
      derivative.col(column.coordinate) +=
          moving.multiplier * column.multiplier * columnDerivative(data, i, j);
    }
  }
}
} // namespace

void computePointJacobian(const Model& model, const Data& data, int link, const Eigen::Vector3d& pointInLink,
                          Eigen::Ref<Jacobian> jacobian)
{
  assert(jacobian.cols() == model.coordinateCount());
  jacobian.setZero();
  const Eigen::Vector3d p = pointInBase(model, data, link, pointInLink);
  for (int i = model.link(link).body; i > 0; i = model.body(i).parent)
  {
    const Body& body = model.body(i);
    jacobian.col(body.coordinate) += body.multiplier * jointColumn(model, data, i, p);
  }
}

void computeJacobianDerivative(const Model& model, Data& data, int link, const Eigen::Vector3d& pointInLink,
                               int coordinate, Eigen::Ref<Jacobian> derivative)
{
  assert(derivative.cols() == model.coordinateCount());
  derivative.setZero();
  const int depth =
      collectPath(model, data, model.link(link).body, pointInBase(model, data, link, pointInLink));
  addDerivative(model, data, depth, coordinate, derivative);
}

void computeJacobianDerivatives(const Model& model, Data& data, int link, const Eigen::Vector3d& pointInLink,
                                Eigen::Ref<Jacobian> derivatives)
{
  const int n = model.coordinateCount();
  assert(derivatives.cols() == n * n);
  derivatives.setZero();
  const int depth =
      collectPath(model, data, model.link(link).body, pointInBase(model, data, link, pointInLink));
  for (int i = 0; i < depth; ++i)
  {
    const int coordinate = model.body(data.path[static_cast<std::size_t>(i)]).coordinate;
    // A coordinate that drives several joints on the path (mimics) is handled once, for all of them.
    bool seen = false;
    for (int earlier = 0; earlier < i && !seen; ++earlier)
      seen = model.body(data.path[static_cast<std::size_t>(earlier)]).coordinate == coordinate;
    if (!seen) addDerivative(model, data, depth, coordinate, derivatives.middleCols(coordinate * n, n));
  }
}
} // namespace nao::kinematics
