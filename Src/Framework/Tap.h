#pragma once
// A tap copies some representations out of the motion thread every n-th frame into a ring of preallocated
// records, for the logger or a debug-channel subscriber. The motion thread never waits: when the ring is full
// the frame is dropped and counted.
#include "Framework/Representation.h"
#include "Tools/Containers/SpscQueue.h"
#include <atomic>

namespace nao
{
struct TapRecord
{
  std::uint32_t frameNumber = 0;
  double time = 0.0;                         ///< s, FrameInfo::time
  std::vector<RepresentationObject> objects; ///< one per Tap::ids entry
};

struct Tap
{
  Tap(std::vector<RepresentationId> representations, std::uint32_t everyNthFrame, std::size_t capacity)
      : ids(std::move(representations)), everyNthFrame(everyNthFrame == 0 ? 1 : everyNthFrame),
        ring(capacity,
             [this]
             {
               auto record = std::make_unique<TapRecord>();
               for (RepresentationId id : ids)
                 record->objects.push_back(RepresentationRegistry::instance().create(id));
               return record;
             })
  {
  }

  const std::vector<RepresentationId> ids;
  const std::uint32_t everyNthFrame;
  SlotRing<TapRecord> ring;
  std::atomic<std::uint64_t> copied{0};  ///< records handed over
  std::atomic<std::uint64_t> dropped{0}; ///< records lost because the consumer fell behind
};
} // namespace nao
