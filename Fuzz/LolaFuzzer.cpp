// LoLA decoder: sensor frames (what the robot binary reads from LoLA or the simulator) and actuator frames (what
// the simulator reads from any client), from arbitrary bytes. Checks beyond "no crash": a decoded frame says it
// consumed no more bytes than it was given, and an error carries its reason.
#include "Platform/LoLA/LolaProtocol.h"
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  // An exact-size copy: AddressSanitizer catches a read one byte past the input.
  const std::vector<std::uint8_t> bytes(data, data + size);
  const std::span<const std::uint8_t> input(bytes.data(), bytes.size());
  nao::LolaSensorFrame sensors;
  const nao::LolaDecodeResult sensorResult = nao::decodeSensorFrame(input, sensors);
  nao::LolaActuatorFrame actuators;
  const nao::LolaDecodeResult actuatorResult = nao::decodeActuatorFrame(input, actuators);
  for (const nao::LolaDecodeResult& result : {sensorResult, actuatorResult})
  {
    if (result.ok() && result.consumed > size) std::abort();
    if (result.status == nao::LolaDecodeStatus::malformed && result.error.view().empty()) std::abort();
  }
  if (actuatorResult.ok())
  {
    nao::LolaActuatorFrame command;
    nao::mergeActuatorFrame(actuators, command);
  }
  return 0;
}
