#include "Modules/MotionControl/EnergySavingProvider/EnergySavingProvider.h"

namespace nao
{
EnergySavingProvider::EnergySavingProvider(const ModuleContext& context)
    : Module(context), rounds_(params()), cycle_(params(), rounds_)
{
}

void EnergySavingProvider::update(JointRequest& request, EnergySaving& energySaving)
{
  runCycle();
  cycle_.answer(get<StiffnessJointRequest>(), request);
  energySaving = cycle_.status();
}

void EnergySavingProvider::runCycle()
{
  rounds_.use(params());
  cycle_.run({get<StiffnessJointRequest>(), get<JointSensorData>(), get<FilteredCurrent>(), get<RobotModel>(),
              get<JointLimits>(), get<InertialSensorData>(), get<FsrSensorData>(), get<FrameInfo>(),
              get<EnergySavingRequest>(), get<JointTorques>(),
              motionSourceHolds(get<FallDownState>(), get<SitDown>(), get<FallProtection>())},
             params());
}

MAKE_MODULE(EnergySavingProvider);
} // namespace nao
