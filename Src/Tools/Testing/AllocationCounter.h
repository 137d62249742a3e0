#pragma once
// Counts heap allocations made by the calling thread: this test binary interposes malloc, calloc and realloc
// (which operator new uses), so C and C++ allocations are both seen. Other threads' allocations are not
// counted.
#include <cstddef>

namespace nao::test
{
class ThreadAllocationCount
{
public:
  ThreadAllocationCount();  ///< starts counting on this thread
  ~ThreadAllocationCount(); ///< stops counting
  ThreadAllocationCount(const ThreadAllocationCount&) = delete;
  ThreadAllocationCount& operator=(const ThreadAllocationCount&) = delete;
  std::size_t allocations() const; ///< since construction
};
} // namespace nao::test
