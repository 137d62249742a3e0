// The support soles' tilt as a second measurement (README.md, "The soles"): a torso at rest on both feet whose legs'
// kinematics put the soles 1.5° off the true up (a calibration error) is estimated where the accelerometer puts it,
// the offsets are learned first; a sideways sway whose acceleration tilts the accelerometer's gravity by 4.7° for
// 0.5 s misleads the filter less with the soles measured than without; a sole that disagrees by more than the gate
// (a foot on its edge) and one that carries no weight measure nothing.
#include "Framework/Testing/ModuleHarness.h"
#include "Modules/Sensing/InertialDataFilter/InertialDataFilter.h"

#include <Eigen/Geometry>
#include <cmath>
#include <gtest/gtest.h>
#include <numbers>

using namespace nao;

namespace
{
constexpr double g = 9.81, degree = std::numbers::pi / 180;

/// The filter with a robot model whose soles' up directions are `soleOffset` away from the torso's true up.
struct SoleRig
{
  ModuleHarness<InertialDataFilter> harness;
  Eigen::Quaterniond truth{Eigen::AngleAxisd(0.05, Eigen::Vector3d::UnitX())}; ///< torso → world, rolled 2.9°
  Eigen::Quaterniond soleOffset{Eigen::AngleAxisd(1.5 * degree, Eigen::Vector3d::UnitY())};
  std::uint32_t frame = 0;

  explicit SoleRig(bool withSoles)
  {
    if (!withSoles)
      harness.parameters().supportWeight = 10.f; // no foot carries that: the accelerometer alone
    RobotModel& model = harness.input<RobotModel>();
    model.totalMass = 5.3f;
    for (FsrFoot* foot : {&harness.input<FsrSensorData>().left, &harness.input<FsrSensorData>().right})
      foot->totalWeight = 2.65f;
  }
  /// One frame at rest, or with `sideways` m/s² of the torso's acceleration (world y) in the accelerometer.
  void step(double sideways = 0)
  {
    // Sole → torso: the torso's inverse tilt (a flat sole), then the legs' calibration error.
    const Eigen::Matrix3d sole = (soleOffset * truth.conjugate()).toRotationMatrix();
    for (Pose3* pose : {&harness.input<RobotModel>().leftSole, &harness.input<RobotModel>().rightSole})
      for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 3; ++column)
          pose->rotation[static_cast<std::size_t>(3 * row + column)] = static_cast<float>(sole(row, column));
    const Eigen::Vector3d f = truth.conjugate() * Eigen::Vector3d(0, sideways, g);
    InertialSensorData& sensors = harness.input<InertialSensorData>();
    sensors.gyro = {1e-4f * static_cast<float>(frame % 7), 0.f, 0.f}; // never the same readings twice
    for (std::size_t axis = 0; axis < 3; ++axis)
      sensors.accelerometer[axis] = static_cast<float>(f[static_cast<Eigen::Index>(axis)]);
    harness.input<FrameInfo>().frameNumber = frame;
    harness.input<FrameInfo>().time = frame * 0.012;
    ++frame;
    harness.run();
  }
  double rollError() const { return harness.output<InertialData>().angles[0] - 0.05; }
};
} // namespace

TEST(InertialDataFilterSoles, AtRestTheOffsetsAreLearnedAndTheAccelerometerKeepsTheTilt)
{
  SoleRig rig(true);
  for (int frame = 0; frame < 400; ++frame) // 4.8 s: less than footOffsetTime, no sole measures yet
  {
    rig.step();
    ASSERT_FALSE(rig.harness.output<InertialData>().soles[0]) << "frame " << frame;
  }
  for (int frame = 0; frame < 2000; ++frame)
    rig.step();
  EXPECT_TRUE(rig.harness.output<InertialData>().soles[0]);
  EXPECT_TRUE(rig.harness.output<InertialData>().soles[1]);
  EXPECT_NEAR(rig.rollError(), 0.0, 0.002) << "the soles' 1.5° are the offset, not the tilt";
  EXPECT_NEAR(rig.harness.output<InertialData>().angles[1], 0.0, 0.002);
}

TEST(InertialDataFilterSoles, ASwayingTorsoMisleadsItLessWithTheSolesMeasured)
{
  double error[2] = {};
  for (const bool withSoles : {false, true})
  {
    SoleRig rig(withSoles);
    for (int frame = 0; frame < 2500; ++frame)
      rig.step();
    for (int frame = 0; frame < 42; ++frame) // 0.5 s of a weight shift: 0.8 m/s² sideways
      rig.step(0.8);
    error[withSoles] = std::abs(rig.rollError());
    EXPECT_EQ(rig.harness.output<InertialData>().soles[0], withSoles);
  }
  std::printf("roll error after 0.5 s of 0.8 m/s² sideways: %.3f° alone, %.3f° with the soles\n",
              error[0] / degree, error[1] / degree);
  EXPECT_GT(error[0], 0.2 * degree) << "the sway is one that misleads the accelerometer (0.25° here)";
  EXPECT_LT(error[1], 0.6 * error[0]) << "the soles' share of the weight: 0.10° here";
}

TEST(InertialDataFilterSoles, ASoleBeyondTheGateOrWithoutWeightMeasuresNothing)
{
  SoleRig rig(true);
  for (int frame = 0; frame < 2500; ++frame)
    rig.step();
  ASSERT_TRUE(rig.harness.output<InertialData>().soles[0]);
  rig.harness.input<FsrSensorData>().right.totalWeight = 0.2f;                                  // lifted
  rig.soleOffset = Eigen::Quaterniond(Eigen::AngleAxisd(6 * degree, Eigen::Vector3d::UnitY())); // on its edge
  rig.step();
  EXPECT_FALSE(rig.harness.output<InertialData>().soles[0])
      << "4.5° beyond its learned offset: over the gate";
  EXPECT_FALSE(rig.harness.output<InertialData>().soles[1]) << "no weight on it";
  EXPECT_NEAR(rig.rollError(), 0.0, 0.002);
}
