#pragma once
// Config/Sim/physics.toml: scene, solver, sole and FSR geometry, events. Code holds SI units (m, s); the file
// may use mm and ms as stated per field. The values live only in the file, with their sources; every member here
// starts at zero or empty (PlantValuesLiveOnlyInConfigSim).
#include "Tools/Streams/Field.h"

#include <array>
#include <string>

namespace nao::sim
{
/// Sole contact and FSR geometry, per foot in the frame of the foot link (x forward, y left; right foot
/// mirrored). Values: physics.toml [sole].
struct SoleParameters
{
  std::array<std::string, 2> footLinks{}; ///< left, right; their URDF collision boxes do not touch the floor
  double soleHeight = 0.0;                ///< m below the foot link origin (file: mm)
  /// URDF links of the 8 FSRs in LoLA order (lola.md §5); their x, y place the contact spheres.
  std::array<std::string, 8> fsrLinks{};
  double fsrRadius = 0.0; ///< m, contact sphere under each FSR (file: mm)
  double front = 0.0;     ///< m, sole outline from the point below the ankle (file: mm)
  double back = 0.0;      ///< m (file: mm)
  double outer = 0.0;     ///< m, towards the robot's outside (+y on the left foot) (file: mm)
  double inner = 0.0;     ///< m (file: mm)
  double clearance = 0.0; ///< m, the outline box floats this far above the sole plane (file: mm)
  double thickness = 0.0; ///< m, of the outline box (file: mm)

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("footLinks", footLinks);
    ar& field("soleHeight", soleHeight).unit(Unit::millimeters).range(0.0, 100.0);
    ar& field("fsrLinks", fsrLinks);
    ar& field("fsrRadius", fsrRadius).unit(Unit::millimeters).range(0.5, 20.0);
    ar& field("front", front).unit(Unit::millimeters).range(10.0, 300.0);
    ar& field("back", back).unit(Unit::millimeters).range(10.0, 300.0);
    ar& field("outer", outer).unit(Unit::millimeters).range(10.0, 200.0);
    ar& field("inner", inner).unit(Unit::millimeters).range(10.0, 200.0);
    ar& field("clearance", clearance).unit(Unit::millimeters).range(0.0, 10.0);
    ar& field("thickness", thickness).unit(Unit::millimeters).range(1.0, 50.0);
  }
};

/// All of physics.toml.
struct PhysicsParameters
{
  std::string urdf;                  ///< relative to the Config folder
  std::string torsoLink;             ///< the floating base
  std::string accelerometerLink;     ///< URDF frame of the IMU's accelerometer
  std::string gyroscopeLink;         ///< URDF frame of the IMU's gyroscope
  double timestep = 0.0;             ///< s, physics step (file: ms)
  double frameTime = 0.0;            ///< s, one LoLA frame (file: ms)
  double gravity = 0.0;              ///< m/s²; FSR kg = N / gravity
  std::string solver;                ///< MuJoCo constraint solver: Newton, CG or PGS
  std::string cone;                  ///< MuJoCo friction cone: elliptic or pyramidal
  std::string jacobian;              ///< MuJoCo constraint Jacobian: sparse, dense or auto
  int solverIterations = 0;          ///< iterations per step (upper bound)
  double solverTolerance = 0.0;      ///< relative cost improvement that ends the iterations
  double floorFriction = 0.0;        ///< sliding friction coefficient sole/floor
  double contactTimeConstant = 0.0;  ///< s, MuJoCo solref of floor contacts (file: ms)
  double couplingTimeConstant = 0.0; ///< s, solref of the RHipYawPitch = LHipYawPitch constraint (file: ms)
  double frictionImpedance = 0.0;    ///< MuJoCo solimp of joint friction and limits: closer to 1 creeps less
  double frictionTimeConstant = 0.0; ///< s, MuJoCo solref of joint friction (file: ms)
  /// Divides MuJoCo's regularisation of joint friction and limit constraints (the dofs' invweight0): a stuck
  /// joint under load creeps at a speed proportional to it.
  double frictionHardness = 0.0;
  /// Sleep: after sleepSteps steps in which every dof is slower than sleepVelocity (rad/s, m/s), accelerates
  /// less than sleepAcceleration and no motor torque changes by more than sleepTorque, the robot is at rest
  /// and MuJoCo is not stepped until a torque, the command or an event changes something. 0 disables
  /// sleeping.
  double sleepVelocity = 0.0;
  double sleepAcceleration = 0.0; ///< rad/s², m/s²
  double sleepTorque = 0.0;       ///< N·m
  int sleepSteps = 0;
  double liftHeight = 0.0;       ///< m, "pick up" raises the torso this much (file: mm)
  double liftDuration = 0.0;     ///< s, time to lift or to put down (file: ms)
  double liftTimeConstant = 0.0; ///< s, solref of the weld that holds a lifted robot (file: ms)
  SoleParameters sole;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    using streams::field;
    using streams::Unit;
    ar& field("urdf", urdf);
    ar& field("torsoLink", torsoLink);
    ar& field("accelerometerLink", accelerometerLink);
    ar& field("gyroscopeLink", gyroscopeLink);
    ar& field("timestep", timestep).unit(Unit::milliseconds).range(0.05, 5.0);
    ar& field("frameTime", frameTime).unit(Unit::milliseconds).range(1.0, 100.0);
    ar& field("gravity", gravity).range(0.0, 20.0);
    ar& field("solver", solver);
    ar& field("cone", cone);
    ar& field("jacobian", jacobian);
    ar& field("solverIterations", solverIterations).range(1, 1000);
    ar& field("solverTolerance", solverTolerance).range(0.0, 1e-2);
    ar& field("floorFriction", floorFriction).range(0.0, 5.0);
    ar& field("contactTimeConstant", contactTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("couplingTimeConstant", couplingTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("frictionImpedance", frictionImpedance).range(0.5, 0.9999);
    ar& field("frictionTimeConstant", frictionTimeConstant).unit(Unit::milliseconds).range(0.1, 100.0);
    ar& field("frictionHardness", frictionHardness).range(1.0, 1e6);
    ar& field("sleepVelocity", sleepVelocity).range(0.0, 1.0);
    ar& field("sleepAcceleration", sleepAcceleration).range(0.0, 100.0);
    ar& field("sleepTorque", sleepTorque).range(0.0, 1.0);
    ar& field("sleepSteps", sleepSteps).range(1, 100000);
    ar& field("liftHeight", liftHeight).unit(Unit::millimeters).range(0.0, 1000.0);
    ar& field("liftDuration", liftDuration).unit(Unit::milliseconds).range(1.0, 10000.0);
    ar& field("liftTimeConstant", liftTimeConstant).unit(Unit::milliseconds).range(0.1, 1000.0);
    ar& field("sole", sole);
  }
};

} // namespace nao::sim
