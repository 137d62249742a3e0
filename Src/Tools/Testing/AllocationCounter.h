#pragma once
// Counts heap allocations for tests that prove a stretch of code allocates nothing, or nothing large. A test
// binary that links NaoAllocationCounter interposes malloc, calloc, realloc and the aligned forms, which
// operator new (also the aligned one) and Eigen's heap temporaries go through, so C and C++ allocations are
// both seen. Nothing is counted unless a count below is alive.
#include <atomic>
#include <cstddef>

namespace nao::test
{
namespace detail
{
void recordAllocation(std::size_t bytes); ///< called by the interposed allocator
} // namespace detail

/// Hands `pointer` to code the compiler cannot see through, so that an allocation whose result is never read stays:
/// C++ lets a compiler drop a `new` with its `delete` (clang 14 does), and a control test's allocation must happen.
inline void keepAllocation(const void* pointer)
{
  asm volatile("" : : "g"(pointer) : "memory");
}

/// Allocations of the thread that constructs it, until it is destroyed there. It may also be constructed on a
/// thread the test does not run itself (e.g. the motion thread, from inside the body it calls), read from the
/// test's thread and destroyed there after that thread has ended.
class ThreadAllocationCount
{
public:
  ThreadAllocationCount();
  ~ThreadAllocationCount();
  ThreadAllocationCount(const ThreadAllocationCount&) = delete;
  ThreadAllocationCount& operator=(const ThreadAllocationCount&) = delete;

  std::size_t allocations() const { return allocations_.load(std::memory_order_relaxed); }
  std::size_t largestBytes() const { return largestBytes_.load(std::memory_order_relaxed); } ///< one request

private:
  friend void detail::recordAllocation(std::size_t bytes);
  ThreadAllocationCount* interrupted_ = nullptr; ///< the count of the same thread this one nests in
  std::atomic<std::size_t> allocations_{0};
  std::atomic<std::size_t> largestBytes_{0};
};

/// Allocations of every thread of the process (e.g. a server thread the test talks to). One at a time.
class ProcessAllocationCount
{
public:
  ProcessAllocationCount();  ///< starts counting
  ~ProcessAllocationCount(); ///< stops counting
  ProcessAllocationCount(const ProcessAllocationCount&) = delete;
  ProcessAllocationCount& operator=(const ProcessAllocationCount&) = delete;

  std::size_t allocations() const;
  std::size_t largestBytes() const; ///< one request
};
} // namespace nao::test
