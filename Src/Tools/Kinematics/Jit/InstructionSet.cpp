#include "Tools/Kinematics/Jit/InstructionSet.h"

#include <asmjit/core.h>

namespace nao::kinematics::jit
{
std::string_view name(InstructionSet instructionSet)
{
  return instructionSet == InstructionSet::avx2Fma ? "AVX2+FMA" : "SSE4.1";
}

std::optional<InstructionSet> hostInstructionSet(bool allowAvx2)
{
  const asmjit::CpuFeatures::X86& features = asmjit::CpuInfo::host().features().x86();
  if (allowAvx2 && features.hasAVX2() && features.hasFMA()) return InstructionSet::avx2Fma;
  if (features.hasSSE4_1() && features.hasSSE3()) return InstructionSet::sse41;
  return std::nullopt;
}
} // namespace nao::kinematics::jit
