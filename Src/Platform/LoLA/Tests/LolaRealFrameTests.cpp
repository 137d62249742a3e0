// A sensor frame of a real NAO V6 through the codec and the conversion, against the robot's own tilt estimates: it is
// what settles the accelerometer's sign (Docs/NaoFacts.md §7). The frame is the fixture of nao_lola's parser test
// (ros-sports/nao_lola, nao_lola/test/test_msgpack_parser.cpp; values of its first version, commit 92c7a86): a limp
// robot in a full crouch, still, its torso leaning back. Only its numbers are used here.
#include "Platform/LoLA/LolaProtocol.h"
#include "Platform/LoLA/LolaSensorConversion.h"
#include "Platform/LoLA/Tests/LolaTestSupport.h"
#include "Tools/Inertial/OrientationFilter.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Testing/NaoUrdf.h"

#include <cmath>
#include <gtest/gtest.h>

namespace nao::test
{
namespace
{
/// rad: how close a tilt must come to LoLA's Angles. The frame is one sample of a still robot (the accelerometer's
/// norm is 9.820 m/s², the gyroscope reads at most 0.0011 rad/s), so motion explains no difference; what is left is
/// the accelerometer's offset and mounting against LoLA's own filter, which no public figure bounds: here 0.005 rad
/// in roll and 0.042 rad in pitch (0.4 m/s² along x). 0.05 still tells every axis's sign: the nearest wrong sign
/// (of y) is 0.080 off (EveryOtherSignDisagreesWithLolasAngles).
constexpr double angleTolerance = 0.05;

/// The fixture's frame as published (every value is a float32). Its first version has Stiffness, Current, Touch,
/// Sonar and Status all 0 and Battery (1, 0, 0, 0): a robot with its joints off.
LolaSensorFrame naoLolaFixtureFrame()
{
  LolaSensorFrame frame;
  frame.accelerometer = {-3.0656251907348633f, -0.39278322458267212f, -9.3214168548583984f};
  frame.gyroscope = {-0.00026631611399352551f, -0.001065264455974102f, 0.001065264455974102f};
  frame.angles = {0.037582572549581528f, -0.35991066694259644f};
  frame.position = {
      0.59361600875854492f,   0.49544000625610352f,  1.2133520841598511f,   0.33283615112304688f,
      0.76849198341369629f,   -0.16869807243347168f, -0.39427995681762695f, -0.50617814064025879f,
      0.297637939453125f,     -0.34050607681274414f, 2.1506261825561523f,   -1.1137261390686035f,
      -0.062852144241333008f, -0.10733795166015625f, -0.23014187812805176f, 2.1399722099304199f,
      -1.2056820392608643f,   -0.10120201110839844f, 1.0600361824035645f,   0.2039799690246582f,
      -0.46791195869445801f,  0.066004037857055664f, 0.47089600563049316f,  0.010400056838989258f,
      0.011199951171875f};
  frame.fsr = {0.014380865730345249f, 0.29265055060386658f, 0.47892898321151733f, 0.62120223045349121f,
               0.28502300381660461f,  0.70163685083389282f, 0.40598109364509583f, 0.086648054420948029f};
  frame.temperature = {38.f, 38.f, 38.f, 38.f, 38.f, 38.f, 38.f, 33.f, 27.f, 27.f, 27.f, 27.f, 27.f,
                       27.f, 27.f, 27.f, 27.f, 27.f, 38.f, 38.f, 38.f, 38.f, 38.f, 38.f, 38.f};
  frame.battery = {1.f, 0.f, 0.f, 0.f};
  frame.robotConfig = {LolaString("P0000073A07S94700012"), LolaString("6.0.0"),
                       LolaString("P0000074A05S93M00061"), LolaString("6.0.0")};
  return frame;
}

/// The frame encoded, decoded and converted as the robot binary does it.
LolaBodyReadings convertedFixture()
{
  const std::vector<std::uint8_t> bytes = encoded(naoLolaFixtureFrame());
  LolaSensorFrame decoded;
  EXPECT_TRUE(decodeSensorFrame(bytes, decoded).ok());
  LolaBodyReadings readings;
  FixedString<159> error;
  EXPECT_EQ(0u, convertSensorFrame(decoded, LolaConversionParameters{}, readings, error)) << error.view();
  return readings;
}

Eigen::Vector3d toVector(const std::array<float, 3>& v)
{
  return {v[0], v[1], v[2]};
}

Eigen::Vector2d lolaAngles()
{
  const std::array<float, 2> angles = naoLolaFixtureFrame().angles;
  return {angles[0], angles[1]};
}

/// Roll and pitch of the tilt that puts gravity along the specific force `f`.
Eigen::Vector2d tiltOf(const Eigen::Vector3d& f)
{
  return inertial::rollPitch(inertial::tiltFromGravity(f));
}
} // namespace

TEST(LolaRealFrame, SpecificForcePointsUpAndItsTiltIsLolasAngles)
{
  const LolaBodyReadings readings = convertedFixture();
  const Eigen::Vector3d f = toVector(readings.inertial.accelerometer);
  // Upright-ish: the specific force of a still body is gravity's opposite, so it points up the torso's z.
  EXPECT_NEAR(f.z(), 9.32, 0.01);
  EXPECT_NEAR(f.norm(), 9.81, 0.02);
  const Eigen::Vector2d tilt = tiltOf(f);
  EXPECT_NEAR(tilt.x(), lolaAngles().x(), angleTolerance) << "roll";
  EXPECT_NEAR(tilt.y(), lolaAngles().y(), angleTolerance) << "pitch";
  EXPECT_LT(tilt.y(), -0.25) << "the torso leans back";
  // Angles and the gyroscope pass through unchanged.
  EXPECT_EQ(readings.inertial.angles, naoLolaFixtureFrame().angles);
  EXPECT_EQ(readings.inertial.gyro, naoLolaFixtureFrame().gyroscope);
}

TEST(LolaRealFrame, OrientationFilterStartedFromTheFrameAgreesWithLolasAngles)
{
  const LolaBodyReadings readings = convertedFixture();
  const Eigen::Vector3d f = toVector(readings.inertial.accelerometer);
  const Eigen::Vector3d gyro = toVector(readings.inertial.gyro);
  const inertial::ImuNoise noise;
  inertial::OrientationFilter filter;
  filter.reset(f, noise);
  EXPECT_NEAR(filter.angles().x(), lolaAngles().x(), angleTolerance) << "roll at the start";
  EXPECT_NEAR(filter.angles().y(), lolaAngles().y(), angleTolerance) << "pitch at the start";
  // One second of the same still frame: every reading is taken as gravity, and the tilt stays.
  for (int frame = 0; frame < 83; ++frame)
  {
    filter.predict(gyro, 0.012, noise);
    EXPECT_TRUE(filter.correct(f, noise)) << "frame " << frame;
  }
  EXPECT_NEAR(filter.angles().x(), lolaAngles().x(), angleTolerance) << "roll after 1 s";
  EXPECT_NEAR(filter.angles().y(), lolaAngles().y(), angleTolerance) << "pitch after 1 s";
}

TEST(LolaRealFrame, SolesFlatOnTheFloorLeanTheTorsoBackAsLolasAnglesSay)
{
  // A witness that owes nothing to the IMU: both feet bear weight, and with the soles flat the legs' joint angles
  // alone give the torso's tilt. Its pitch checks the sign of LoLA's pitch (and so, through the test above, of the
  // accelerometer's x); its roll is too close to 0 (0.02 and -0.004 rad) to tell the sign of y.
  const LolaBodyReadings readings = convertedFixture();
  EXPECT_TRUE(readings.fsr.left.hasPressure);
  EXPECT_TRUE(readings.fsr.right.hasPressure);
  const kinematics::Model model = kinematics::loadModel(naoUrdfPath());
  Eigen::VectorXd q = Eigen::VectorXd::Zero(model.coordinateCount());
  for (std::size_t i = 0; i < numOfJoints; ++i)
    if (const int coordinate = model.findCoordinate(jointNames[i]); coordinate >= 0)
      q[coordinate] = readings.joints.angles[i];
  kinematics::Data data(model);
  kinematics::forwardKinematics(model, data, q);
  for (const char* sole : {"l_sole", "r_sole"})
  {
    // The sole's z axis in the torso (base) frame is the world's up while the sole lies flat.
    const Eigen::Vector3d up =
        data.linkPoses[static_cast<std::size_t>(model.linkIndex(sole))].rotation.col(2);
    EXPECT_NEAR(tiltOf(up).y(), lolaAngles().y(), angleTolerance) << sole;
  }
}

TEST(LolaRealFrame, EveryOtherSignDisagreesWithLolasAngles)
{
  // What makes the tests above able to fail: read with any other sign on any set of axes, the same raw values give a
  // tilt farther than the tolerance from LoLA's Angles (the nearest, y alone, 0.080 rad in roll).
  const Eigen::Vector3d f = toVector(specificForceFromLolaAccelerometer(naoLolaFixtureFrame().accelerometer));
  for (int flipped = 1; flipped < 8; ++flipped)
  {
    Eigen::Vector3d other = f;
    for (int axis = 0; axis < 3; ++axis)
      if (flipped & (1 << axis)) other[axis] = -other[axis];
    const double error = (tiltOf(other) - lolaAngles()).cwiseAbs().maxCoeff();
    EXPECT_GT(error, angleTolerance) << "axes flipped (bits x, y, z): " << flipped;
  }
}
} // namespace nao::test
