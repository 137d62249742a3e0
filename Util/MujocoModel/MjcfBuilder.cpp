#include "Util/MujocoModel/MjcfBuilder.h"

#include "Tools/Streams/TomlFiles.h"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <urdf_parser/urdf_parser.h>

namespace nao::sim
{
std::string mjcf::fsrGeomName(std::size_t fsr)
{
  return "fsr" + std::to_string(fsr);
}

namespace
{
// Collision classes: the floor collides with every robot geom, robot geoms never with each other (the URDF's
// primitives overlap at the joints; self-collision avoidance is the robot software's job, not the floor's).
constexpr const char* robotGeom = R"( contype="0" conaffinity="1")";
constexpr const char* visualOnlyGeom = R"( contype="0" conaffinity="0" group="3")";

class Builder
{
public:
  Builder(const std::filesystem::path& urdfFile, const PhysicsParameters& physics,
          const MotorParameters& motors, urdf::ModelInterfaceSharedPtr model)
      : urdfFile_(urdfFile), physics_(physics), motors_(motors), model_(std::move(model))
  {
    out_ << std::setprecision(10);
  }

  std::string build()
  {
    const auto torso = model_->getLink(physics_.torsoLink);
    if (!torso) fail("has no link '" + physics_.torsoLink + "' (physics.toml torsoLink)");
    for (const auto& footLink : physics_.sole.footLinks)
      if (!model_->getLink(footLink))
        fail("has no foot link '" + footLink + "' (physics.toml sole.footLinks)");
    writeHeader();
    out_ << "  <worldbody>\n";
    out_ << R"(    <geom name=")" << mjcf::floorGeom
         << R"(" type="plane" size="0 0 1" contype="1" conaffinity="0" )"
         << R"(friction=")" << physics_.floorFriction << R"( 0.005 0.0001"/>)" << '\n';
    out_ << R"(    <body name=")" << mjcf::liftHandle << R"(" mocap="true"/>)" << '\n';
    out_ << R"(    <body name=")" << torso->name << R"(">)" << '\n';
    out_ << R"(      <freejoint name=")" << mjcf::rootJoint << R"("/>)" << '\n';
    writeLinkContents(*torso, 3);
    out_ << "    </body>\n  </worldbody>\n";
    writeEquality(torso->name);
    writeActuators();
    out_ << "</mujoco>\n";
    return out_.str();
  }

private:
  [[noreturn]] void fail(const std::string& what) const
  {
    throw std::runtime_error("URDF " + urdfFile_.string() + " " + what);
  }

  static std::string indent(int level) { return std::string(static_cast<std::size_t>(level) * 2, ' '); }

  void writeHeader()
  {
    const PhysicsParameters& physics = physics_;
    out_ << R"(<mujoco model=")" << model_->getName() << R"(">)" << '\n';
    out_ << R"(  <compiler angle="radian" inertiafromgeom="false" balanceinertia="true" boundmass="1e-7" )"
         << R"(boundinertia="1e-11" discardvisual="false"/>)" << '\n';
    out_ << R"(  <option timestep=")" << physics.timestep << R"(" gravity="0 0 )" << -physics.gravity
         << R"(" integrator="Euler" solver=")" << physics.solver << R"(" iterations=")"
         << physics.solverIterations << R"(" tolerance=")" << physics.solverTolerance << R"(" cone=")"
         << physics.cone << R"(" jacobian=")" << physics.jacobian << R"("/>)" << '\n';
    out_ << R"(  <size njmax="400" nconmax="80"/>)" << '\n';
    out_ << "  <default>\n";
    out_ << R"(    <geom solref=")" << physics.contactTimeConstant << R"( 1"/>)" << '\n';
    out_ << R"(    <joint limited="true" solreffriction=")" << physics.frictionTimeConstant
         << R"( 1" solimpfriction=")" << physics.frictionImpedance << ' ' << physics.frictionImpedance
         << R"( 0.001 0.5 2"/>)" << '\n';
    out_ << "  </default>\n";
  }

  static void writePose(std::ostream& out, const urdf::Pose& pose)
  {
    const auto& p = pose.position;
    const auto& r = pose.rotation;
    out << R"( pos=")" << p.x << ' ' << p.y << ' ' << p.z << '"';
    if (r.x != 0.0 || r.y != 0.0 || r.z != 0.0)
      out << R"( quat=")" << r.w << ' ' << r.x << ' ' << r.y << ' ' << r.z << '"';
  }

  static urdf::Pose compose(const urdf::Pose& a, const urdf::Pose& b)
  {
    urdf::Pose result;
    result.rotation = a.rotation * b.rotation;
    const urdf::Vector3 rotated = a.rotation * b.position;
    result.position =
        urdf::Vector3(a.position.x + rotated.x, a.position.y + rotated.y, a.position.z + rotated.z);
    return result;
  }

  bool isFootLink(const std::string& name) const
  {
    const auto& feet = physics_.sole.footLinks;
    return std::find(feet.begin(), feet.end(), name) != feet.end();
  }

  static bool needsBody(const urdf::Link& link)
  {
    if ((link.inertial && link.inertial->mass > 0.0) || !link.collision_array.empty()) return true;
    return std::any_of(link.child_links.begin(), link.child_links.end(),
                       [](const auto& child)
                       { return child->parent_joint->type != urdf::Joint::FIXED || needsBody(*child); });
  }

  /// Inertial, geoms, sites and children of a link whose body element is open.
  void writeLinkContents(const urdf::Link& link, int level)
  {
    const std::string pad = indent(level);
    if (link.inertial && link.inertial->mass > 0.0)
    {
      const urdf::Inertial& i = *link.inertial;
      out_ << pad << "<inertial";
      writePose(out_, i.origin);
      out_ << R"( mass=")" << i.mass << R"(" fullinertia=")" << i.ixx << ' ' << i.iyy << ' ' << i.izz << ' '
           << i.ixy << ' ' << i.ixz << ' ' << i.iyz << R"("/>)" << '\n';
    }
    int geomIndex = 0;
    for (const auto& collision : link.collision_array)
      writeCollision(link.name + "_collision" + std::to_string(geomIndex++), *collision,
                     isFootLink(link.name) ? visualOnlyGeom : robotGeom, level);
    if (isFootLink(link.name)) writeSole(link, level);
    for (const auto& child : link.child_links)
      writeChild(*child, urdf::Pose(), level);
  }

  void writeCollision(const std::string& name, const urdf::Collision& collision, const char* classes,
                      int level)
  {
    if (!collision.geometry) return;
    out_ << indent(level) << R"(<geom name=")" << name << '"';
    switch (collision.geometry->type)
    {
    case urdf::Geometry::BOX:
    {
      const auto& d = static_cast<const urdf::Box&>(*collision.geometry).dim;
      out_ << R"( type="box" size=")" << d.x / 2 << ' ' << d.y / 2 << ' ' << d.z / 2 << '"';
      break;
    }
    case urdf::Geometry::SPHERE:
      out_ << R"( type="sphere" size=")" << static_cast<const urdf::Sphere&>(*collision.geometry).radius
           << '"';
      break;
    case urdf::Geometry::CYLINDER:
    {
      const auto& c = static_cast<const urdf::Cylinder&>(*collision.geometry);
      out_ << R"( type="cylinder" size=")" << c.radius << ' ' << c.length / 2 << '"';
      break;
    }
    default:
      fail("has a mesh collision in '" + name + "'; only box, sphere and cylinder are supported");
    }
    writePose(out_, collision.origin);
    out_ << classes << "/>\n";
  }

  /// FSR spheres and the outline box of one foot (geometry.md §4).
  void writeSole(const urdf::Link& foot, int level)
  {
    const SoleParameters& sole = physics_.sole;
    const bool left = foot.name == sole.footLinks[0];
    const double side = left ? 1.0 : -1.0;
    const std::string pad = indent(level);
    for (std::size_t fsr = 0; fsr < sole.fsrLinks.size(); ++fsr)
    {
      const auto fsrLink = model_->getLink(sole.fsrLinks[fsr]);
      if (!fsrLink) fail("has no FSR link '" + sole.fsrLinks[fsr] + "' (physics.toml sole.fsrLinks)");
      if (fsrLink->getParent()->name != foot.name) continue;
      const auto& p = fsrLink->parent_joint->parent_to_joint_origin_transform.position;
      out_ << pad << R"(<geom name=")" << mjcf::fsrGeomName(fsr) << R"(" type="sphere" size=")"
           << sole.fsrRadius << R"(" pos=")" << p.x << ' ' << p.y << ' ' << -sole.soleHeight + sole.fsrRadius
           << '"' << robotGeom << "/>\n";
    }
    const double centerX = (sole.front - sole.back) / 2;
    const double centerY = side * (sole.outer - sole.inner) / 2;
    const double bottom = -sole.soleHeight + sole.clearance;
    out_ << pad << R"(<geom name=")" << foot.name << mjcf::outlineSuffix << R"(" type="box" size=")"
         << (sole.front + sole.back) / 2 << ' ' << (sole.outer + sole.inner) / 2 << ' ' << sole.thickness / 2
         << R"(" pos=")" << centerX << ' ' << centerY << ' ' << bottom + sole.thickness / 2 << '"'
         << robotGeom << "/>\n";
  }

  /// A child link: a body with a hinge, a welded body, or (massless fixed frames) a site.
  void writeChild(const urdf::Link& link, const urdf::Pose& offset, int level)
  {
    const urdf::Joint& joint = *link.parent_joint;
    const urdf::Pose pose = compose(offset, joint.parent_to_joint_origin_transform);
    const std::string pad = indent(level);
    if (joint.type == urdf::Joint::FIXED && !needsBody(link))
    {
      out_ << pad << R"(<site name=")" << link.name << '"';
      writePose(out_, pose);
      out_ << R"( size="0.005"/>)" << '\n';
      for (const auto& child : link.child_links)
        writeChild(*child, pose, level);
      return;
    }
    out_ << pad << R"(<body name=")" << link.name << '"';
    writePose(out_, pose);
    out_ << ">\n";
    if (joint.type == urdf::Joint::REVOLUTE || joint.type == urdf::Joint::CONTINUOUS)
    {
      const auto& a = joint.axis;
      out_ << pad << R"(  <joint name=")" << joint.name << R"(" type="hinge" axis=")" << a.x << ' ' << a.y
           << ' ' << a.z << '"';
      if (joint.type == urdf::Joint::REVOLUTE && joint.limits)
        out_ << R"( range=")" << joint.limits->lower << ' ' << joint.limits->upper << '"';
      else
        out_ << R"( limited="false")";
      // The motor's rotor, reflected through its gear. MuJoCo 2.2 takes armature only from the model text (a
      // change of the model array later is not used), so it is written here.
      const auto lola = std::find(jointNames.begin(), jointNames.end(), joint.name);
      if (lola != jointNames.end())
      {
        const DriveParameters& drive = motors_.drives[static_cast<std::size_t>(
            driveKindOf(jointAt(static_cast<std::size_t>(lola - jointNames.begin()))))];
        const MotorTypeParameters& motor = motors_.motorOf(drive);
        out_ << R"( armature=")" << motor.rotorInertia * drive.gearRatio * drive.gearRatio << '"';
      }
      out_ << "/>\n";
      if (joint.mimic) mimics_.push_back(&joint);
    }
    else if (joint.type != urdf::Joint::FIXED)
      fail("joint '" + joint.name + "': only revolute, continuous and fixed joints are supported");
    writeLinkContents(link, level + 1);
    out_ << pad << "</body>\n";
  }

  void writeEquality(const std::string& torso)
  {
    const PhysicsParameters& physics = physics_;
    out_ << "  <equality>\n";
    for (const urdf::Joint* mimic : mimics_)
    {
      if (!model_->getJoint(mimic->mimic->joint_name))
        fail("mimic joint '" + mimic->name + "' follows unknown joint '" + mimic->mimic->joint_name + "'");
      out_ << R"(    <joint joint1=")" << mimic->name << R"(" joint2=")" << mimic->mimic->joint_name
           << R"(" polycoef=")" << mimic->mimic->offset << ' ' << mimic->mimic->multiplier
           << R"( 0 0 0" solref=")" << physics.couplingTimeConstant << R"( 1"/>)" << '\n';
    }
    out_ << R"(    <weld name=")" << mjcf::liftWeld << R"(" body1=")" << mjcf::liftHandle << R"(" body2=")"
         << torso << R"(" relpose="0 0 0 1 0 0 0" active="false" solref=")" << physics.liftTimeConstant
         << R"( 1"/>)" << '\n';
    out_ << "  </equality>\n";
  }

  void writeActuators()
  {
    out_ << "  <actuator>\n";
    for (const std::string_view name : jointNames)
    {
      if (!model_->getJoint(std::string(name)))
        fail("has no joint '" + std::string(name) + "' (LoLA joint order)");
      out_ << R"(    <motor name=")" << name << R"(" joint=")" << name << R"("/>)" << '\n';
    }
    out_ << "  </actuator>\n";
  }

  const std::filesystem::path& urdfFile_;
  const PhysicsParameters& physics_;
  const MotorParameters& motors_;
  urdf::ModelInterfaceSharedPtr model_;
  std::ostringstream out_;
  std::vector<const urdf::Joint*> mimics_;
};
} // namespace

MjcfSource loadMjcfSource(const std::filesystem::path& configDir)
{
  MjcfSource source;
  streams::loadFromTable(streams::loadTomlFile(configDir / "Sim" / "physics.toml"), source.physics);
  streams::loadFromTable(streams::loadTomlFile(configDir / "Sim" / "motors.toml"), source.motors);
  source.urdfFile = configDir / source.physics.urdf;
  return source;
}

std::string buildMjcf(const std::filesystem::path& urdfFile, const PhysicsParameters& physics,
                      const MotorParameters& motors)
{
  const urdf::ModelInterfaceSharedPtr model = urdf::parseURDFFile(urdfFile.string());
  if (!model) throw std::runtime_error("URDF " + urdfFile.string() + " could not be read or parsed");
  return Builder(urdfFile, physics, motors, model).build();
}
} // namespace nao::sim
