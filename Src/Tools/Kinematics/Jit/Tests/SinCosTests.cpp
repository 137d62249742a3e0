// The vectorised sine/cosine against glibc, in units in the last place of glibc's (correctly rounded) result.
#include "Tools/Kinematics/Jit/SinCos.h"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

namespace nao::kinematics::jit
{
namespace
{
double ulpsApart(double actual, double expected)
{
  if (actual == expected) return 0.0;
  const double magnitude = std::abs(expected);
  const double ulp = std::nextafter(magnitude, std::numeric_limits<double>::infinity()) - magnitude;
  return std::abs(actual - expected) / ulp;
}

std::vector<InstructionSet> hostSets()
{
  std::vector<InstructionSet> sets{InstructionSet::sse41};
  if (hostInstructionSet(true) == InstructionSet::avx2Fma) sets.push_back(InstructionSet::avx2Fma);
  return sets;
}

std::vector<double> testAngles()
{
  std::vector<double> angles{0.0, -0.0, 1e-300, -1e-20, 1e-8};
  // Multiples of pi/4 and their neighbours: quadrant boundaries and the ends of the polynomial range.
  for (int k = -40; k <= 40; ++k)
  {
    const double x = k * std::numbers::pi / 4;
    angles.insert(angles.end(), {x, std::nextafter(x, 10.0 * k + 1.0), std::nextafter(x, -10.0 * k - 1.0)});
  }
  std::mt19937 random(17);
  std::uniform_real_distribution<double> joint(-4.0 * std::numbers::pi, 4.0 * std::numbers::pi),
      wide(-1e5, 1e5);
  for (int i = 0; i < 200000; ++i)
    angles.push_back(joint(random));
  for (int i = 0; i < 20000; ++i)
    angles.push_back(wide(random));
  while (angles.size() % sinCosBatch != 0)
    angles.push_back(0.5);
  return angles;
}

TEST(SinCos, WithinTwoUlpsOfGlibcForJointAnglesAndBeyond)
{
  const std::vector<double> angles = testAngles();
  std::vector<double> sines(angles.size()), cosines(angles.size());
  for (const InstructionSet set : hostSets())
  {
    SCOPED_TRACE(std::string(name(set)));
    sinCos(set, angles.data(), sines.data(), cosines.data(), angles.size());
    double worstSine = 0.0, worstCosine = 0.0;
    for (std::size_t i = 0; i < angles.size(); ++i)
    {
      worstSine = std::max(worstSine, ulpsApart(sines[i], std::sin(angles[i])));
      worstCosine = std::max(worstCosine, ulpsApart(cosines[i], std::cos(angles[i])));
      ASSERT_LE(std::abs(sines[i] - std::sin(angles[i])),
                1e-15 * std::max(1e-300, std::abs(std::sin(angles[i]))))
          << "sin(" << angles[i] << ")";
      ASSERT_LE(std::abs(cosines[i] - std::cos(angles[i])),
                1e-15 * std::max(1e-300, std::abs(std::cos(angles[i]))))
          << "cos(" << angles[i] << ")";
    }
    EXPECT_LE(worstSine, 2.0);
    EXPECT_LE(worstCosine, 2.0);
    std::cout << name(set) << ": worst " << worstSine << " ulp (sine), " << worstCosine << " ulp (cosine)\n";
  }
}

TEST(SinCos, HugeAndNonFiniteAnglesGoToLibm)
{
  const double infinity = std::numeric_limits<double>::infinity();
  const std::vector<double> angles{1e6, -3e9, 1e300, infinity, -infinity, std::nan(""), 2.0, -1e200};
  std::vector<double> sines(angles.size()), cosines(angles.size());
  for (const InstructionSet set : hostSets())
  {
    SCOPED_TRACE(std::string(name(set)));
    sinCos(set, angles.data(), sines.data(), cosines.data(), angles.size());
    for (std::size_t i = 0; i < angles.size(); ++i)
    {
      if (std::isfinite(angles[i]))
      {
        EXPECT_LE(ulpsApart(sines[i], std::sin(angles[i])), 2.0) << angles[i];
        EXPECT_LE(ulpsApart(cosines[i], std::cos(angles[i])), 2.0) << angles[i];
      }
      else
      {
        EXPECT_TRUE(std::isnan(sines[i])) << angles[i];
        EXPECT_TRUE(std::isnan(cosines[i])) << angles[i];
      }
    }
  }
}

TEST(SinCos, JointValuesAreGatheredFromTheCoordinates)
{
  // angle j = multiplier j * q[coordinate j] + offset j, as the Eigen path computes a (mimic) joint's value.
  const std::vector<double> q{0.3, -1.2, 2.5, 0.01, -3.0};
  const std::vector<int> coordinates{4, 0, 0, 2, 1, 3, 0, 0};
  const std::vector<double> multipliers{1.0, -2.0, 1.0, 0.5, 1.0, 1.0, 0.0, 0.0};
  const std::vector<double> offsets{0.0, 0.3, 0.0, -1.0, 0.0, 0.2, 0.0, 0.0};
  std::vector<double> sines(8), cosines(8);
  for (const InstructionSet set : hostSets())
  {
    SCOPED_TRACE(std::string(name(set)));
    jointSinCos(set, q.data(), coordinates.data(), multipliers.data(), offsets.data(), sines.data(),
                cosines.data(), coordinates.size());
    for (std::size_t j = 0; j < coordinates.size(); ++j)
    {
      const double angle = multipliers[j] * q[static_cast<std::size_t>(coordinates[j])] + offsets[j];
      EXPECT_LE(ulpsApart(sines[j], std::sin(angle)), 2.0) << j;
      EXPECT_LE(ulpsApart(cosines[j], std::cos(angle)), 2.0) << j;
    }
  }
}

TEST(InstructionSet, Avx2IsUsedExactlyWhereTheCpuHasItAndSseCanBeForced)
{
  // GCC's own CPU detection as the independent reference for asmjit's.
  const bool cpuHasAvx2AndFma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  const std::optional<InstructionSet> best = hostInstructionSet(true);
  ASSERT_TRUE(best.has_value());
  EXPECT_EQ(*best == InstructionSet::avx2Fma, cpuHasAvx2AndFma);
  EXPECT_EQ(hostInstructionSet(false), InstructionSet::sse41);
  std::cout << "this CPU runs " << name(*best) << "\n";
}
} // namespace
} // namespace nao::kinematics::jit
