#pragma once
// How the motion thread reaches a body: the robot through LoLA, the simulator, or the in-process stand-in.
// The body paces the motion thread: waitForSensors() blocks until the next packet (12 ms on the robot).
#include "Representations/Infrastructure/BatteryData.h"
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/JointRequest.h"
#include "Representations/Sensing/FsrSensorData.h"
#include "Representations/Sensing/InertialSensorData.h"
#include "Representations/Sensing/JointSensorData.h"
#include "Representations/Sensing/TouchData.h"
#include "Representations/Sensing/UnreadableReadings.h"

namespace nao
{
/// The representations a body fills before any module runs.
struct BodySensors
{
  FrameInfo& frameInfo;
  JointSensorData& joints;
  FsrSensorData& fsr;
  InertialSensorData& inertial;
  BatteryData& battery;
  TouchData& touch;
  UnreadableReadings& unreadable; ///< which of this frame's values kept their last good value instead
};

class Body
{
public:
  virtual ~Body() = default;
  /// Blocks until the next sensor packet and fills `sensors`. Returns false when the body has ended
  /// (simulator closed, scripted run over); the motion thread then stops. Must not allocate after the first
  /// call.
  virtual bool waitForSensors(BodySensors& sensors) = 0;
  /// Sends the final request of this frame. Must not allocate or block beyond a socket write.
  virtual void send(const JointRequest& request) = 0;
  virtual const char* name() const = 0;
};
} // namespace nao
