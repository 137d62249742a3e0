#pragma once
// What the 3D view draws, without any OpenGL: the simulator's MuJoCo model of the NAO (built from the URDF by
// Util/MujocoModel's MjcfBuilder, the same model the simulator steps) posed by measured joint angles, and the
// overlays as extra geoms of a MuJoCo scene (mjvScene): the self-collision shapes (Tools/Collision/BodyShapes.h), the
// centre of mass of the framework's robot description (RobotDescription, with the robot's mass calibration), the
// support polygon of the soles on the ground, each limb's stiffness ellipsoid (LimbStiffness), each joint's link
// coloured by its estimated temperature (JointThermalState) and the links of distrusted readings (SensorHealth).
//
// Placement: no robot measures where its torso is, so the torso's roll and pitch come from the IMU
// (InertialSensorData.angles; without it, the sole that is lower with the torso upright is laid flat), its yaw
// is 0, and it is lowered until the lowest sole point (a sole's FSR sphere or outline box) touches the ground
// (z = 0). x and y of the torso stay 0.
#include "Representations/Infrastructure/Joints.h"
#include "Representations/Modeling/LimbStiffness.h"

#include <Eigen/Core>
#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <mujoco/mujoco.h>

namespace nao::gui
{
/// The simulator's ground truth of the robot (--sim, SimulationTruth.h): where the torso is and how it is turned,
/// and each joint's true angle.
struct TruePose
{
  Eigen::Vector3d position = Eigen::Vector3d::Zero(); ///< m, torso origin, world frame
  std::array<double, 3> rollPitchYaw{};               ///< rad, R = Rz(yaw) Ry(pitch) Rx(roll)
  JointArray<double> angles{};                        ///< rad
};

struct RobotPose
{
  JointArray<float> angles{};                      ///< rad, measured; a non-finite angle is drawn as 0
  std::optional<std::array<float, 2>> torsoAngles; ///< rad, IMU roll (x) and pitch (y); none: lower sole flat
  std::optional<LimbStiffness> stiffness;          ///< drawn when valid
  /// RGBA (0..1) of each joint's link by its estimated temperature (ThermalDisplay.h); none: the joint keeps its grey
  JointArray<std::optional<std::array<float, 4>>> temperatureColours{};
  /// RGBA (0..1) of each joint's link by the time left to its next status: the joint table's colour (ThermalDisplay.h)
  JointArray<std::optional<std::array<float, 4>>> timeLeftColours{};
  /// RGBA (0..1) of each joint's link whose readings (or, at an ankle roll, whose foot's FSRs) are distrusted: the
  /// joint table's colour (HealthDisplay.h)
  JointArray<std::optional<std::array<float, 4>>> healthColours{};
  /// With the simulator's truth the true robot is drawn where it is, and this pose (the robot's own estimate)
  /// translucent at the true torso's x, y and heading, its soles on the ground as without.
  std::optional<TruePose> truth;
};

enum class Overlay
{
  collisionShapes,
  centerOfMass,
  supportPolygon,
  stiffness,
  seeThrough,  ///< the robot's own geoms translucent, so that overlays inside it show
  temperature, ///< each joint's link coloured by its estimated temperature: blue 25 °C, red at its status 1
  timeLeft, ///< each joint's link coloured by the time left to its next status (green, yellow, red; grey: learning)
  sensorHealth, ///< links of distrusted readings yellow (suspect) or red (failed), the feet by their FSRs
};
inline constexpr std::size_t numOfOverlays = 8;
inline constexpr std::array<const char*, numOfOverlays> overlayNames = {
    "collision shapes", "centre of mass", "support polygon", "stiffness ellipsoids",
    "see-through",      "temperature",    "time left",       "sensor health"};

/// Colours of the overlays (RGBA 0..1), lit by emission so that they keep their hue on screen (tests find them).
namespace overlayColour
{
inline constexpr std::array<float, 4> collisionShape = {1.0f, 0.55f, 0.0f, 1.0f}; ///< orange
inline constexpr std::array<float, 4> centerOfMass = {0.95f, 0.05f, 0.05f, 1.0f}; ///< red
inline constexpr std::array<float, 4> supportPolygon = {0.1f, 0.9f, 0.1f, 1.0f};  ///< green
inline constexpr std::array<float, 4> stiffness = {0.15f, 0.35f, 1.0f, 0.6f};     ///< blue, translucent
} // namespace overlayColour

class RobotScene
{
public:
  /// Loads <configDir>/Sim's physics.toml and motors.toml (the simulator's model), the robot description and the
  /// self-collision shapes of Config/Robots/<robot>/ (Default's where the robot has none). Throws naming the file
  /// and what is wrong.
  RobotScene(const std::filesystem::path& configDir, const std::string& robot);
  ~RobotScene();
  RobotScene(const RobotScene&) = delete;
  RobotScene& operator=(const RobotScene&) = delete;

  void setPose(const RobotPose& pose);

  /// The robot's geoms (mjv_updateScene) and the enabled overlays; the camera looks at the torso.
  void draw(mjvScene& scene, mjvCamera& camera, const std::array<bool, numOfOverlays>& overlays);

  const mjModel& model() const { return *model_; }
  /// Multisampling of the renderer's offscreen framebuffer (read by mjr_makeContext).
  void setOffscreenSamples(int samples) { model_->vis.quality.offsamples = samples; }
  /// m, world frame (z up, ground z = 0), for the last pose.
  Eigen::Vector3d torsoPosition() const;
  /// Whether the last pose had the simulator's truth, and the true torso (m, world frame).
  bool hasTruth() const { return truth_; }
  Eigen::Vector3d trueTorsoPosition() const;
  Eigen::Vector3d centerOfMass() const { return centerOfMass_; }
  /// m, the convex hull of the sole outline corners on the ground (within 5 mm), counter-clockwise.
  const std::vector<Eigen::Vector2d>& supportPolygon() const { return supportPolygon_; }
  /// The self-collision shapes in the world: name, centre or axis start, axis end, radius (m).
  struct PlacedShape
  {
    std::string name;
    Eigen::Vector3d start, end;
    double radius;
  };
  const std::vector<PlacedShape>& collisionShapes() const { return placedShapes_; }

private:
  void placeTorso(const RobotPose& pose);
  void placeTruth(const TruePose& truth);
  void setJointAngles(mjData& data, const JointArray<double>& angles) const;
  void addOverlays(mjvScene& scene, const std::array<bool, numOfOverlays>& overlays) const;
  void colourGeoms(const std::array<bool, numOfOverlays>& overlays, float alpha);

  struct Framework; ///< the framework's side: robot description, kinematics data, shapes
  std::unique_ptr<Framework> framework_;
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  mjData* truthData_ = nullptr; ///< the true robot's pose (RobotPose::truth)
  bool truth_ = false;
  mjvOption option_;
  int torsoBody_ = 0, floorGeom_ = 0;
  std::vector<int> soleGeoms_;    ///< FSR spheres and outline boxes
  std::vector<int> outlineGeoms_; ///< one box per sole
  std::vector<std::array<float, 4>> robotColours_;
  JointArray<int> jointQpos_{}; ///< qpos address of each LoLA joint
  JointArray<int> jointBody_{}; ///< the body each LoLA joint moves (its link)
  JointArray<std::optional<std::array<float, 4>>> temperatureColours_{};
  JointArray<std::optional<std::array<float, 4>>> timeLeftColours_{};
  JointArray<std::optional<std::array<float, 4>>> healthColours_{};
  std::vector<std::array<int, 2>> mimicQpos_;            ///< (follower, master) qpos addresses
  std::vector<std::array<double, 2>> mimicCoefficients_; ///< offset, multiplier
  Eigen::Vector3d centerOfMass_ = Eigen::Vector3d::Zero();
  std::vector<Eigen::Vector2d> supportPolygon_;
  std::vector<PlacedShape> placedShapes_;
  std::optional<LimbStiffness> stiffness_;
};
} // namespace nao::gui
