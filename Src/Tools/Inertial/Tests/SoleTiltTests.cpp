// SoleTilt and OrientationFilter::correctUp alone: the offset between a sole's up direction and the filter's is a
// plain mean over the first offsetTime of rest and an average with that time constant after; nothing is measured
// before, nor beyond the gate; an up measurement turns a filter's tilt to it.
#include "Tools/Inertial/OrientationFilter.h"
#include "Tools/Inertial/SoleTilt.h"

#include <Eigen/Geometry>
#include <gtest/gtest.h>

using namespace nao::inertial;

namespace
{
/// The world's up in the frame of a body rolled by 0.04 rad (2.3°).
const Eigen::Vector3d trueUp = Eigen::AngleAxisd(-0.04, Eigen::Vector3d::UnitX()) * Eigen::Vector3d::UnitZ();
const Eigen::Vector3d soleUp = Eigen::AngleAxisd(0.02, Eigen::Vector3d::UnitY()) * trueUp; // 1.1° off
} // namespace

TEST(SoleTilt, TheOffsetIsLearnedAtRestAndMeasuredOnlyAfterOffsetTimeAndWithinTheGate)
{
  SoleTilt sole;
  constexpr double offsetTime = 1.0, gate = 0.05;
  for (int frame = 0; frame < 83; ++frame) // 0.996 s
  {
    sole.learn(soleUp, trueUp, 0.012, offsetTime);
    ASSERT_FALSE(sole.measure(soleUp, trueUp, offsetTime, gate).has_value()) << "frame " << frame;
  }
  sole.learn(soleUp, trueUp, 0.012, offsetTime);
  ASSERT_TRUE(sole.measure(soleUp, trueUp, offsetTime, gate).has_value());
  EXPECT_LT((*sole.measure(soleUp, trueUp, offsetTime, gate) - trueUp).norm(), 1e-9)
      << "a constant offset is learned exactly: the mean of the first second";
  EXPECT_NEAR(sole.learnedTime(), 1.008, 1e-9);
  // A sole 4° further off (a foot on its edge) is beyond the gate; NaN measures nothing.
  const Eigen::Vector3d edge = Eigen::AngleAxisd(0.07, Eigen::Vector3d::UnitY()) * soleUp;
  EXPECT_FALSE(sole.measure(edge, trueUp, offsetTime, gate).has_value());
  EXPECT_FALSE(sole.measure(Eigen::Vector3d::Constant(NAN), trueUp, offsetTime, gate).has_value());
  // Later rest moves the offset with the time constant: after one offsetTime at a new offset, 1 − 1/e of the way.
  const Eigen::Vector3d moved = Eigen::AngleAxisd(0.03, Eigen::Vector3d::UnitY()) * trueUp;
  const Eigen::Vector3d before = sole.offset();
  for (int frame = 0; frame < 83; ++frame)
    sole.learn(moved, trueUp, 0.012, offsetTime);
  const double travelled = (sole.offset() - before).norm() / ((trueUp - moved) - before).norm();
  EXPECT_NEAR(travelled, 1 - std::exp(-1.0), 0.01);
}

TEST(SoleTilt, AnUpMeasurementTurnsTheFiltersTiltToIt)
{
  const ImuNoise noise;
  OrientationFilter filter;
  filter.reset(Eigen::Vector3d(0, 0, noise.gravity), noise); // level
  for (int frame = 0; frame < 500; ++frame)
  {
    filter.predict(Eigen::Vector3d::Zero(), 0.012, noise);
    filter.correctUp(trueUp, 0.01, noise);
  }
  EXPECT_LT((filter.up() - trueUp).norm(), 1e-3);
  EXPECT_NEAR(filter.angles()[0], 0.04, 1e-3);
}
