#include "Framework/SensorHealthReporter.h"
#include "Framework/Representation.h"

namespace nao
{
SensorHealthReporter::SensorHealthReporter(Controller& controller, std::FILE* out)
    : controller_(controller), out_(out)
{
  const RepresentationId id = representationId<SensorHealth>();
  const auto& providers = controller_.plan().providerOf;
  const auto provider = providers.find(id);
  if (provider == providers.end() || provider->second == "off") return;
  tap_ = controller_.addTap({id}, 1, ringFrames);
}

SensorHealthReporter::~SensorHealthReporter()
{
  detach();
}

void SensorHealthReporter::detach()
{
  if (tap_) controller_.removeTap(tap_);
  tap_.reset();
}

void SensorHealthReporter::report(double time, const char* name, const SensorCheck& now,
                                  const SensorCheck& before)
{
  if (now.state == before.state && now.fault == before.fault) return;
  const std::string_view state = streams::enumName(now.state);
  const std::string_view fault = streams::enumName(now.fault);
  if (now.state == SensorState::valid)
    std::fprintf(out_, "nao: %.2f s: %s valid again\n", time, name);
  else
    std::fprintf(out_, "nao: %.2f s: %s %.*s (%.*s)\n", time, name, static_cast<int>(state.size()),
                 state.data(), static_cast<int>(fault.size()), fault.data());
  ++lines_;
}

void SensorHealthReporter::poll()
{
  if (!tap_) return;
  while (TapRecord* record = tap_->ring.beginRead())
  {
    const SensorHealth& health = *static_cast<const SensorHealth*>(record->objects.front().get());
    if (health.changes != last_.changes)
    {
      for (std::size_t s = 0; s < numOfSensors; ++s)
        report(record->time, std::string(streams::enumName(static_cast<Sensor>(s))).c_str(),
               health.sensors[s], last_.sensors[s]);
      for (std::size_t j = 0; j < numOfJoints; ++j)
        report(record->time, std::string(jointNames[j]).c_str(), health.joints[j], last_.joints[j]);
      std::fflush(out_);
    }
    last_ = health;
    tap_->ring.commitRead();
  }
}
} // namespace nao
