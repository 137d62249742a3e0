#include "AllocationProbe.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace
{
std::atomic<std::size_t> largestAllocation{0};

void record(std::size_t size)
{
  std::size_t seen = largestAllocation.load(std::memory_order_relaxed);
  while (size > seen && !largestAllocation.compare_exchange_weak(seen, size, std::memory_order_relaxed))
  {
  }
}
} // namespace

namespace nao::network::test
{
void resetLargestAllocation()
{
  largestAllocation.store(0, std::memory_order_relaxed);
}

std::size_t largestAllocationBytes()
{
  return largestAllocation.load(std::memory_order_relaxed);
}
} // namespace nao::network::test

// Replacing the plain forms is enough: the array and nothrow forms of libstdc++ forward to them.
void* operator new(std::size_t size)
{
  record(size);
  if (void* memory = std::malloc(size == 0 ? 1 : size)) return memory;
  throw std::bad_alloc();
}

void operator delete(void* memory) noexcept
{
  std::free(memory);
}

void operator delete(void* memory, std::size_t) noexcept
{
  std::free(memory);
}
