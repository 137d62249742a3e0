#include "Tools/Inertial/SoleTilt.h"
#include <algorithm>

namespace nao::inertial
{
void SoleTilt::learn(const Eigen::Vector3d& soleUp, const Eigen::Vector3d& restUp, double dt,
                     double offsetTime)
{
  if (!(dt > 0) || !soleUp.allFinite() || !restUp.allFinite()) return;
  // The first seconds average what they have (a plain mean), later ones weigh in with the time constant.
  const double weight = std::min(1.0, dt / std::min(std::max(offsetTime, dt), learned_ + dt));
  offset_ += weight * ((restUp - soleUp) - offset_);
  learned_ += dt;
}

std::optional<Eigen::Vector3d> SoleTilt::measure(const Eigen::Vector3d& soleUp,
                                                 const Eigen::Vector3d& filterUp, double offsetTime,
                                                 double gate) const
{
  if (learned_ < offsetTime || !soleUp.allFinite()) return std::nullopt;
  const Eigen::Vector3d up = (soleUp + offset_).normalized();
  if (!((up - filterUp).norm() <= gate)) return std::nullopt;
  return up;
}
} // namespace nao::inertial
