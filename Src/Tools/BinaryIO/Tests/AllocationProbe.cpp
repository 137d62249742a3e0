#include "AllocationProbe.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace
{
std::atomic<bool> recording{false};
std::atomic<std::size_t> largestRequest{0};
std::atomic<std::size_t> requests{0};

void record(std::size_t bytes)
{
  if (!recording.load(std::memory_order_relaxed)) return;
  requests.fetch_add(1, std::memory_order_relaxed);
  std::size_t largest = largestRequest.load(std::memory_order_relaxed);
  while (bytes > largest && !largestRequest.compare_exchange_weak(largest, bytes, std::memory_order_relaxed))
  {
  }
}

void* allocate(std::size_t bytes)
{
  record(bytes);
  if (void* memory = std::malloc(bytes == 0 ? 1 : bytes)) return memory;
  throw std::bad_alloc();
}

void* allocateAligned(std::size_t bytes, std::align_val_t alignment)
{
  record(bytes);
  const auto alignmentBytes = static_cast<std::size_t>(alignment);
  // aligned_alloc wants a size that is a multiple of the alignment.
  const std::size_t rounded = (bytes + alignmentBytes - 1) / alignmentBytes * alignmentBytes;
  if (void* memory = std::aligned_alloc(alignmentBytes, rounded == 0 ? alignmentBytes : rounded))
    return memory;
  throw std::bad_alloc();
}
} // namespace

void* operator new(std::size_t bytes)
{
  return allocate(bytes);
}
void* operator new[](std::size_t bytes)
{
  return allocate(bytes);
}
void* operator new(std::size_t bytes, const std::nothrow_t&) noexcept
{
  try
  {
    return allocate(bytes);
  }
  catch (const std::bad_alloc&)
  {
    return nullptr;
  }
}
void* operator new[](std::size_t bytes, const std::nothrow_t& tag) noexcept
{
  return operator new(bytes, tag);
}
void* operator new(std::size_t bytes, std::align_val_t alignment)
{
  return allocateAligned(bytes, alignment);
}
void* operator new[](std::size_t bytes, std::align_val_t alignment)
{
  return allocateAligned(bytes, alignment);
}
void operator delete(void* memory) noexcept
{
  std::free(memory);
}
void operator delete[](void* memory) noexcept
{
  std::free(memory);
}
void operator delete(void* memory, std::size_t) noexcept
{
  std::free(memory);
}
void operator delete[](void* memory, std::size_t) noexcept
{
  std::free(memory);
}
void operator delete(void* memory, std::align_val_t) noexcept
{
  std::free(memory);
}
void operator delete[](void* memory, std::align_val_t) noexcept
{
  std::free(memory);
}
void operator delete(void* memory, std::size_t, std::align_val_t) noexcept
{
  std::free(memory);
}
void operator delete[](void* memory, std::size_t, std::align_val_t) noexcept
{
  std::free(memory);
}

namespace nao::binaryio::test
{
AllocationProbe::AllocationProbe()
{
  largestRequest = 0;
  requests = 0;
  recording = true;
}

AllocationProbe::~AllocationProbe()
{
  recording = false;
}

std::size_t AllocationProbe::largestRequestBytes() const
{
  return largestRequest.load();
}
std::size_t AllocationProbe::requestCount() const
{
  return requests.load();
}
} // namespace nao::binaryio::test
