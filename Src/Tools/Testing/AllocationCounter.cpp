#include "Tools/Testing/AllocationCounter.h"
#include <cerrno>
#include <stdexcept>

// glibc's own entry points, which the interposed functions below forward to (aligned_alloc and memalign are
// the same function in glibc 2.36).
extern "C"
{
  void* __libc_malloc(std::size_t size);
  void* __libc_calloc(std::size_t count, std::size_t size);
  void* __libc_realloc(void* pointer, std::size_t size);
  void* __libc_memalign(std::size_t alignment, std::size_t size);
}

namespace
{
// Static TLS of the executable: reading it never allocates (unlike dynamic TLS of a shared library).
thread_local nao::test::ThreadAllocationCount* threadCount = nullptr;

std::atomic<bool> processCounting{false};
std::atomic<std::size_t> processAllocations{0};
std::atomic<std::size_t> processLargestBytes{0};

void raise(std::atomic<std::size_t>& largest, std::size_t bytes)
{
  std::size_t seen = largest.load(std::memory_order_relaxed);
  while (bytes > seen && !largest.compare_exchange_weak(seen, bytes, std::memory_order_relaxed))
  {
  }
}
} // namespace

namespace nao::test
{
void detail::recordAllocation(std::size_t bytes)
{
  if (ThreadAllocationCount* count = threadCount)
  {
    count->allocations_.fetch_add(1, std::memory_order_relaxed);
    raise(count->largestBytes_, bytes);
  }
  if (processCounting.load(std::memory_order_relaxed))
  {
    processAllocations.fetch_add(1, std::memory_order_relaxed);
    raise(processLargestBytes, bytes);
  }
}

ThreadAllocationCount::ThreadAllocationCount() : interrupted_(threadCount)
{
  threadCount = this;
}

ThreadAllocationCount::~ThreadAllocationCount()
{
  // On another thread than the counted one (which has ended then), there is nothing to stop.
  if (threadCount == this) threadCount = interrupted_;
}

ProcessAllocationCount::ProcessAllocationCount()
{
  if (processCounting.load()) throw std::logic_error("only one ProcessAllocationCount at a time");
  processAllocations = 0;
  processLargestBytes = 0;
  processCounting = true;
}

ProcessAllocationCount::~ProcessAllocationCount()
{
  processCounting = false;
}

std::size_t ProcessAllocationCount::allocations() const
{
  return processAllocations.load();
}

std::size_t ProcessAllocationCount::largestBytes() const
{
  return processLargestBytes.load();
}
} // namespace nao::test

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define NAO_SANITIZED_ALLOCATOR 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define NAO_SANITIZED_ALLOCATOR 1
#endif

#ifdef NAO_SANITIZED_ALLOCATOR
// Under AddressSanitizer or ThreadSanitizer the sanitizer owns malloc (memory from __libc_malloc would be foreign to
// it): its allocation hook counts instead, for every allocation the interposed functions below would see.
#include <sanitizer/allocator_interface.h>

namespace
{
void countAllocation(const volatile void*, std::size_t size)
{
  nao::test::detail::recordAllocation(size);
}
void ignoreFree(const volatile void*) {}
[[maybe_unused]] const int hooksInstalled =
    __sanitizer_install_malloc_and_free_hooks(countAllocation, ignoreFree);
} // namespace
#else
extern "C"
{
  void* malloc(std::size_t size)
  {
    nao::test::detail::recordAllocation(size);
    return __libc_malloc(size);
  }
  void* calloc(std::size_t count, std::size_t size)
  {
    nao::test::detail::recordAllocation(count * size);
    return __libc_calloc(count, size);
  }
  void* realloc(void* pointer, std::size_t size)
  {
    nao::test::detail::recordAllocation(size);
    return __libc_realloc(pointer, size);
  }
  // The aligned forms: operator new with an alignment uses aligned_alloc.
  void* aligned_alloc(std::size_t alignment, std::size_t size)
  {
    nao::test::detail::recordAllocation(size);
    return __libc_memalign(alignment, size);
  }
  void* memalign(std::size_t alignment, std::size_t size)
  {
    nao::test::detail::recordAllocation(size);
    return __libc_memalign(alignment, size);
  }
  int posix_memalign(void** memory, std::size_t alignment, std::size_t size)
  {
    nao::test::detail::recordAllocation(size);
    // glibc's checks: a power of two that is a multiple of sizeof(void*).
    if (alignment == 0 || alignment % sizeof(void*) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
    void* pointer = __libc_memalign(alignment, size);
    if (!pointer) return ENOMEM;
    *memory = pointer;
    return 0;
  }
}
#endif
