#pragma once
// What a foot's four FSRs read. The sole is a stiff plate on four pads: a flat foot stands on the pads
// themselves (the contact spheres of the MuJoCo model), a tilted foot on the sole's edge, whose force the
// plate passes on to the pads around it.
#include <array>

namespace nao::sim
{
/// The rectangle spanned by one foot's FSRs, m in the foot frame (x forward, y left).
struct FsrRectangle
{
  double front = 0.0; ///< x of the front pads
  double rear = 0.0;  ///< x of the rear pads
  double left = 0.0;  ///< y of the left pads
  double right = 0.0; ///< y of the right pads
};

/// From the pads' (x, y) in FSR order FrontLeft, FrontRight, RearLeft, RearRight: averaged edges.
FsrRectangle fsrRectangle(const std::array<std::array<double, 2>, 4>& pads);

/// Shares (FrontLeft, FrontRight, RearLeft, RearRight; sum 1) of a sole force acting at (x, y): bilinear
/// inside the rectangle, a point outside counts as the nearest point on it.
std::array<double, 4> fsrShares(const FsrRectangle& rectangle, double x, double y);
} // namespace nao::sim
