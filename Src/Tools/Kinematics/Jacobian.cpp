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

/// d(column)/d(value of the joint of `moving`) for two joints on one path (Jacobian.h): `inner` when the moving
/// joint lies between the base and the column's joint or is that joint.
template<class Moving, class Changing>
Column derivativeOfColumn(const Moving& moving, const Changing& column, bool inner)
{
  Column derivative;
  if (inner)
  {
    // The moving joint turns the column's joint and the point rigidly: both parts turn with its angular part.
    const Eigen::Vector3d omega = moving.template tail<3>();
    derivative << omega.cross(column.template head<3>()), omega.cross(column.template tail<3>());
  }
  else
  {
    // The moving joint lies beyond the column's joint: only the point moves, by the moving column's linear part.
    const Eigen::Vector3d omega = column.template tail<3>();
    derivative << omega.cross(moving.template head<3>()), Eigen::Vector3d::Zero();
  }
  return derivative;
}

/// d(column of path[j])/d(value of joint path[i]) for two joints on one chain (i, j are path positions).
Column columnDerivative(const Data& data, int i, int j)
{
  const auto& columns = data.pathColumns;
  return derivativeOfColumn(columns[static_cast<std::size_t>(i)], columns[static_cast<std::size_t>(j)],
                            i <= j);
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

void computeJacobianDerivatives(const Eigen::Ref<const Jacobian>& jacobian, Eigen::Ref<Jacobian> derivatives)
{
  const Eigen::Index n = jacobian.cols();
  assert(derivatives.cols() == n * n);
  for (Eigen::Index k = 0; k < n; ++k)
    for (Eigen::Index i = 0; i < n; ++i)
      derivatives.col(k * n + i) = derivativeOfColumn(jacobian.col(k), jacobian.col(i), k <= i);
}

Vector6 computeJacobianRateTimesVelocity(const Eigen::Ref<const Jacobian>& jacobian,
                                         const Eigen::Ref<const Eigen::VectorXd>& qdot)
{
  // sum_i qdot_i dc_i/dt with dc_i/dt = sum_k qdot_k dc_i/dq_k. Splitting the sum over k at i:
  //   k <= i: W_i x c_i,  W_i = sum_{k<=i} qdot_k w_k (angular velocity of joint i's frame after it turns);
  //   k > i:  w_i x V_i,  V_i = sum_{k>i} qdot_k v_k (the point's velocity from the joints beyond i).
  const auto& j = jacobian;
  const Eigen::Index n = j.cols();
  assert(qdot.size() == n);
  Vector6 result = Vector6::Zero();
  Eigen::Vector3d outerVelocity = Eigen::Vector3d::Zero();
  for (Eigen::Index i = n - 1; i >= 0; --i)
  {
    result.head<3>() += qdot[i] * j.col(i).tail<3>().cross(outerVelocity);
    outerVelocity += qdot[i] * j.col(i).head<3>();
  }
  Eigen::Vector3d innerAngular = Eigen::Vector3d::Zero();
  for (Eigen::Index i = 0; i < n; ++i)
  {
    innerAngular += qdot[i] * j.col(i).tail<3>();
    result.head<3>() += qdot[i] * innerAngular.cross(j.col(i).head<3>());
    result.tail<3>() += qdot[i] * innerAngular.cross(j.col(i).tail<3>());
  }
  return result;
}
} // namespace nao::kinematics
