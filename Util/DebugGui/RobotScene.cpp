#include "Util/DebugGui/RobotScene.h"

#include "Framework/RobotDescription.h"
#include "Tools/Collision/BodyShapes.h"
#include "Tools/Kinematics/Data.h"
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Util/MujocoModel/MjcfBuilder.h"
#include "Util/MujocoModel/MujocoModel.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace nao::gui
{
namespace
{
constexpr double groundTolerance = 0.005; ///< m: a sole corner this close to the ground carries the robot
/// N·m: the drawn ellipsoid is the level set of the endpoint deflections d with p(d) = scale² / 2 = 5e-5 (N·m)²,
/// i.e. radius of axis i = scale / sqrt(eigenvalue i). Long axes are stiff directions (a deflection there needs
/// little joint torque: small p), short axes compliant ones. Eigenvalues of the NAO's limbs with K_c = 1 lie around
/// 1e-4..0.1 (N·m)²/m², so the radii span the floor..cap range.
constexpr double ellipsoidScale = 0.01;
constexpr double ellipsoidCap = 0.08;    ///< m: drawn radius of an eigenvalue ~0 (the stiffest direction)
constexpr double ellipsoidFloor = 0.004; ///< m: thinnest drawn radius

/// Drawn shapes of the model: light grey, the floor dark blue-grey (MuJoCo's default grey hides the robot).
constexpr std::array<float, 4> robotGrey = {0.82f, 0.82f, 0.85f, 1.0f};
constexpr std::array<float, 4> floorColour = {0.22f, 0.25f, 0.3f, 1.0f};

/// Adds a geom to the scene if there is room (a full scene drops the overlay rather than overrun).
mjvGeom* addGeom(mjvScene& scene, int type, const Eigen::Vector3d& size, const Eigen::Vector3d& position,
                 const Eigen::Matrix3d& rotation, const std::array<float, 4>& colour)
{
  if (scene.ngeom >= scene.maxgeom) return nullptr;
  mjvGeom* geom = scene.geoms + scene.ngeom++;
  const Eigen::Matrix<double, 3, 3, Eigen::RowMajor> rowMajor = rotation;
  mjv_initGeom(geom, type, size.data(), position.data(), rowMajor.data(), colour.data());
  geom->category = mjCAT_DECOR;
  geom->emission = 0.7f; // mostly self-lit: the overlay keeps its colour from every side
  return geom;
}

void addConnector(mjvScene& scene, int type, double width, const Eigen::Vector3d& from,
                  const Eigen::Vector3d& to, const std::array<float, 4>& colour)
{
  mjvGeom* geom = addGeom(scene, type, Eigen::Vector3d::Zero(), Eigen::Vector3d::Zero(),
                          Eigen::Matrix3d::Identity(), colour);
  if (geom) mjv_makeConnector(geom, type, width, from.x(), from.y(), from.z(), to.x(), to.y(), to.z());
}

/// Andrew's monotone chain: the convex hull, counter-clockwise, without collinear points.
std::vector<Eigen::Vector2d> convexHull(std::vector<Eigen::Vector2d> points)
{
  std::sort(points.begin(), points.end(),
            [](const auto& a, const auto& b) { return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y()); });
  if (points.size() < 3) return points;
  const auto cross = [](const auto& o, const auto& a, const auto& b)
  { return (a.x() - o.x()) * (b.y() - o.y()) - (a.y() - o.y()) * (b.x() - o.x()); };
  std::vector<Eigen::Vector2d> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i)
  {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], points[i]) <= 0)
      --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i > 0; --i)
  {
    while (k >= lower && cross(hull[k - 2], hull[k - 1], points[i - 1]) <= 0)
      --k;
    hull[k++] = points[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}
} // namespace

struct RobotScene::Framework
{
  RobotDescription robot;
  kinematics::Data data;
  collision::BodyShapes shapes;
  std::vector<int> shapeLinks; ///< per shape, its link in robot.model
  Eigen::VectorXd q;

  explicit Framework(const ConfigFiles& files)
      : robot(RobotDescription::load(files)), data(robot.model),
        shapes(collision::BodyShapes::load(files.location.directory, files.location.robot)),
        q(Eigen::VectorXd::Zero(robot.model.coordinateCount()))
  {
    for (const collision::BodyShapes::Shape& shape : shapes.shapes)
    {
      const int link = robot.model.linkIndex(shape.link);
      if (link < 0)
        throw std::runtime_error(shape.where + ": shape '" + shape.name + "' names link '" + shape.link +
                                 "', which the robot description does not have");
      shapeLinks.push_back(link);
    }
  }
};

RobotScene::RobotScene(const std::filesystem::path& configDir, const std::string& robot)
{
  ConfigFiles files;
  files.location.directory = configDir;
  files.location.robot = robot;
  framework_ = std::make_unique<Framework>(files);
  const sim::MjcfSource config = sim::loadMjcfSource(configDir);
  model_ = sim::loadMjcf(sim::buildMjcf(config.urdfFile, config.physics, config.motors)).release();
  data_ = mj_makeData(model_);
  truthData_ = mj_makeData(model_);
  torsoBody_ = sim::requireId(*model_, mjOBJ_BODY, config.physics.torsoLink.c_str());
  for (std::size_t fsr = 0; fsr < config.physics.sole.fsrLinks.size(); ++fsr)
    soleGeoms_.push_back(sim::requireId(*model_, mjOBJ_GEOM, sim::mjcf::fsrGeomName(fsr).c_str()));
  for (const std::string& foot : config.physics.sole.footLinks)
    outlineGeoms_.push_back(sim::requireId(*model_, mjOBJ_GEOM, (foot + sim::mjcf::outlineSuffix).c_str()));
  soleGeoms_.insert(soleGeoms_.end(), outlineGeoms_.begin(), outlineGeoms_.end());
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    const int joint = sim::requireId(*model_, mjOBJ_JOINT, std::string(jointNames[j]).c_str());
    jointQpos_[j] = model_->jnt_qposadr[joint];
    jointBody_[j] = model_->jnt_bodyid[joint];
  }
  for (int e = 0; e < model_->neq; ++e)
    if (model_->eq_type[e] == mjEQ_JOINT && model_->eq_obj2id[e] >= 0)
    {
      mimicQpos_.push_back(
          {model_->jnt_qposadr[model_->eq_obj1id[e]], model_->jnt_qposadr[model_->eq_obj2id[e]]});
      mimicCoefficients_.push_back({model_->eq_data[mjNEQDATA * e], model_->eq_data[mjNEQDATA * e + 1]});
    }
  floorGeom_ = sim::requireId(*model_, mjOBJ_GEOM, sim::mjcf::floorGeom);
  for (int g = 0; g < model_->ngeom; ++g)
  {
    const std::array<float, 4> colour = g == floorGeom_ ? floorColour : robotGrey;
    std::copy(colour.begin(), colour.end(), model_->geom_rgba + 4 * g);
    robotColours_.push_back(colour);
  }
  // The renderer's offscreen framebuffer (allocated once by mjr_makeContext): the largest view drawn at full
  // resolution; a larger one is scaled up.
  model_->vis.global.offwidth = 1280;
  model_->vis.global.offheight = 960;
  // A brighter headlight than MuJoCo's default (ambient 0.1, diffuse 0.4): the grey robot stands out from the floor.
  const float ambient[3] = {0.45f, 0.45f, 0.45f}, diffuse[3] = {0.55f, 0.55f, 0.55f};
  std::copy_n(ambient, 3, model_->vis.headlight.ambient);
  std::copy_n(diffuse, 3, model_->vis.headlight.diffuse);
  mjv_defaultOption(&option_);
  std::fill_n(option_.sitegroup, mjNGROUP, 0); // the URDF's sensor frames: dots that say nothing here
  option_.geomgroup[3] = 1; // the feet's URDF boxes: visual only in the simulator (the soles touch the floor)
  setPose({});
}

RobotScene::~RobotScene()
{
  mj_deleteData(truthData_);
  mj_deleteData(data_);
  mj_deleteModel(model_);
}

void RobotScene::setJointAngles(mjData& data, const JointArray<double>& angles) const
{
  for (std::size_t j = 0; j < numOfJoints; ++j)
    data.qpos[jointQpos_[j]] = std::isfinite(angles[j]) ? angles[j] : 0.0;
  // Joints that follow another (RHipYawPitch, the fingers), as the simulator's equality constraints hold them.
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t i = 0; i < mimicQpos_.size(); ++i)
      data.qpos[mimicQpos_[i][0]] =
          mimicCoefficients_[i][0] + mimicCoefficients_[i][1] * data.qpos[mimicQpos_[i][1]];
}

void RobotScene::placeTruth(const TruePose& truth)
{
  setJointAngles(*truthData_, truth.angles);
  const Eigen::Quaterniond orientation = Eigen::AngleAxisd(truth.rollPitchYaw[2], Eigen::Vector3d::UnitZ()) *
                                         Eigen::AngleAxisd(truth.rollPitchYaw[1], Eigen::Vector3d::UnitY()) *
                                         Eigen::AngleAxisd(truth.rollPitchYaw[0], Eigen::Vector3d::UnitX());
  const double placement[7] = {truth.position.x(), truth.position.y(), truth.position.z(), orientation.w(),
                               orientation.x(),    orientation.y(),    orientation.z()};
  std::copy_n(placement, 7, truthData_->qpos);
  mj_kinematics(model_, truthData_);
}

void RobotScene::setPose(const RobotPose& pose)
{
  Framework& framework = *framework_;
  truth_ = pose.truth.has_value();
  if (truth_) placeTruth(*pose.truth);
  JointArray<double> angles{};
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    angles[j] = pose.angles[j];
    framework.q[static_cast<Eigen::Index>(j)] = std::isfinite(pose.angles[j]) ? pose.angles[j] : 0.0;
  }
  setJointAngles(*data_, angles);
  placeTorso(pose);
  kinematics::forwardKinematics(framework.robot.model, framework.data, framework.q);
  const Eigen::Vector3d torsoCom = kinematics::updateCenterOfMass(framework.robot.model, framework.data);
  const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> torsoRotation(data_->xmat +
                                                                                     9 * torsoBody_);
  const Eigen::Vector3d torso = torsoPosition();
  centerOfMass_ = torsoRotation * torsoCom + torso;
  placedShapes_.clear();
  for (std::size_t s = 0; s < framework.shapes.shapes.size(); ++s)
  {
    const collision::BodyShapes::Shape& shape = framework.shapes.shapes[s];
    const math::Pose& link = framework.data.linkPoses[static_cast<std::size_t>(framework.shapeLinks[s])];
    const Eigen::Vector3d start = torsoRotation * (link * shape.start) + torso;
    const Eigen::Vector3d end = shape.kind == collision::ShapeKind::capsule
                                    ? Eigen::Vector3d(torsoRotation * (link * shape.end) + torso)
                                    : start;
    placedShapes_.push_back({shape.name, start, end, shape.radius});
  }
  stiffness_ = pose.stiffness && pose.stiffness->valid ? pose.stiffness : std::nullopt;
  temperatureColours_ = pose.temperatureColours;
  timeLeftColours_ = pose.timeLeftColours;
  healthColours_ = pose.healthColours;
  // The support polygon: the sole outline corners on the ground.
  std::vector<Eigen::Vector2d> corners;
  for (const int geom : outlineGeoms_)
  {
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> rotation(data_->geom_xmat +
                                                                                  9 * geom);
    const Eigen::Map<const Eigen::Vector3d> centre(data_->geom_xpos + 3 * geom),
        size(model_->geom_size + 3 * geom);
    for (const double x : {-1.0, 1.0})
      for (const double y : {-1.0, 1.0})
      {
        const Eigen::Vector3d corner =
            centre + rotation * Eigen::Vector3d(x * size.x(), y * size.y(), -size.z());
        if (corner.z() <= groundTolerance) corners.emplace_back(corner.x(), corner.y());
      }
  }
  supportPolygon_ = convexHull(std::move(corners));
}

void RobotScene::placeTorso(const RobotPose& pose)
{
  // Roll about x, then pitch about y (the IMU's angles), yaw 0: R = Ry(pitch) Rx(roll); upright at first without.
  mjtNum roll[4], pitch[4];
  const mjtNum xAxis[3] = {1, 0, 0}, yAxis[3] = {0, 1, 0};
  const auto angle = [](float value) { return std::isfinite(value) ? static_cast<mjtNum>(value) : 0.0; };
  mju_axisAngle2Quat(roll, xAxis, pose.torsoAngles ? angle((*pose.torsoAngles)[0]) : 0.0);
  mju_axisAngle2Quat(pitch, yAxis, pose.torsoAngles ? angle((*pose.torsoAngles)[1]) : 0.0);
  mju_mulQuat(data_->qpos + 3, pitch, roll);
  data_->qpos[0] = data_->qpos[1] = data_->qpos[2] = 0;
  mj_kinematics(model_, data_);
  if (!pose.torsoAngles)
  {
    // No IMU: the lower sole (with the torso upright) lies flat on the ground, the torso's heading stays 0.
    int lower = outlineGeoms_.front();
    for (const int geom : outlineGeoms_)
      if (data_->geom_xpos[3 * geom + 2] < data_->geom_xpos[3 * lower + 2]) lower = geom;
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> sole(data_->geom_xmat + 9 * lower);
    Eigen::Matrix3d torso = sole.transpose(); // torso in the sole's frame: the sole becomes level
    torso = Eigen::AngleAxisd(-std::atan2(torso(1, 0), torso(0, 0)), Eigen::Vector3d::UnitZ()) * torso;
    const Eigen::Quaterniond quaternion(torso);
    data_->qpos[3] = quaternion.w();
    data_->qpos[4] = quaternion.x();
    data_->qpos[5] = quaternion.y();
    data_->qpos[6] = quaternion.z();
    mj_kinematics(model_, data_);
  }
  double lowest = std::numeric_limits<double>::infinity();
  for (const int geom : soleGeoms_)
  {
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> rotation(data_->geom_xmat +
                                                                                  9 * geom);
    const Eigen::Map<const Eigen::Vector3d> centre(data_->geom_xpos + 3 * geom),
        size(model_->geom_size + 3 * geom);
    if (model_->geom_type[geom] == mjGEOM_SPHERE)
      lowest = std::min(lowest, centre.z() - size.x());
    else
      for (const double x : {-1.0, 1.0})
        for (const double y : {-1.0, 1.0})
          for (const double z : {-1.0, 1.0})
            lowest = std::min(
                lowest, (centre + rotation * Eigen::Vector3d(x * size.x(), y * size.y(), z * size.z())).z());
  }
  data_->qpos[2] = -lowest;
  if (pose.truth)
  {
    // Beside the truth: at its x, y and turned to its heading (no robot estimates either), soles on the ground.
    mjtNum yaw[4], turned[4];
    const mjtNum zAxis[3] = {0, 0, 1};
    mju_axisAngle2Quat(yaw, zAxis, pose.truth->rollPitchYaw[2]);
    mju_mulQuat(turned, yaw, data_->qpos + 3);
    std::copy_n(turned, 4, data_->qpos + 3);
    data_->qpos[0] = pose.truth->position.x();
    data_->qpos[1] = pose.truth->position.y();
  }
  mj_kinematics(model_, data_);
}

Eigen::Vector3d RobotScene::torsoPosition() const
{
  return Eigen::Map<const Eigen::Vector3d>(data_->xpos + 3 * torsoBody_);
}

Eigen::Vector3d RobotScene::trueTorsoPosition() const
{
  return Eigen::Map<const Eigen::Vector3d>(truthData_->xpos + 3 * torsoBody_);
}

void RobotScene::draw(mjvScene& scene, mjvCamera& camera, const std::array<bool, numOfOverlays>& overlays)
{
  // With the truth, the estimate is the translucent one (and stays so with see-through on).
  const float alpha = overlays[static_cast<std::size_t>(Overlay::seeThrough)] || truth_ ? 0.3f : 1.0f;
  colourGeoms(overlays, alpha);
  const Eigen::Vector3d torso = torsoPosition();
  camera.lookat[0] = torso.x();
  camera.lookat[1] = torso.y();
  camera.lookat[2] = 0.9 * torso.z(); // just below the torso: feet and a raised hand in view
  mjv_updateScene(model_, data_, &option_, nullptr, &camera, mjCAT_ALL, &scene);
  if (truth_)
  {
    // The true robot solid (see-through still applies), its links in the overlays' colours too.
    colourGeoms(overlays, overlays[static_cast<std::size_t>(Overlay::seeThrough)] ? 0.3f : 1.0f);
    mjv_addGeoms(model_, truthData_, &option_, nullptr, mjCAT_DYNAMIC, &scene);
  }
  addOverlays(scene, overlays);
}

void RobotScene::colourGeoms(const std::array<bool, numOfOverlays>& overlays, float alpha)
{
  for (int g = 0; g < model_->ngeom; ++g)
  {
    std::array<float, 4> colour = robotColours_[static_cast<std::size_t>(g)];
    // Both on: the time left is drawn (it is the one a team acts on); a distrusted reading over either (a joint's
    // temperature estimate is no better than its readings).
    for (const auto& [overlay, colours] :
         {std::pair{Overlay::temperature, &temperatureColours_},
          std::pair{Overlay::timeLeft, &timeLeftColours_}, std::pair{Overlay::sensorHealth, &healthColours_}})
      if (overlays[static_cast<std::size_t>(overlay)])
        for (std::size_t j = 0; j < numOfJoints; ++j)
          if ((*colours)[j] && model_->geom_bodyid[g] == jointBody_[j]) colour = *(*colours)[j];
    if (g != floorGeom_) colour[3] *= alpha;
    std::copy(colour.begin(), colour.end(), model_->geom_rgba + 4 * g);
  }
}

void RobotScene::addOverlays(mjvScene& scene, const std::array<bool, numOfOverlays>& overlays) const
{
  const auto on = [&](Overlay overlay) { return overlays[static_cast<std::size_t>(overlay)]; };
  const Eigen::Matrix3d identity = Eigen::Matrix3d::Identity();
  if (on(Overlay::collisionShapes))
    for (const PlacedShape& shape : placedShapes_)
    {
      if ((shape.end - shape.start).norm() < 1e-9)
        addGeom(scene, mjGEOM_SPHERE, Eigen::Vector3d::Constant(shape.radius), shape.start, identity,
                overlayColour::collisionShape);
      else
        addConnector(scene, mjGEOM_CAPSULE, shape.radius, shape.start, shape.end,
                     overlayColour::collisionShape);
    }
  if (on(Overlay::centerOfMass))
  {
    // The CoM itself (inside the body: see-through shows it), its plumb line and its point on the ground.
    addGeom(scene, mjGEOM_SPHERE, Eigen::Vector3d::Constant(0.02), centerOfMass_, identity,
            overlayColour::centerOfMass);
    const Eigen::Vector3d ground(centerOfMass_.x(), centerOfMass_.y(), 0.002);
    addConnector(scene, mjGEOM_CAPSULE, 0.002, centerOfMass_, ground, overlayColour::centerOfMass);
    addGeom(scene, mjGEOM_CYLINDER, Eigen::Vector3d(0.02, 0.02, 0.002), ground, identity,
            overlayColour::centerOfMass);
  }
  if (on(Overlay::supportPolygon) && supportPolygon_.size() >= 2)
    for (std::size_t i = 0; i < supportPolygon_.size(); ++i)
    {
      const Eigen::Vector2d& a = supportPolygon_[i];
      const Eigen::Vector2d& b = supportPolygon_[(i + 1) % supportPolygon_.size()];
      addConnector(scene, mjGEOM_CAPSULE, 0.003, Eigen::Vector3d(a.x(), a.y(), 0.003),
                   Eigen::Vector3d(b.x(), b.y(), 0.003), overlayColour::supportPolygon);
    }
  if (on(Overlay::stiffness) && stiffness_)
  {
    const Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> torsoRotation(data_->xmat +
                                                                                       9 * torsoBody_);
    const Eigen::Vector3d torso = torsoPosition();
    for (const LimbEllipsoid& limb : stiffness_->limbs.values)
    {
      const Eigen::Vector3d endpoint(limb.endpoint[0], limb.endpoint[1], limb.endpoint[2]);
      Eigen::Matrix3d axes;
      Eigen::Vector3d radii;
      for (int i = 0; i < 3; ++i)
      {
        for (int row = 0; row < 3; ++row)
          axes(row, i) = limb.vectors[static_cast<std::size_t>(3 * row + i)];
        const double value = limb.values[static_cast<std::size_t>(i)];
        // The level set of p: long where a displacement costs little torque, capped where it costs none.
        radii[i] = value > 0 ? std::clamp(ellipsoidScale / std::sqrt(value), ellipsoidFloor, ellipsoidCap)
                             : ellipsoidCap;
      }
      if (!axes.allFinite() || !endpoint.allFinite()) continue;
      if (axes.determinant() < 0) axes.col(2) = -axes.col(2); // a rotation for the renderer
      addGeom(scene, mjGEOM_ELLIPSOID, radii, torsoRotation * endpoint + torso, torsoRotation * axes,
              overlayColour::stiffness);
    }
  }
}
} // namespace nao::gui
