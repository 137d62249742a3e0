#include "Tools/Kinematics/Jit/SinCos.h"

#include <cassert>
#include <cmath>
#include <immintrin.h>

namespace nao::kinematics::jit
{
namespace
{
constexpr double twoOverPi = 0.63661977236758134308;
// pi/2 = pio2High + pio2Middle + pio2Low + pio2Tail: the first three have 33 significant bits, so their
// products with k are exact for |k| < 2^20, and the first two subtractions are exact (Sterbenz). The tail
// keeps angles close to a multiple of pi/2 (small results) accurate to the last bit (fdlibm's constants).
constexpr double pio2High = 1.57079632673412561417e+00;
constexpr double pio2Middle = 6.07710050630396597660e-11;
constexpr double pio2Low = 2.02226624871116645580e-21;
constexpr double pio2Tail = 8.47842766036889956997e-32;
/// Adding 1.5 * 2^52 rounds to an integer and leaves it in the low bits of the mantissa (the quadrant).
constexpr double roundingShift = 6755399441055744.0;
/// rad: |k| stays far below 2^20 here; beyond 2^20 the reduction would lose bits.
constexpr double largestReducedAngle = 1.0e5;

// fdlibm __kernel_sin / __kernel_cos minimax coefficients on [-pi/4, pi/4].
constexpr double s1 = -1.66666666666666324348e-01, s2 = 8.33333333332248946124e-03,
                 s3 = -1.98412698298579493134e-04, s4 = 2.75573137070700676789e-06,
                 s5 = -2.50507602534068634195e-08, s6 = 1.58969099521155010221e-10;
constexpr double c1 = 4.16666666666666019037e-02, c2 = -1.38888888888741095749e-03,
                 c3 = 2.48015872894767294178e-05, c4 = -2.75573143513906633035e-07,
                 c5 = 2.08757232129817482790e-09, c6 = -1.13596475577881948265e-11;

void libmFallback(const double* angles, double* sines, double* cosines, std::size_t lanes, int laneMask)
{
  for (std::size_t lane = 0; lane < lanes; ++lane)
    if (laneMask & (1 << lane))
    {
      sines[lane] = std::sin(angles[lane]);
      cosines[lane] = std::cos(angles[lane]);
    }
}

/// Two angles; returns the lanes that need libm.
__attribute__((target("sse4.1"), always_inline)) inline int sinCos2(__m128d x, double* sines, double* cosines)
{
  const __m128d signBit = _mm_set1_pd(-0.0);
  const __m128d one = _mm_set1_pd(1.0);
  const __m128d shift = _mm_set1_pd(roundingShift);
  const __m128d shifted = _mm_add_pd(_mm_mul_pd(x, _mm_set1_pd(twoOverPi)), shift);
  const __m128d k = _mm_sub_pd(shifted, shift);
  __m128d r = _mm_sub_pd(x, _mm_mul_pd(k, _mm_set1_pd(pio2High)));
  r = _mm_sub_pd(r, _mm_mul_pd(k, _mm_set1_pd(pio2Middle)));
  r = _mm_sub_pd(r, _mm_add_pd(_mm_mul_pd(k, _mm_set1_pd(pio2Low)), _mm_mul_pd(k, _mm_set1_pd(pio2Tail))));
  const __m128d z = _mm_mul_pd(r, r);
  const __m128d z2 = _mm_mul_pd(z, z);

  // Estrin's scheme: shorter dependency chains than Horner's.
  const __m128d sinLow = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(s2)), _mm_set1_pd(s1));
  const __m128d sinMiddle = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(s4)), _mm_set1_pd(s3));
  const __m128d sinHigh = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(s6)), _mm_set1_pd(s5));
  const __m128d sinPoly =
      _mm_add_pd(_mm_add_pd(sinLow, _mm_mul_pd(z2, sinMiddle)), _mm_mul_pd(_mm_mul_pd(z2, z2), sinHigh));
  const __m128d sinR = _mm_add_pd(r, _mm_mul_pd(_mm_mul_pd(z, r), sinPoly));

  const __m128d cosLow = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(c2)), _mm_set1_pd(c1));
  const __m128d cosMiddle = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(c4)), _mm_set1_pd(c3));
  const __m128d cosHigh = _mm_add_pd(_mm_mul_pd(z, _mm_set1_pd(c6)), _mm_set1_pd(c5));
  const __m128d cosPoly =
      _mm_add_pd(_mm_add_pd(cosLow, _mm_mul_pd(z2, cosMiddle)), _mm_mul_pd(_mm_mul_pd(z2, z2), cosHigh));
  // 1 - z/2 + z^2 * cosPoly with the rounding error of 1 - z/2 added back (fdlibm).
  const __m128d halfZ = _mm_mul_pd(z, _mm_set1_pd(0.5));
  const __m128d w = _mm_sub_pd(one, halfZ);
  const __m128d error = _mm_sub_pd(_mm_sub_pd(one, w), halfZ);
  const __m128d cosR = _mm_add_pd(w, _mm_add_pd(error, _mm_mul_pd(z2, cosPoly)));

  // Quadrant k mod 4: odd k swaps sine and cosine; bit 1 of k (of k + 1) flips the sign of the sine (cosine).
  const __m128i quadrant = _mm_castpd_si128(shifted);
  const __m128d swap = _mm_castsi128_pd(_mm_slli_epi64(quadrant, 63));
  const __m128d sinSign = _mm_and_pd(_mm_castsi128_pd(_mm_slli_epi64(quadrant, 62)), signBit);
  const __m128d cosSign =
      _mm_and_pd(_mm_castsi128_pd(_mm_slli_epi64(_mm_add_epi64(quadrant, _mm_set1_epi64x(1)), 62)), signBit);
  _mm_storeu_pd(sines, _mm_xor_pd(_mm_blendv_pd(sinR, cosR, swap), sinSign));
  _mm_storeu_pd(cosines, _mm_xor_pd(_mm_blendv_pd(cosR, sinR, swap), cosSign));
  // Not-less-or-equal is also true for NaN.
  return _mm_movemask_pd(_mm_cmpnle_pd(_mm_andnot_pd(signBit, x), _mm_set1_pd(largestReducedAngle)));
}

/// Four angles; returns the lanes that need libm.
__attribute__((target("avx2,fma"), always_inline)) inline int sinCos4(__m256d x, double* sines,
                                                                      double* cosines)
{
  const __m256d signBit = _mm256_set1_pd(-0.0);
  const __m256d one = _mm256_set1_pd(1.0);
  const __m256d shift = _mm256_set1_pd(roundingShift);
  const __m256d shifted = _mm256_fmadd_pd(x, _mm256_set1_pd(twoOverPi), shift);
  const __m256d k = _mm256_sub_pd(shifted, shift);
  __m256d r = _mm256_fnmadd_pd(k, _mm256_set1_pd(pio2High), x);
  r = _mm256_fnmadd_pd(k, _mm256_set1_pd(pio2Middle), r);
  r = _mm256_sub_pd(r,
                    _mm256_fmadd_pd(k, _mm256_set1_pd(pio2Low), _mm256_mul_pd(k, _mm256_set1_pd(pio2Tail))));
  const __m256d z = _mm256_mul_pd(r, r);
  const __m256d z2 = _mm256_mul_pd(z, z);

  const __m256d sinLow = _mm256_fmadd_pd(z, _mm256_set1_pd(s2), _mm256_set1_pd(s1));
  const __m256d sinMiddle = _mm256_fmadd_pd(z, _mm256_set1_pd(s4), _mm256_set1_pd(s3));
  const __m256d sinHigh = _mm256_fmadd_pd(z, _mm256_set1_pd(s6), _mm256_set1_pd(s5));
  const __m256d sinPoly =
      _mm256_fmadd_pd(_mm256_mul_pd(z2, z2), sinHigh, _mm256_fmadd_pd(z2, sinMiddle, sinLow));
  const __m256d sinR = _mm256_fmadd_pd(_mm256_mul_pd(z, r), sinPoly, r);

  const __m256d cosLow = _mm256_fmadd_pd(z, _mm256_set1_pd(c2), _mm256_set1_pd(c1));
  const __m256d cosMiddle = _mm256_fmadd_pd(z, _mm256_set1_pd(c4), _mm256_set1_pd(c3));
  const __m256d cosHigh = _mm256_fmadd_pd(z, _mm256_set1_pd(c6), _mm256_set1_pd(c5));
  const __m256d cosPoly =
      _mm256_fmadd_pd(_mm256_mul_pd(z2, z2), cosHigh, _mm256_fmadd_pd(z2, cosMiddle, cosLow));
  const __m256d halfZ = _mm256_mul_pd(z, _mm256_set1_pd(0.5));
  const __m256d w = _mm256_sub_pd(one, halfZ);
  const __m256d error = _mm256_sub_pd(_mm256_sub_pd(one, w), halfZ);
  const __m256d cosR = _mm256_add_pd(w, _mm256_fmadd_pd(z2, cosPoly, error));

  const __m256i quadrant = _mm256_castpd_si256(shifted);
  const __m256d swap = _mm256_castsi256_pd(_mm256_slli_epi64(quadrant, 63));
  const __m256d sinSign = _mm256_and_pd(_mm256_castsi256_pd(_mm256_slli_epi64(quadrant, 62)), signBit);
  const __m256d cosSign = _mm256_and_pd(
      _mm256_castsi256_pd(_mm256_slli_epi64(_mm256_add_epi64(quadrant, _mm256_set1_epi64x(1)), 62)), signBit);
  _mm256_storeu_pd(sines, _mm256_xor_pd(_mm256_blendv_pd(sinR, cosR, swap), sinSign));
  _mm256_storeu_pd(cosines, _mm256_xor_pd(_mm256_blendv_pd(cosR, sinR, swap), cosSign));
  return _mm256_movemask_pd(
      _mm256_cmp_pd(_mm256_andnot_pd(signBit, x), _mm256_set1_pd(largestReducedAngle), _CMP_NLE_UQ));
}

__attribute__((target("sse4.1"))) void sinCosSse41(const double* angles, double* sines, double* cosines,
                                                   std::size_t count)
{
  for (std::size_t i = 0; i < count; i += 2)
    if (const int outside = sinCos2(_mm_loadu_pd(angles + i), sines + i, cosines + i))
      libmFallback(angles + i, sines + i, cosines + i, 2, outside);
}

__attribute__((target("avx2,fma"))) void sinCosAvx2(const double* angles, double* sines, double* cosines,
                                                    std::size_t count)
{
  for (std::size_t i = 0; i < count; i += 4)
    if (const int outside = sinCos4(_mm256_loadu_pd(angles + i), sines + i, cosines + i))
      libmFallback(angles + i, sines + i, cosines + i, 4, outside);
}

__attribute__((target("sse4.1"))) void jointSinCosSse41(const double* q, const int* coordinates,
                                                        const double* multipliers, const double* offsets,
                                                        double* sines, double* cosines, std::size_t count)
{
  for (std::size_t i = 0; i < count; i += 2)
  {
    const __m128d values = _mm_set_pd(q[coordinates[i + 1]], q[coordinates[i]]);
    const __m128d x =
        _mm_add_pd(_mm_mul_pd(values, _mm_loadu_pd(multipliers + i)), _mm_loadu_pd(offsets + i));
    if (const int outside = sinCos2(x, sines + i, cosines + i))
    {
      double angles[2];
      _mm_storeu_pd(angles, x);
      libmFallback(angles, sines + i, cosines + i, 2, outside);
    }
  }
}

__attribute__((target("avx2,fma"))) void jointSinCosAvx2(const double* q, const int* coordinates,
                                                         const double* multipliers, const double* offsets,
                                                         double* sines, double* cosines, std::size_t count)
{
  for (std::size_t i = 0; i < count; i += 4)
  {
    const __m256d values =
        _mm256_set_pd(q[coordinates[i + 3]], q[coordinates[i + 2]], q[coordinates[i + 1]], q[coordinates[i]]);
    // Multiply, then add, as the Eigen path computes the joint value.
    const __m256d product = _mm256_mul_pd(values, _mm256_loadu_pd(multipliers + i));
    const __m256d x = _mm256_add_pd(product, _mm256_loadu_pd(offsets + i));
    if (const int outside = sinCos4(x, sines + i, cosines + i))
    {
      double angles[4];
      _mm256_storeu_pd(angles, x);
      libmFallback(angles, sines + i, cosines + i, 4, outside);
    }
  }
}
} // namespace

void sinCos(InstructionSet instructionSet, const double* angles, double* sines, double* cosines,
            std::size_t count)
{
  assert(count % sinCosBatch == 0);
  if (instructionSet == InstructionSet::avx2Fma)
    sinCosAvx2(angles, sines, cosines, count);
  else
    sinCosSse41(angles, sines, cosines, count);
}

void jointSinCos(InstructionSet instructionSet, const double* q, const int* coordinates,
                 const double* multipliers, const double* offsets, double* sines, double* cosines,
                 std::size_t count)
{
  assert(count % sinCosBatch == 0);
  if (instructionSet == InstructionSet::avx2Fma)
    jointSinCosAvx2(q, coordinates, multipliers, offsets, sines, cosines, count);
  else
    jointSinCosSse41(q, coordinates, multipliers, offsets, sines, cosines, count);
}
} // namespace nao::kinematics::jit
