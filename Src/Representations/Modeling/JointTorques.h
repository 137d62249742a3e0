#pragma once
// The static torque each joint's motor must produce to hold the measured posture against gravity, with the
// torso carried by the feet as the FSRs say (sign convention: Src/Tools/Kinematics/Conventions.h: the torque
// the motor must produce to hold the posture).
#include "Representations/Infrastructure/Joints.h"
#include "Tools/Streams/Enum.h"
#include "Tools/Streams/Field.h"
#include <cstdint>

namespace nao
{
/// How the feet were taken to carry the robot (Tools/Kinematics/FsrContact.h).
NAO_ENUM(
    SupportModel, std::uint8_t,
    fsr, ///< per-foot load and centre of pressure as the FSRs measure them, scaled to the robot's weight
    comProjection, ///< FSRs unusable: the weight split by where the centre of mass projects between the soles
    noContact,     ///< FSRs read almost nothing: lifted; fixed torso, gravity torques only
);

struct JointTorques
{
  JointArray<float> torques; ///< N·m per joint; LHipYawPitch is the shared motor's: both hips summed
  SupportModel supportModel = SupportModel::noContact;
  std::array<float, 2> footLoad{};            ///< N carried by the left and right sole
  std::array<float, 3> gravity{0, 0, -9.81f}; ///< m/s² in the torso frame, from the torso angles
  bool valid = false; ///< false until the first computation, or when the inputs were not finite
  /// The FSRs of both feet and the accelerometer (the tilt's reference) were trusted (SensorHealth): a stage may
  /// lower a limit on these torques. False: a fallback model or a tilt that may be off; use them with care.
  bool sensorsTrusted = false;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& streams::field("torques", torques).unit(streams::Unit::newtonMeters) &
        BOOST_SERIALIZATION_NVP(supportModel) &
        streams::field("footLoad", footLoad).unit(streams::Unit::newtons) &
        streams::field("gravity", gravity).unit(streams::Unit::metersPerSecondSquared) &
        BOOST_SERIALIZATION_NVP(valid) & BOOST_SERIALIZATION_NVP(sensorsTrusted);
  }
};
} // namespace nao
