#include "Tools/Testing/AllocationCounter.h"
#include <cstdlib>

extern "C"
{
  void* __libc_malloc(std::size_t size);
  void* __libc_calloc(std::size_t count, std::size_t size);
  void* __libc_realloc(void* pointer, std::size_t size);
}

namespace
{
// Static TLS of the executable: reading it never allocates (unlike dynamic TLS of a shared library).
thread_local bool counting = false;
thread_local std::size_t allocationCount = 0;

void count()
{
  if (counting) ++allocationCount;
}
} // namespace

extern "C"
{
  void* malloc(std::size_t size)
  {
    count();
    return __libc_malloc(size);
  }
  void* calloc(std::size_t number, std::size_t size)
  {
    count();
    return __libc_calloc(number, size);
  }
  void* realloc(void* pointer, std::size_t size)
  {
    count();
    return __libc_realloc(pointer, size);
  }
}

namespace nao::test
{
ThreadAllocationCount::ThreadAllocationCount()
{
  allocationCount = 0;
  counting = true;
}

ThreadAllocationCount::~ThreadAllocationCount()
{
  counting = false;
}

std::size_t ThreadAllocationCount::allocations() const
{
  return allocationCount;
}
} // namespace nao::test
