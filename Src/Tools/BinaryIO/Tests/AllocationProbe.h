#pragma once
// Replaces the global operator new of the test binary so that a test can prove that no large (or no)
// allocation happened in a stretch of code: a forged size field must never reach the allocator.

#include <cstddef>

namespace nao::binaryio::test
{
/// Records allocations between construction and destruction (of this thread and any other).
class AllocationProbe
{
public:
  AllocationProbe();
  ~AllocationProbe();
  AllocationProbe(const AllocationProbe&) = delete;
  AllocationProbe& operator=(const AllocationProbe&) = delete;

  std::size_t largestRequestBytes() const;
  std::size_t requestCount() const;
};
} // namespace nao::binaryio::test
