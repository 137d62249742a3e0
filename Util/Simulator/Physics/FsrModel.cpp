#include "Util/Simulator/Physics/FsrModel.h"

#include <algorithm>

namespace nao::sim
{
FsrRectangle fsrRectangle(const std::array<std::array<double, 2>, 4>& pads)
{
  enum
  {
    frontLeft,
    frontRight,
    rearLeft,
    rearRight
  };
  return {(pads[frontLeft][0] + pads[frontRight][0]) / 2, (pads[rearLeft][0] + pads[rearRight][0]) / 2,
          (pads[frontLeft][1] + pads[rearLeft][1]) / 2, (pads[frontRight][1] + pads[rearRight][1]) / 2};
}

std::array<double, 4> fsrShares(const FsrRectangle& r, double x, double y)
{
  const double u = std::clamp((x - r.rear) / (r.front - r.rear), 0.0, 1.0);  // 0 rear .. 1 front
  const double v = std::clamp((y - r.right) / (r.left - r.right), 0.0, 1.0); // 0 right .. 1 left
  return {u * v, u * (1.0 - v), (1.0 - u) * v, (1.0 - u) * (1.0 - v)};
}
} // namespace nao::sim
