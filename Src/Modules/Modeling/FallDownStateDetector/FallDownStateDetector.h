#pragma once
// Whether the robot stands, staggers, falls (and which way), lies (and on which side) or is held in the air
// (FallDownState), from the filtered torso orientation and angular velocity (InertialData) and the feet's load
// (FsrSensorData). A fall is certain when the tilt, predicted `lookahead` ahead at its present rate, passes
// `fallingTilt`, and an independent witness agrees: the feet (a sole rocking on an edge, or the load leaving them) or
// the accelerometer (the torso's acceleration). Only sensors SensorHealth trusts count: a distrusted gyroscope gives
// no rate (the tilt's own change then does), distrusted FSRs neither witness nor say "lifted". Every transition has
// a hysteresis or a time (parameters). No allocation. README.md of this folder.
#include "Framework/Module.h"
#include "Modules/Modeling/FallDownStateDetector/FallDownStateParameters.h"
#include "Modules/Modeling/FallDownStateDetector/FallWitnesses.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/Modeling/FallDownState.h"
#include "Representations/Modeling/RobotModel.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/SensorHealth.h"

namespace nao
{
/// The torso's tilt, the rate at which it grows and where it leans, from InertialData.
struct Tilt
{
  float angle = 0; ///< rad from upright
  float rate = 0;  ///< rad/s, positive: leaning further
  float speed = 0; ///< rad/s, the whole angular speed
  float front = 0; ///< the lean towards the torso's front (−: back), the up vector's share
  float left = 0;  ///< the lean towards the torso's left (−: right)
};

/// Tilt of an orientation (w, x, y, z: torso → world) turning at `gyro` (rad/s, torso frame).
Tilt tiltOf(const std::array<float, 4>& orientation, const std::array<float, 3>& gyro);

class FallDownStateDetector
    : public Module<
          FallDownStateDetector,
          Requires<FrameInfo, InertialData, InertialSensorData, FsrSensorData, SensorHealth, RobotModel>,
          Provides<FallDownState>, Parameters<FallDownStateParameters>>
{
public:
  using Module::Module;
  void update(FallDownState& state);

private:
  /// What this frame says about a fall.
  struct Evidence
  {
    bool lying = false;   ///< still beyond fallenTilt for fallenTime
    bool tipping = false; ///< the tilt and its rate will pass fallingTilt within the lookahead
    bool falling =
        false; ///< tipping (or, without a trusted gyroscope, the accelerometer's dip), and witnessed
    FallWitness witness = FallWitness::none;
  };

  void enter(FallDownState& state, FallState next);
  /// The tilt, its rate from the trusted gyroscope or else from the tilt's own change.
  void updateTilt(float dt);
  /// The feet's load timers (lifted, landed) and the calm and still timers of the tilt.
  void updateTimers(bool fsrTrusted, float dt);
  Evidence evidence(bool fsrTrusted) const;
  /// The state machine: upright, staggering, falling, fallen, lifted.
  void transition(FallDownState& state, const Evidence& evidence);

  double lastTime_ = 0;
  bool seen_ = false;
  float unloadedFor_ = 0; ///< s the feet have been unloaded
  float loadedFor_ = 0;   ///< s the feet have been loaded
  float calmFor_ = 0;     ///< s below uprightTilt and slower than staggerRate
  float stillFor_ = 0;    ///< s above fallenTilt and slower than stillRate
  Tilt tilt_;
  FallWitnesses witnesses_;
  float lastAngle_ = 0; ///< rad, last frame's tilt (the rate without a gyroscope)
  bool haveAngle_ = false;
};
} // namespace nao
