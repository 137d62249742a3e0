#pragma once
// Which vector instructions the generated code and the sine/cosine routine use, chosen at run time: the NAO
// V6's Atom E3845 has SSE4.2 but no AVX; development PCs mostly have AVX2 and FMA.
#include <cstdint>
#include <optional>
#include <string_view>

namespace nao::kinematics::jit
{
enum class InstructionSet : std::uint8_t
{
  sse41,   ///< SSE2 to SSE4.1: two doubles per register, no fused multiply-add
  avx2Fma, ///< AVX2 and FMA3: four doubles per register, fused multiply-add
};

std::string_view name(InstructionSet instructionSet);

/// The widest set this CPU runs (AVX2 + FMA only if allowAvx2), or nullopt if it cannot run generated code at
/// all (no SSE4.1). Uses asmjit's CPU detection, which also checks that the OS saves the AVX registers.
std::optional<InstructionSet> hostInstructionSet(bool allowAvx2 = true);
} // namespace nao::kinematics::jit
