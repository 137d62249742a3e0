#pragma once
// Records the largest single heap allocation made through operator new by any thread of the test
// binary, so tests can prove that a hostile length field never turns into a large allocation.
#include <cstddef>

namespace nao::network::test
{
void resetLargestAllocation();
std::size_t largestAllocationBytes();
} // namespace nao::network::test
