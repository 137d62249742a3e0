#include "Tools/Kinematics/Jit/VectorEmitter.h"

// Products of 3-vectors: cross products from cycled components, dot products, and scalar arithmetic.
namespace nao::kinematics::jit
{
namespace
{
// vpermpd selectors: lane i takes source lane (imm >> 2i) & 3; lane 3 (always 0) stays in place.
constexpr std::uint32_t selectYzx = 1u | (2u << 2) | (0u << 4) | (3u << 6);
constexpr std::uint32_t selectZxy = 2u | (0u << 2) | (1u << 4) | (3u << 6);
} // namespace

Cycled VectorEmitter::cycle(const Vec3& a)
{
  if (avx_)
  {
    Vec3 yzx = newVec3(), zxy = newVec3();
    cc_.vpermpd(yzx.wide, a.wide, selectYzx);
    cc_.vpermpd(zxy.wide, a.wide, selectZxy);
    return {yzx, zxy};
  }
  // (y, z) from the high lane of xy and the low lane of z; x is already lane 0 of xy.
  Vec3 yzx{{}, newXmm(), a.xy};
  cc_.movapd(yzx.xy, a.xy);
  cc_.shufpd(yzx.xy, a.z, 1);
  Vec3 zxy{{}, newXmm(), newXmm()};
  cc_.movapd(zxy.xy, a.z);
  cc_.unpcklpd(zxy.xy, a.xy);
  cc_.movapd(zxy.z, a.xy);
  cc_.unpckhpd(zxy.z, a.xy);
  return {yzx, zxy};
}

void VectorEmitter::accumulateCross(Vec3& sum, const Cycled& a, const Cycled& b)
{
  addCross(sum, a, b, false);
}

void VectorEmitter::accumulateNegativeCross(Vec3& sum, const Cycled& a, const Cycled& b)
{
  addCross(sum, a, b, true);
}

void VectorEmitter::addCross(Vec3& sum, const Cycled& a, const Cycled& b, bool negative)
{
  // a x b = a.yzx * b.zxy - a.zxy * b.yzx
  if (avx_)
  {
    cc_.emit(negative ? x86::Inst::kIdVfnmadd231pd : x86::Inst::kIdVfmadd231pd, sum.wide,
             a.yzx.registers.wide, wideOperand(b.zxy));
    cc_.emit(negative ? x86::Inst::kIdVfmadd231pd : x86::Inst::kIdVfnmadd231pd, sum.wide,
             a.zxy.registers.wide, wideOperand(b.yzx));
    return;
  }
  for (const bool zHalf : {false, true})
  {
    const x86::Xmm& destination = zHalf ? sum.z : sum.xy;
    const x86::Xmm plus = newXmm(), minus = newXmm();
    cc_.movapd(plus, zHalf ? a.yzx.registers.z : a.yzx.registers.xy);
    sse(Arithmetic::multiply, zHalf, plus, ssePart(b.zxy, zHalf));
    cc_.movapd(minus, zHalf ? a.zxy.registers.z : a.zxy.registers.xy);
    sse(Arithmetic::multiply, zHalf, minus, ssePart(b.yzx, zHalf));
    sse(negative ? Arithmetic::subtract : Arithmetic::add, zHalf, destination, plus);
    sse(negative ? Arithmetic::add : Arithmetic::subtract, zHalf, destination, minus);
  }
}

Vec3 VectorEmitter::cross(const Cycled& a, const Cycled& b)
{
  Vec3 result = newVec3();
  if (avx_)
  {
    cc_.emit(x86::Inst::kIdVmulpd, result.wide, a.zxy.registers.wide, wideOperand(b.yzx));
    cc_.emit(x86::Inst::kIdVfmsub231pd, result.wide, a.yzx.registers.wide, wideOperand(b.zxy));
    return result;
  }
  for (const bool zHalf : {false, true})
  {
    const x86::Xmm& destination = zHalf ? result.z : result.xy;
    const x86::Xmm minus = newXmm();
    cc_.movapd(destination, zHalf ? a.yzx.registers.z : a.yzx.registers.xy);
    sse(Arithmetic::multiply, zHalf, destination, ssePart(b.zxy, zHalf));
    cc_.movapd(minus, zHalf ? a.zxy.registers.z : a.zxy.registers.xy);
    sse(Arithmetic::multiply, zHalf, minus, ssePart(b.yzx, zHalf));
    sse(Arithmetic::subtract, zHalf, destination, minus);
  }
  return result;
}

Scalar VectorEmitter::dot(const Vec3& a, const Vec3Operand& b)
{
  const Scalar sum = newXmm();
  if (avx_)
  {
    // Lane 3 is zero in both vectors, so the four-lane sum is the dot product.
    const x86::Vec products = newWide();
    const x86::Xmm high = newXmm(), odd = newXmm();
    avxBinary(Arithmetic::multiply, products, a.wide, wideOperand(b));
    cc_.vextractf128(high, products, 1);
    cc_.vaddpd(sum, products.xmm(), high);
    cc_.vunpckhpd(odd, sum, sum);
    cc_.vaddsd(sum, sum, odd);
    return sum;
  }
  const x86::Xmm zProduct = newXmm(), odd = newXmm();
  cc_.movapd(sum, a.xy);
  sse(Arithmetic::multiply, false, sum, ssePart(b, false));
  cc_.movapd(zProduct, a.z);
  sse(Arithmetic::multiply, true, zProduct, ssePart(b, true));
  sse(Arithmetic::add, true, sum, zProduct);
  cc_.movapd(odd, sum);
  cc_.unpckhpd(odd, odd);
  sse(Arithmetic::add, true, sum, odd);
  return sum;
}

Scalar VectorEmitter::multiplyScalar(const Scalar& a, double factor)
{
  const Scalar result = newXmm();
  const x86::Mem factorMemory = splatMemory(splat(factor), true);
  if (avx_)
    cc_.vmulsd(result, a, factorMemory);
  else
  {
    cc_.movapd(result, a);
    cc_.mulsd(result, factorMemory);
  }
  return result;
}

void VectorEmitter::accumulateScalar(Scalar& sum, const Scalar& b)
{
  if (avx_)
    cc_.vaddsd(sum, sum, b);
  else
    cc_.addsd(sum, b);
}
} // namespace nao::kinematics::jit
