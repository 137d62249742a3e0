#include "Tools/Kinematics/Jit/VectorEmitter.h"

#include <array>

namespace nao::kinematics::jit
{
namespace
{
x86::Mem sized(const x86::Mem& memory, std::uint32_t bytes)
{
  x86::Mem copy = memory;
  copy.setSize(bytes);
  return copy;
}

} // namespace

VectorEmitter::VectorEmitter(x86::Compiler& compiler, InstructionSet instructionSet)
    : cc_(compiler), avx_(instructionSet == InstructionSet::avx2Fma)
{
}

x86::Vec VectorEmitter::newWide()
{
  return avx_ ? x86::Vec(cc_.newYmmPd()) : x86::Vec(cc_.newXmmPd());
}

x86::Xmm VectorEmitter::newXmm()
{
  return cc_.newXmmPd();
}

Vec3 VectorEmitter::newVec3()
{
  Vec3 v;
  if (avx_)
    v.wide = cc_.newYmmPd();
  else
  {
    v.xy = cc_.newXmmPd();
    v.z = cc_.newXmmPd();
  }
  return v;
}

x86::Mem VectorEmitter::xyPart(const x86::Mem& memory) const
{
  return sized(memory, 16);
}

x86::Mem VectorEmitter::zPart(const x86::Mem& memory) const
{
  return sized(memory.cloneAdjusted(16), 8);
}

x86::Mem VectorEmitter::splatMemory(const Splat& s, bool scalarLane) const
{
  return sized(s.memory, scalarLane ? 8 : (avx_ ? 32 : 16));
}

asmjit::Operand VectorEmitter::ssePart(const Vec3Operand& value, bool zHalf) const
{
  if (value.inMemory) return zHalf ? zPart(value.memory) : xyPart(value.memory);
  return zHalf ? value.registers.z : value.registers.xy;
}

asmjit::Operand VectorEmitter::splatOperand(const Splat& s, bool scalarLane) const
{
  if (s.inMemory) return splatMemory(s, scalarLane);
  return s.reg;
}

asmjit::Operand VectorEmitter::wideOperand(const Vec3Operand& value) const
{
  if (value.inMemory) return sized(value.memory, 32);
  return value.registers.wide;
}

Vec3 VectorEmitter::registersOf(const Vec3Operand& value)
{
  return value.inMemory ? load(value) : value.registers;
}

Vec3 VectorEmitter::ownedCopy(const Vec3Operand& value)
{
  if (value.inMemory) return load(value);
  Vec3 copy = newVec3();
  if (avx_)
    cc_.vmovapd(copy.wide, value.registers.wide);
  else
  {
    cc_.movapd(copy.xy, value.registers.xy);
    cc_.movapd(copy.z, value.registers.z);
  }
  return copy;
}

x86::Vec VectorEmitter::wideRegister(const Splat& s)
{
  if (!s.inMemory) return s.reg;
  const x86::Vec reg = newWide();
  if (avx_)
    cc_.vmovupd(reg, splatMemory(s, false));
  else
    cc_.movapd(reg.as<x86::Xmm>(), splatMemory(s, false));
  return reg;
}

Vec3 VectorEmitter::load(const Vec3Operand& value)
{
  if (!value.inMemory) return value.registers;
  Vec3 v = newVec3();
  if (avx_)
    cc_.vmovupd(v.wide, sized(value.memory, 32));
  else
  {
    cc_.movapd(v.xy, xyPart(value.memory));
    cc_.movsd(v.z, zPart(value.memory));
  }
  return v;
}

Vec3 VectorEmitter::loadHalves(const x86::Mem& memory)
{
  if (!avx_) return load(memory);
  Vec3 v = newVec3();
  cc_.vmovupd(v.wide.xmm(), xyPart(memory));
  cc_.vinsertf128(v.wide, v.wide, sized(memory.cloneAdjusted(16), 16), 1);
  return v;
}

void VectorEmitter::store(const x86::Mem& destination, const Vec3Operand& value)
{
  const Vec3 v = registersOf(value);
  if (avx_)
    cc_.vmovupd(sized(destination, 32), v.wide);
  else
  {
    cc_.movapd(xyPart(destination), v.xy);
    cc_.movsd(zPart(destination), v.z);
  }
}

Vec3Operand VectorEmitter::constant(const Eigen::Vector3d& value)
{
  const std::array<double, 4> data{value.x(), value.y(), value.z(), 0.0};
  return Vec3Operand(cc_.newConst(asmjit::ConstPoolScope::kLocal, data.data(), sizeof(data)), value);
}

Splat VectorEmitter::splat(double value)
{
  const std::array<double, 4> data{value, value, value, value};
  return Splat(cc_.newConst(asmjit::ConstPoolScope::kLocal, data.data(), avx_ ? 32 : 16));
}

Splat VectorEmitter::broadcast(const x86::Mem& scalar)
{
  const x86::Vec reg = newWide();
  if (avx_)
    cc_.vbroadcastsd(reg, sized(scalar, 8));
  else
    cc_.movddup(reg.as<x86::Xmm>(), sized(scalar, 8));
  return Splat(reg);
}

Scalar VectorEmitter::loadScalar(const x86::Mem& scalar)
{
  const Scalar reg = newXmm();
  if (avx_)
    cc_.vmovsd(reg, sized(scalar, 8));
  else
    cc_.movsd(reg, sized(scalar, 8));
  return reg;
}

void VectorEmitter::storeScalar(const x86::Mem& destination, const Scalar& value)
{
  if (avx_)
    cc_.vmovsd(sized(destination, 8), value);
  else
    cc_.movsd(sized(destination, 8), value);
}

void VectorEmitter::sse(Arithmetic op, bool scalar, const x86::Xmm& destination,
                        const asmjit::Operand& operand)
{
  using Id = x86::Inst::Id;
  static constexpr std::array<Id, 4> packed{x86::Inst::kIdAddpd, x86::Inst::kIdSubpd, x86::Inst::kIdMulpd,
                                            x86::Inst::kIdDivpd};
  static constexpr std::array<Id, 4> single{x86::Inst::kIdAddsd, x86::Inst::kIdSubsd, x86::Inst::kIdMulsd,
                                            x86::Inst::kIdDivsd};
  const std::size_t index = static_cast<std::size_t>(op);
  cc_.emit(scalar ? single[index] : packed[index], destination, operand);
}

void VectorEmitter::avxBinary(Arithmetic op, const x86::Vec& destination, const x86::Vec& a,
                              const asmjit::Operand& b)
{
  static constexpr std::array<x86::Inst::Id, 4> ids{x86::Inst::kIdVaddpd, x86::Inst::kIdVsubpd,
                                                    x86::Inst::kIdVmulpd, x86::Inst::kIdVdivpd};
  cc_.emit(ids[static_cast<std::size_t>(op)], destination, a, b);
}

Vec3 VectorEmitter::add(const Vec3Operand& a, const Vec3Operand& b)
{
  // Addition commutes: keep a register operand first so that the other may stay in memory.
  if (a.inMemory && !b.inMemory) return add(b, a);
  if (avx_)
  {
    Vec3 result = newVec3();
    avxBinary(Arithmetic::add, result.wide, registersOf(a).wide, wideOperand(b));
    return result;
  }
  Vec3 result = ownedCopy(a);
  accumulate(result, b);
  return result;
}

Vec3 VectorEmitter::subtract(const Vec3Operand& a, const Vec3Operand& b)
{
  if (avx_)
  {
    Vec3 result = newVec3();
    avxBinary(Arithmetic::subtract, result.wide, registersOf(a).wide, wideOperand(b));
    return result;
  }
  Vec3 result = ownedCopy(a);
  accumulateNegative(result, b);
  return result;
}

Vec3 VectorEmitter::multiply(const Vec3Operand& a, const Splat& s)
{
  if (avx_)
  {
    Vec3 result = newVec3();
    if (a.inMemory)
      avxBinary(Arithmetic::multiply, result.wide, wideRegister(s), wideOperand(a));
    else
      avxBinary(Arithmetic::multiply, result.wide, a.registers.wide, splatOperand(s, false));
    return result;
  }
  Vec3 result = ownedCopy(a);
  sse(Arithmetic::multiply, false, result.xy, splatOperand(s, false));
  sse(Arithmetic::multiply, true, result.z, splatOperand(s, true));
  return result;
}

Vec3 VectorEmitter::divide(const Vec3Operand& a, const Splat& s)
{
  if (avx_)
  {
    Vec3 result = newVec3();
    avxBinary(Arithmetic::divide, result.wide, registersOf(a).wide, splatOperand(s, false));
    return result;
  }
  Vec3 result = ownedCopy(a);
  sse(Arithmetic::divide, false, result.xy, splatOperand(s, false));
  sse(Arithmetic::divide, true, result.z, splatOperand(s, true));
  return result;
}

void VectorEmitter::accumulate(Vec3& sum, const Vec3Operand& b)
{
  if (avx_)
    avxBinary(Arithmetic::add, sum.wide, sum.wide, wideOperand(b));
  else
  {
    sse(Arithmetic::add, false, sum.xy, ssePart(b, false));
    sse(Arithmetic::add, true, sum.z, ssePart(b, true));
  }
}

void VectorEmitter::accumulateNegative(Vec3& sum, const Vec3Operand& b)
{
  if (avx_)
    avxBinary(Arithmetic::subtract, sum.wide, sum.wide, wideOperand(b));
  else
  {
    sse(Arithmetic::subtract, false, sum.xy, ssePart(b, false));
    sse(Arithmetic::subtract, true, sum.z, ssePart(b, true));
  }
}

void VectorEmitter::accumulateProduct(Vec3& sum, const Vec3Operand& a, const Splat& s)
{
  if (avx_)
  {
    if (a.inMemory)
      cc_.vfmadd231pd(sum.wide, wideRegister(s), sized(a.memory, 32));
    else if (s.inMemory)
      cc_.vfmadd231pd(sum.wide, a.registers.wide, splatMemory(s, false));
    else
      cc_.vfmadd231pd(sum.wide, a.registers.wide, s.reg);
    return;
  }
  accumulate(sum, multiply(a, s));
}

void VectorEmitter::accumulateNegativeProduct(Vec3& sum, const Vec3Operand& a, const Splat& s)
{
  if (avx_)
  {
    if (a.inMemory)
      cc_.vfnmadd231pd(sum.wide, wideRegister(s), sized(a.memory, 32));
    else if (s.inMemory)
      cc_.vfnmadd231pd(sum.wide, a.registers.wide, splatMemory(s, false));
    else
      cc_.vfnmadd231pd(sum.wide, a.registers.wide, s.reg);
    return;
  }
  accumulateNegative(sum, multiply(a, s));
}

Splat VectorEmitter::affine(const Splat& x, double multiplier, double offset)
{
  if (multiplier == 1.0 && offset == 0.0) return x;
  const x86::Vec value = wideRegister(x);
  const x86::Vec result = newWide();
  if (avx_)
  {
    cc_.vmovapd(result, value);
    if (multiplier != 1.0)
      avxBinary(Arithmetic::multiply, result, result, splatOperand(splat(multiplier), false));
    if (offset != 0.0) avxBinary(Arithmetic::add, result, result, splatOperand(splat(offset), false));
    return Splat(result);
  }
  const x86::Xmm narrow = result.as<x86::Xmm>();
  cc_.movapd(narrow, value.as<x86::Xmm>());
  if (multiplier != 1.0) sse(Arithmetic::multiply, false, narrow, splatOperand(splat(multiplier), false));
  if (offset != 0.0) sse(Arithmetic::add, false, narrow, splatOperand(splat(offset), false));
  return Splat(result);
}

} // namespace nao::kinematics::jit
