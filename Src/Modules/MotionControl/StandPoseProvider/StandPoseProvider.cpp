#include "Modules/MotionControl/StandPoseProvider/StandPoseProvider.h"
#include "Tools/Math/Smoothstep.h"

namespace nao
{
void StandPoseProvider::update(MotionJointRequest& request)
{
  const double now = get<FrameInfo>().time;
  if (restart_)
  {
    from_ = hasOutput_ ? last_.angles : get<JointSensorData>().angles;
    transitionStart_ = now;
    restart_ = false;
  }
  const double duration = params().transitionTime;
  const float blend = smoothstep(transitionProgress(now - transitionStart_, duration));
  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    request.angles[j] = from_[j] + blend * (params().angles[j] - from_[j]);
    request.stiffnesses[j] = params().stiffnesses[j];
  }
  last_ = request;
  hasOutput_ = true;
}

MAKE_MODULE(StandPoseProvider);
} // namespace nao
