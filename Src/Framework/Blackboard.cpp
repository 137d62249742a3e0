#include "Framework/Blackboard.h"

namespace nao
{
Blackboard::Blackboard()
{
  registerFrameworkRepresentations(); // the types the frame loop itself touches exist even without modules

  const auto& registry = RepresentationRegistry::instance();
  entries_.reserve(registry.size());
  for (RepresentationId id = 0; id < registry.size(); ++id)
    entries_.push_back({registry.create(id), registry.create(id), registry.create(id)});
}
} // namespace nao

#include "Platform/Body.h"
#include "Representations/Infrastructure/ModuleTimes.h"
namespace nao
{
void registerFrameworkRepresentations()
{
  representationId<FrameInfo>();
  representationId<JointSensorData>();
  representationId<FsrSensorData>();
  representationId<InertialSensorData>();
  representationId<BatteryData>();
  representationId<TouchData>();
  representationId<UnreadableReadings>();
  representationId<JointRequest>();
  representationId<ModuleTimes>();
}
} // namespace nao
