// SpscQueue and SlotRing from two threads at once: every item must arrive exactly once, in order, and whole (a
// slot read while the producer still writes it would show a torn record). Capacities of a few dozen keep the queues
// alternately full and empty, so both the "full" and the "empty" paths race. Make/sanitize runs this under
// ThreadSanitizer, which also reports any access to a slot that the atomics do not order.
#include "Tools/Containers/SpscQueue.h"
#include <array>
#include <cstdint>
#include <gtest/gtest.h>
#include <thread>

namespace
{
constexpr std::uint64_t itemCount = 50000;

/// A record larger than one machine word: a torn copy shows as words that disagree with `sequence`.
struct Record
{
  std::uint64_t sequence = 0;
  std::array<std::uint64_t, 15> words{};

  void fill(std::uint64_t value)
  {
    sequence = value;
    for (std::size_t i = 0; i < words.size(); ++i)
      words[i] = value * 31 + i;
  }
  bool whole() const
  {
    for (std::size_t i = 0; i < words.size(); ++i)
      if (words[i] != sequence * 31 + i) return false;
    return true;
  }
};
} // namespace

TEST(SpscQueueStress, EveryItemArrivesOnceInOrderAndWhole)
{
  nao::SpscQueue<Record> queue(31);
  std::uint64_t refused = 0;
  std::thread producer(
      [&]
      {
        Record record;
        for (std::uint64_t i = 0; i < itemCount; ++i)
        {
          record.fill(i);
          while (!queue.push(record))
          {
            ++refused;
            std::this_thread::yield();
          }
        }
      });
  std::uint64_t expected = 0, torn = 0, outOfOrder = 0;
  while (expected < itemCount)
  {
    const std::optional<Record> record = queue.pop();
    if (!record)
    {
      std::this_thread::yield();
      continue;
    }
    torn += !record->whole();
    outOfOrder += record->sequence != expected;
    expected = record->sequence + 1;
  }
  producer.join();
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(outOfOrder, 0u) << "an item was lost, repeated or reordered";
  EXPECT_EQ(expected, itemCount);
  EXPECT_TRUE(queue.empty()) << "nothing may arrive after the last item";
  EXPECT_FALSE(queue.pop().has_value());
  RecordProperty("producerRefusals", static_cast<int>(refused));
}

TEST(SpscQueueStress, AFullQueueRefusesAndKeepsItsItems)
{
  nao::SpscQueue<int> queue(3);
  EXPECT_TRUE(queue.push(1));
  EXPECT_TRUE(queue.push(2));
  EXPECT_TRUE(queue.push(3));
  EXPECT_FALSE(queue.push(4)) << "capacity 3";
  EXPECT_EQ(queue.pop(), 1);
  EXPECT_TRUE(queue.push(4));
  EXPECT_EQ(queue.pop(), 2);
  EXPECT_EQ(queue.pop(), 3);
  EXPECT_EQ(queue.pop(), 4);
  EXPECT_FALSE(queue.pop().has_value());
}

TEST(SlotRingStress, EverySlotIsReadOnceInOrderAndWhole)
{
  nao::SlotRing<Record> ring(31, [] { return std::make_unique<Record>(); });
  std::thread producer(
      [&]
      {
        for (std::uint64_t i = 0; i < itemCount; ++i)
        {
          Record* slot = nullptr;
          while (!(slot = ring.beginWrite()))
            std::this_thread::yield();
          // Filled in place, word by word, after beginWrite: the consumer must not see it before commitWrite.
          slot->fill(i);
          ring.commitWrite();
        }
      });
  std::uint64_t expected = 0, torn = 0, outOfOrder = 0;
  while (expected < itemCount)
  {
    const Record* slot = ring.beginRead();
    if (!slot)
    {
      std::this_thread::yield();
      continue;
    }
    torn += !slot->whole();
    outOfOrder += slot->sequence != expected;
    expected = slot->sequence + 1;
    ring.commitRead();
  }
  producer.join();
  EXPECT_EQ(torn, 0u);
  EXPECT_EQ(outOfOrder, 0u) << "a slot was lost, repeated or reordered";
  EXPECT_EQ(expected, itemCount);
  EXPECT_EQ(ring.beginRead(), nullptr) << "nothing may arrive after the last slot";
}

TEST(SlotRingStress, AFullRingRefusesTheWriter)
{
  nao::SlotRing<Record> ring(2, [] { return std::make_unique<Record>(); });
  for (std::uint64_t i = 0; i < 2; ++i)
  {
    Record* slot = ring.beginWrite();
    ASSERT_NE(slot, nullptr);
    slot->fill(i);
    ring.commitWrite();
  }
  EXPECT_EQ(ring.beginWrite(), nullptr) << "capacity 2";
  ASSERT_NE(ring.beginRead(), nullptr);
  EXPECT_EQ(ring.beginRead()->sequence, 0u);
  ring.commitRead();
  EXPECT_NE(ring.beginWrite(), nullptr) << "one slot freed";
}
