// How sole forces reach the four FSRs of a foot.
#include "Util/Simulator/Physics/FsrModel.h"

#include <gtest/gtest.h>
#include <numeric>

namespace nao::sim
{
namespace
{
// Left foot, geometry.md §4 (m): FrontLeft, FrontRight, RearLeft, RearRight.
const FsrRectangle leftFoot =
    fsrRectangle({{{0.07025, 0.0299}, {0.07025, -0.0231}, {-0.03025, 0.0299}, {-0.02965, -0.0191}}});

TEST(FsrModel, RectangleAveragesThePads)
{
  EXPECT_DOUBLE_EQ(leftFoot.front, 0.07025);
  EXPECT_DOUBLE_EQ(leftFoot.rear, -0.02995);
  EXPECT_DOUBLE_EQ(leftFoot.left, 0.0299);
  EXPECT_DOUBLE_EQ(leftFoot.right, -0.0211);
}

TEST(FsrModel, ForceAtACornerGoesToThatPad)
{
  const auto shares = fsrShares(leftFoot, leftFoot.front, leftFoot.left);
  EXPECT_DOUBLE_EQ(shares[0], 1.0);
  EXPECT_DOUBLE_EQ(shares[1] + shares[2] + shares[3], 0.0);
}

TEST(FsrModel, CentredForceIsSharedEqually)
{
  const auto shares =
      fsrShares(leftFoot, (leftFoot.front + leftFoot.rear) / 2, (leftFoot.left + leftFoot.right) / 2);
  for (const double share : shares)
    EXPECT_NEAR(share, 0.25, 1e-12);
}

TEST(FsrModel, HeelEdgeLoadsTheRearPadsAndNothingIsLost)
{
  const auto shares = fsrShares(leftFoot, -0.05, 0.0); // sole back edge, 20 mm behind the rear pads
  EXPECT_DOUBLE_EQ(shares[0] + shares[1], 0.0);
  EXPECT_NEAR(shares[2] + shares[3], 1.0, 1e-12);
  const auto outside = fsrShares(leftFoot, 0.2, -0.3);
  EXPECT_DOUBLE_EQ(outside[1], 1.0); // nearest: front right
  EXPECT_NEAR(std::accumulate(outside.begin(), outside.end(), 0.0), 1.0, 1e-12);
}
} // namespace
} // namespace nao::sim
