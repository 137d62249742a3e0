// What of the heat adjustment's tests needs the real framework (Controller and MotionLoop) instead of the rig's
// ModuleHarness: the stage set `off` is the framework's pass-through, in which no module runs, and the stage behind
// real modules is a whole frame of the motion thread. For them, besides the rig's ScriptedBody, providers that
// deliver inputs(), as modules a scenario names: "ScriptedStiffnessRequest" for StiffnessJointRequest and
// "ScriptedEnergySavingRequest" for EnergySavingRequest. This file is a source of the test itself (not of the rig's
// library), so that the modules register.
#include "Framework/Module.h"
#include "Modules/MotionControl/EnergySavingProvider/Tests/EnergySavingRig.h"

namespace nao::energytest
{
class ScriptedStiffnessRequest
    : public Module<ScriptedStiffnessRequest, Requires<FrameInfo>, Provides<StiffnessJointRequest>>
{
public:
  using Module::Module;
  void update(StiffnessJointRequest& request) { request = inputs().request; }
};
MAKE_MODULE(ScriptedStiffnessRequest);

class ScriptedEnergySavingRequest
    : public Module<ScriptedEnergySavingRequest, Requires<FrameInfo>, Provides<EnergySavingRequest>>
{
public:
  using Module::Module;
  void update(EnergySavingRequest& request) { request = inputs().energySaving; }
};
MAKE_MODULE(ScriptedEnergySavingRequest);
} // namespace nao::energytest
