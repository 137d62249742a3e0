#pragma once
// 3-vector arithmetic on top of asmjit's x86::Compiler, written once for both instruction sets: with AVX2 a
// vector (x, y, z, 0) is one ymm register and products use FMA; with SSE it is an xmm pair (x, y) + (z,
// unused) and every operation is done twice. Operations return new virtual registers and never modify their
// inputs, except the explicitly named accumulate*() calls; the compiler's register allocator maps them to
// machine registers.
#include "Tools/Kinematics/Jit/InstructionSet.h"

#include <Eigen/Core>
#include <asmjit/x86.h>
#include <optional>

namespace nao::kinematics::jit
{
namespace x86 = asmjit::x86;

/// A 3-vector held in registers. AVX2: wide = (x, y, z, 0). SSE: xy = (x, y), z = (z, anything).
struct Vec3
{
  x86::Vec wide;
  x86::Xmm xy;
  x86::Xmm z;
};

/// A 3-vector operand: registers, or 4 doubles (x, y, z, 0) in memory at a 32-byte boundary. Constant-pool
/// entries also carry their value, so that products of constants are folded when the code is generated.
struct Vec3Operand
{
  Vec3Operand(const Vec3& registers) : inMemory(false), registers(registers) {}
  Vec3Operand(const x86::Mem& memory) : inMemory(true), memory(memory) {}
  Vec3Operand(const x86::Mem& memory, const Eigen::Vector3d& value)
      : inMemory(true), memory(memory), known(value)
  {
  }
  bool inMemory;
  Vec3 registers;
  x86::Mem memory;
  std::optional<Eigen::Vector3d> known;
};

/// One number in every lane: a register, or a constant-pool entry of the register's width.
struct Splat
{
  Splat(const x86::Vec& reg) : inMemory(false), reg(reg) {}
  Splat(const x86::Mem& memory) : inMemory(true), memory(memory) {}
  bool inMemory;
  x86::Vec reg;
  x86::Mem memory;
};

/// A double in lane 0 of an xmm register.
using Scalar = x86::Xmm;

/// A vector with its components cycled, the operands of a cross product without shuffles at the point of use.
struct Cycled
{
  Vec3Operand yzx; ///< (y, z, x)
  Vec3Operand zxy; ///< (z, x, y)
};

class VectorEmitter
{
public:
  VectorEmitter(x86::Compiler& compiler, InstructionSet instructionSet);

  bool avx() const { return avx_; }

  // Memory and constants.
  Vec3 load(const Vec3Operand& value);
  /// A vector that the caller wrote as two 16-byte halves (x, y), (z, 0): loading it the same way keeps
  /// store-to-load forwarding working right after the write.
  Vec3 loadHalves(const x86::Mem& memory);
  void store(const x86::Mem& destination, const Vec3Operand& value);
  Vec3Operand constant(const Eigen::Vector3d& value); ///< constant-pool entry (x, y, z, 0)
  Splat splat(double value);                          ///< constant-pool entry with value in every lane
  Splat broadcast(const x86::Mem& scalar);            ///< one double from memory into every lane
  Scalar loadScalar(const x86::Mem& scalar);
  void storeScalar(const x86::Mem& destination, const Scalar& value);

  // Element-wise arithmetic.
  Vec3 add(const Vec3Operand& a, const Vec3Operand& b);
  Vec3 subtract(const Vec3Operand& a, const Vec3Operand& b);
  Vec3 multiply(const Vec3Operand& a, const Splat& s);
  Vec3 divide(const Vec3Operand& a, const Splat& s);
  void accumulate(Vec3& sum, const Vec3Operand& b);                                ///< sum += b
  void accumulateNegative(Vec3& sum, const Vec3Operand& b);                        ///< sum -= b
  void accumulateProduct(Vec3& sum, const Vec3Operand& a, const Splat& s);         ///< sum += a * s
  void accumulateNegativeProduct(Vec3& sum, const Vec3Operand& a, const Splat& s); ///< sum -= a * s
  Splat affine(const Splat& x, double multiplier, double offset); ///< multiplier * x + offset

  // Products of 3-vectors.
  Cycled cycle(const Vec3& a);
  void accumulateCross(Vec3& sum, const Cycled& a, const Cycled& b);         ///< sum += a x b; a in registers
  void accumulateNegativeCross(Vec3& sum, const Cycled& a, const Cycled& b); ///< sum -= a x b; a in registers
  Vec3 cross(const Cycled& a, const Cycled& b);                              ///< a x b; a in registers
  Scalar dot(const Vec3& a, const Vec3Operand& b);
  Scalar multiplyScalar(const Scalar& a, double factor);
  void accumulateScalar(Scalar& sum, const Scalar& b); ///< sum += b

private:
  Vec3 newVec3();
  x86::Vec newWide();
  x86::Xmm newXmm();
  x86::Mem xyPart(const x86::Mem& memory) const;
  x86::Mem zPart(const x86::Mem& memory) const;
  x86::Mem splatMemory(const Splat& s, bool scalarLane) const;
  Vec3 registersOf(const Vec3Operand& value); ///< the registers, loading from memory if needed; may alias
  Vec3 ownedCopy(const Vec3Operand& value);   ///< fresh registers the caller may modify
  x86::Vec wideRegister(const Splat& s);
  /// The SSE operand for the (x, y) or z half of a vector.
  asmjit::Operand ssePart(const Vec3Operand& value, bool zHalf) const;
  asmjit::Operand splatOperand(const Splat& s, bool scalarLane) const;
  asmjit::Operand wideOperand(const Vec3Operand& value) const;

  enum class Arithmetic
  {
    add,
    subtract,
    multiply,
    divide
  };
  /// destination (op)= operand, packed on xy or scalar on z (SSE only).
  void sse(Arithmetic op, bool scalar, const x86::Xmm& destination, const asmjit::Operand& operand);
  void addCross(Vec3& sum, const Cycled& a, const Cycled& b, bool negative);
  void avxBinary(Arithmetic op, const x86::Vec& destination, const x86::Vec& a, const asmjit::Operand& b);

  x86::Compiler& cc_;
  bool avx_;
};
} // namespace nao::kinematics::jit
