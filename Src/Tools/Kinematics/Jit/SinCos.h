#pragma once
// Sine and cosine of many angles at once, vectorised. glibc's sincos costs about 9 ns per angle here, which
// for the NAO's 25 joint angles would be most of the time budget of the whole static-torque evaluation.
#include "Tools/Kinematics/Jit/InstructionSet.h"

#include <cstddef>

namespace nao::kinematics::jit
{
/// How many angles one call processes at a time: array lengths must be a multiple of it.
inline constexpr std::size_t sinCosBatch = 4;

/// sines[i] = sin(angles[i]), cosines[i] = cos(angles[i]) (rad) for i < count, count a multiple of
/// sinCosBatch. Within 2 ulp of glibc for |angle| <= 1e5 rad (Cody-Waite reduction by pi/2 in four parts, the
/// fdlibm kernel polynomials); larger or non-finite angles go to std::sin/std::cos. FMA (avx2Fma) changes the
/// last bit.
void sinCos(InstructionSet instructionSet, const double* angles, double* sines, double* cosines,
            std::size_t count);

/// The same for the joint values angle[i] = multipliers[i] * q[coordinates[i]] + offsets[i], gathered from q
/// in registers: writing them to memory first and loading them as vectors would stall store-to-load
/// forwarding.
void jointSinCos(InstructionSet instructionSet, const double* q, const int* coordinates,
                 const double* multipliers, const double* offsets, double* sines, double* cosines,
                 std::size_t count);
} // namespace nao::kinematics::jit
