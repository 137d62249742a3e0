#pragma once
// A bounded lock-free queue for exactly one producer thread and one consumer thread. Capacity is fixed at
// construction; push and pop never allocate and never block: a full queue refuses the element.
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <vector>

namespace nao
{
template<class T>
class SpscQueue
{
public:
  explicit SpscQueue(std::size_t capacity)
      : capacity_(capacity + 1), slots_(std::make_unique<T[]>(capacity + 1))
  {
  }

  /// Producer side. Returns false (and leaves the queue unchanged) when full.
  bool push(const T& value)
  {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    const std::size_t next = advance(head);
    if (next == tail_.load(std::memory_order_acquire)) return false;
    slots_[head] = value;
    head_.store(next, std::memory_order_release);
    return true;
  }

  /// Consumer side. Returns nothing when empty.
  std::optional<T> pop()
  {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail == head_.load(std::memory_order_acquire)) return std::nullopt;
    T value = slots_[tail];
    tail_.store(advance(tail), std::memory_order_release);
    return value;
  }

  bool empty() const
  {
    return tail_.load(std::memory_order_acquire) == head_.load(std::memory_order_acquire);
  }

private:
  std::size_t advance(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  const std::size_t capacity_;
  std::unique_ptr<T[]> slots_;
  alignas(64) std::atomic<std::size_t> head_{0}; ///< next slot the producer writes
  alignas(64) std::atomic<std::size_t> tail_{0}; ///< next slot the consumer reads
};

/// A ring of preallocated objects for one producer and one consumer: the producer fills a slot in place (no
/// copy of the slot itself, no allocation), the consumer reads it in place. Used to hand representation
/// copies from the motion thread to the logger and debug threads.
template<class Slot>
class SlotRing
{
public:
  template<class MakeSlot>
  SlotRing(std::size_t capacity, MakeSlot&& makeSlot) : capacity_(capacity + 1), slots_(capacity + 1)
  {
    for (auto& slot : slots_)
      slot = makeSlot();
  }

  /// Producer: the slot to fill, or nullptr when the consumer has not caught up (the caller drops and
  /// counts).
  Slot* beginWrite()
  {
    const std::size_t head = head_.load(std::memory_order_relaxed);
    if (advance(head) == tail_.load(std::memory_order_acquire)) return nullptr;
    return &*slots_[head];
  }
  void commitWrite()
  {
    head_.store(advance(head_.load(std::memory_order_relaxed)), std::memory_order_release);
  }

  /// Consumer: the oldest filled slot, or nullptr when there is none.
  Slot* beginRead()
  {
    const std::size_t tail = tail_.load(std::memory_order_relaxed);
    if (tail == head_.load(std::memory_order_acquire)) return nullptr;
    return &*slots_[tail];
  }
  void commitRead()
  {
    tail_.store(advance(tail_.load(std::memory_order_relaxed)), std::memory_order_release);
  }

private:
  std::size_t advance(std::size_t i) const { return i + 1 == capacity_ ? 0 : i + 1; }

  const std::size_t capacity_;
  std::vector<std::unique_ptr<Slot>> slots_;
  alignas(64) std::atomic<std::size_t> head_{0};
  alignas(64) std::atomic<std::size_t> tail_{0};
};
} // namespace nao
