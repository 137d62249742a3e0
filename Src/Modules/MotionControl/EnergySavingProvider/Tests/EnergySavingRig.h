#pragma once
// A test rig for EnergySavingProvider: the real framework (blackboard, motion loop, controller, Config/) with
// a scripted body and scripted providers of the module's other inputs. A test writes `inputs` (what the
// sensors measure and what the motion source asks for), runs frames and reads the outputs. An optional plant
// turns each frame's final request into the next frame's measured angles and currents.
#include "Framework/Controller.h"
#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"
#include <numbers>

namespace nao::energytest
{
inline constexpr float degree = std::numbers::pi_v<float> / 180.f;
inline constexpr double frameTime = 0.012; ///< s per frame, as LoLA

/// Everything the scripted body and providers deliver.
struct Inputs
{
  StiffnessJointRequest request; ///< the request coming into the stage (rad)
  JointArray<float> measured;    ///< rad
  JointArray<float> currents;    ///< A
  float leftFootWeight = 2.65f;  ///< kg
  float rightFootWeight = 2.65f; ///< kg
  std::array<float, 3> centerOfMass{0.003f, 0.f,
                                    -0.05f}; ///< m, torso frame (the stand's, from the robot model)
  EnergySavingRequest energySaving;
};
Inputs& inputs();

/// B-Human's stand (Config/Modules/StandPoseProvider.toml), stiffness 1.
StiffnessJointRequest standRequest();
/// Requests adjustment of all limbs in `posture`.
EnergySavingRequest requestAll(EnergySavingPosture posture);

/// Turns the final request into measured angles and currents for the next frame.
class Plant
{
public:
  virtual ~Plant() = default;
  virtual void respond(const JointRequest& request, Inputs& inputs) = 0;
};

class ScriptedBody : public Body
{
public:
  bool waitForSensors(BodySensors& sensors) override;
  void send(const JointRequest& request) override;
  const char* name() const override { return "Scripted"; }
  Plant* plant = nullptr;

private:
  std::uint32_t frame_ = 0;
};

struct RigOptions
{
  bool energySavingOn = true; ///< false: JointRequest = "off" (the stage passes its input through)
};

class EnergySavingRig
{
public:
  /// Resets inputs() to the stand with measured == requested, no current, ground contact, adjustment
  /// requested.
  explicit EnergySavingRig(RigOptions options = {});

  void frame();                ///< one motion frame
  void runFor(double seconds); ///< frames covering `seconds`
  /// Frames until `done()` holds (true) or `maxSeconds` passed (false).
  template<class Done>
  bool runUntil(Done done, double maxSeconds)
  {
    for (double start = time(); time() - start < maxSeconds;)
    {
      frame();
      if (done()) return true;
    }
    return false;
  }
  /// Frames until the state becomes `state` (or maxSeconds passed).
  bool runUntilState(EnergySavingState state, double maxSeconds = 10.0);
  /// Frames until the next adjustment round has run (EnergySaving::rounds grew).
  bool runUntilNextRound(double maxSeconds = 2.0);

  double time() const { return blackboard.get<FrameInfo>().time; }
  const EnergySaving& energy() const { return blackboard.get<EnergySaving>(); }
  EnergySavingState state() const { return energy().state; }
  const JointRequest& output() const { return blackboard.get<JointRequest>(); }
  /// rad, output - incoming request of `joint`.
  float offset(Joint joint) const { return output().angles[joint] - inputs().request.angles[joint]; }
  /// Live parameter edit, as the debug channel does it; fails the test on error.
  void setParameter(const std::string& keyPath, const std::string& value);

  Blackboard blackboard;
  ScriptedBody body;
  MotionLoop motion{blackboard, body};
  Controller controller;
};
} // namespace nao::energytest
