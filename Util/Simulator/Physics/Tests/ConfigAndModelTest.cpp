// Loading Config/Sim and building the MuJoCo model from the URDF.
#include "NeutralDefaults.h"
#include "TestRobot.h"
#include "Tools/Streams/ConfigError.h"
#include "Util/MujocoModel/MjcfBuilder.h"
#include "Util/Simulator/Physics/DriveModel.h"

#include <filesystem>
#include <fstream>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sstream>
#include <unistd.h>
#include <urdf_parser/urdf_parser.h>

namespace nao::sim
{
namespace
{
namespace fs = std::filesystem;

/// A copy of Config/Sim in a temporary folder with one line of one of its files replaced.
class EditedConfig
{
public:
  EditedConfig(const std::string& file, const std::string& oldLine, const std::string& newLine)
      : root_(fs::temp_directory_path() / ("simphysics_config_" + std::to_string(::getpid()) + "_" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name()))
  {
    fs::create_directories(root_ / "Sim");
    for (const char* name : {"physics.toml", "motors.toml", "sensors.toml", "robots.toml", "variants.toml"})
    {
      std::ifstream in(fs::path(NAO_CONFIG_DIR) / "Sim" / name);
      std::stringstream text;
      text << in.rdbuf();
      std::string content = text.str();
      if (file == name)
      {
        const auto at = content.find(oldLine);
        EXPECT_NE(at, std::string::npos) << oldLine;
        if (at != std::string::npos) content.replace(at, oldLine.size(), newLine);
      }
      std::ofstream(root_ / "Sim" / name) << content;
    }
  }
  ~EditedConfig() { fs::remove_all(root_); }
  const fs::path& root() const { return root_; }

private:
  fs::path root_;
};

TEST(SimConfig, LoadsTheProjectFilesInSIUnits)
{
  const SimConfig config = test::projectConfig();
  EXPECT_DOUBLE_EQ(config.physics.timestep, 0.001);
  EXPECT_DOUBLE_EQ(config.physics.frameTime, 0.012);
  EXPECT_NEAR(config.motors.board.stictionSpeed, 0.1 * std::numbers::pi / 180.0, 1e-12); // deg/s in the file
  EXPECT_DOUBLE_EQ(config.motors.board.speedWindow, 0.008);                              // ms in the file
  EXPECT_NEAR(config.motors.drives[static_cast<std::size_t>(DriveKind::KneePitch)].backlash,
              0.15 * std::numbers::pi / 180.0, 1e-12);
  EXPECT_DOUBLE_EQ(config.sensors.current.noise, 0.003); // mA in the file
  EXPECT_EQ(config.sensors.position.bits, 12);
  EXPECT_EQ(config.robots.positionOffset.law, Law::uniform);
  ASSERT_EQ(config.robots.presets.size(), 1u);
  EXPECT_EQ(config.robots.presets[0].name, "worn");
  EXPECT_DOUBLE_EQ(config.motors.temperatureStatus.hotFrom, 76.0);
  EXPECT_DOUBLE_EQ(config.motors.temperatureStatus.hotBelow, 70.0);
  EXPECT_TRUE(fs::exists(config.urdfFile));
}

TEST(SimConfig, PlantValuesLiveOnlyInConfigSim)
{
  // One declaration per value: Config/Sim states each plant value with its source, the structs it loads into
  // start at zero or empty. A number typed into a struct again would be a second, silently unused (or, where a
  // test built the struct itself, silently used) value. Enums are structural and not checked.
  using test::NeutralDefaultsArchive;
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(PhysicsParameters{}), ::testing::IsEmpty());
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(MotorParameters{}), ::testing::IsEmpty());
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(SensorParameters{}), ::testing::IsEmpty());
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(RobotDistributions{}), ::testing::IsEmpty());
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(PlantVariants{}), ::testing::IsEmpty());
  // The walk finds a number where there is one, also in an element of a vector read from the file.
  RobotDistributions withNumber;
  withNumber.roomTemperature.center = 25.0;
  EXPECT_THAT(NeutralDefaultsArchive::nonNeutralLeaves(withNumber),
              ::testing::ElementsAre("roomTemperature.center = 25"));
}

TEST(SimConfig, DrivesOfParametersNeverLoadedAreRefused)
{
  // Every field starts at 0, so a drive's motor type is 0 until the file is read: refused, not read out of bounds.
  EXPECT_THROW(makeDrives(MotorParameters{}, RobotVariation{}), std::logic_error);
  const SimConfig config = loadSimConfig(NAO_CONFIG_DIR);
  EXPECT_NO_THROW(makeDrives(config.motors, RobotVariation{}));
}

TEST(SimConfig, EveryKeyIsRequired)
{
  // What keeps a zero of the structs out of the plant: a value the file lacks is an error, never a default.
  const EditedConfig edited("motors.toml", "electronicsPower = 0.2", "");
  try
  {
    loadSimConfig(edited.root());
    FAIL() << "no error";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "board.electronicsPower");
    EXPECT_NE(std::string(error.what()).find("missing"), std::string::npos) << error.what();
  }
}

TEST(SimConfig, ABadValueNamesFileLineAndKey)
{
  const EditedConfig edited("physics.toml", "timestep = 1.0", "timestep = \"fast\"");
  try
  {
    loadSimConfig(edited.root());
    FAIL() << "no error";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "timestep");
    EXPECT_GT(error.line, 0);
    EXPECT_NE(error.file.find("physics.toml"), std::string::npos);
  }
}

TEST(SimConfig, ContradictingThresholdsAreRejected)
{
  const EditedConfig edited("motors.toml", "hotBelow = 70.0", "hotBelow = 77.0");
  try
  {
    loadSimConfig(edited.root());
    FAIL() << "no error";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "temperatureStatus.hotBelow");
  }
}

TEST(SimConfig, SlidingFrictionAboveStaticFrictionIsRejected)
{
  const EditedConfig edited(
      "motors.toml",
      "KneePitch = { motorType = 5, gearRatio = 130.85, maxTorque = 5.103, staticFriction = 1.0",
      "KneePitch = { motorType = 5, gearRatio = 130.85, maxTorque = 5.103, staticFriction = 0.1");
  try
  {
    loadSimConfig(edited.root());
    FAIL() << "no error";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "drives.KneePitch.slidingFriction");
  }
}

TEST(SimConfig, APresetNamingAnUnknownJointKindIsRejected)
{
  const EditedConfig edited("robots.toml", R"(driveKinds = ["KneePitch", "AnklePitch"])",
                            R"(driveKinds = ["KneePitch", "Ankle"])");
  try
  {
    loadSimConfig(edited.root());
    FAIL() << "no error";
  }
  catch (const streams::ConfigError& error)
  {
    EXPECT_EQ(error.keyPath, "presets.worn.driveKinds");
    EXPECT_NE(std::string(error.what()).find("'Ankle'"), std::string::npos) << error.what();
  }
}

TEST(MuJoCoModel, HasTheURDFMassAndOneMotorPerLoLAJoint)
{
  const SimConfig config = test::projectConfig();
  const SimulatedRobot robot(config);
  const mjModel& m = robot.model();
  // Independent sum over the URDF's links.
  const auto urdf = urdf::parseURDFFile(config.urdfFile.string());
  ASSERT_TRUE(urdf);
  double urdfMass = 0.0;
  for (const auto& [name, link] : urdf->links_)
    if (link->inertial) urdfMass += link->inertial->mass;
  double modelMass = 0.0;
  for (int body = 1; body < m.nbody; ++body)
    modelMass += m.body_mass[body];
  EXPECT_NEAR(modelMass, urdfMass, 1e-6);
  EXPECT_NEAR(modelMass, test::kilogramsOfRobot, 1e-3);
  ASSERT_EQ(m.nu, static_cast<int>(numOfJoints));
  for (std::size_t joint = 0; joint < numOfJoints; ++joint)
    EXPECT_EQ(std::string(mj_id2name(&m, mjOBJ_ACTUATOR, static_cast<int>(joint))), jointNames[joint]);
  // 26 hinges (RHipYawPitch included) plus the free torso.
  EXPECT_EQ(m.nv, 26 + 6);
}

TEST(MuJoCoModel, ReflectedRotorInertiaIsTheArmature)
{
  const SimConfig config = test::projectConfig();
  const SimulatedRobot robot(config);
  const mjModel& m = robot.model();
  const int knee = m.jnt_dofadr[mj_name2id(&m, mjOBJ_JOINT, "LKneePitch")];
  const double ratio = config.motors.drives[static_cast<std::size_t>(DriveKind::KneePitch)].gearRatio;
  EXPECT_DOUBLE_EQ(m.dof_armature[knee], config.motors.motorTypes[4].rotorInertia * ratio * ratio);
}

TEST(MuJoCoModel, FsrContactsSitAtTheFsrPositions)
{
  // geometry.md §4, mm in the ankle frame, LoLA order.
  const double expected[8][2] = {{70.25, 29.9}, {70.25, -23.1}, {-30.25, 29.9}, {-29.65, -19.1},
                                 {70.25, 23.1}, {70.25, -29.9}, {-29.65, 19.1}, {-30.25, -29.9}};
  const SimulatedRobot robot(test::projectConfig());
  const mjModel& m = robot.model();
  for (std::size_t fsr = 0; fsr < 8; ++fsr)
  {
    const int geom = mj_name2id(&m, mjOBJ_GEOM, mjcf::fsrGeomName(fsr).c_str());
    ASSERT_GE(geom, 0);
    EXPECT_NEAR(m.geom_pos[3 * geom] * 1000.0, expected[fsr][0], 1e-6) << fsr;
    EXPECT_NEAR(m.geom_pos[3 * geom + 1] * 1000.0, expected[fsr][1], 1e-6) << fsr;
    EXPECT_NEAR((m.geom_pos[3 * geom + 2] - m.geom_size[3 * geom]) * 1000.0, -45.19, 1e-6)
        << fsr; // sole plane
    EXPECT_STREQ(mj_id2name(&m, mjOBJ_BODY, m.geom_bodyid[geom]), fsr < 4 ? "l_ankle" : "r_ankle");
  }
}

TEST(MuJoCoModel, AMissingRobotDescriptionIsAClearError)
{
  SimConfig config = test::projectConfig();
  config.urdfFile = "/nonexistent/robot.urdf";
  try
  {
    SimulatedRobot robot(config);
    FAIL() << "no error";
  }
  catch (const std::runtime_error& error)
  {
    EXPECT_NE(std::string(error.what()).find("/nonexistent/robot.urdf"), std::string::npos);
  }
}
} // namespace
} // namespace nao::sim
