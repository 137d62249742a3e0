#include "Modules/MotionControl/StandPoseProvider/StandPoseProvider.h"
#include <algorithm>

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
  const double t = duration > 0 ? std::clamp((now - transitionStart_) / duration, 0.0, 1.0) : 1.0;
  const float blend =
      static_cast<float>(t * t * (3.0 - 2.0 * t)); // smoothstep: no velocity jump at either end
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
