#pragma once
// The frames of a robot's log that hold the representations a judge looks at, decoded (Framework/Client/LogDecoder.h;
// link NaoLogReading).
#include "Framework/Client/LogDecoder.h"

#include <cstdint>
#include <filesystem>
#include <tuple>
#include <type_traits>
#include <vector>

namespace nao
{
/// `make(const Representations&...)` of every frame of the log at `log` that holds all of `Representations`, in
/// order; frames without one of them are passed over.
template<class... Representations, class Make>
auto logFramesOf(const std::filesystem::path& log, Make make)
{
  std::vector<std::invoke_result_t<Make&, const Representations&...>> frames;
  LogDecoder decoder(log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (decoder.next(frameNumber, records))
  {
    const std::tuple<const Representations*...> found{recordOf<Representations>(records)...};
    if ((std::get<const Representations*>(found) && ...))
      frames.push_back(make(*std::get<const Representations*>(found)...));
  }
  return frames;
}
} // namespace nao
