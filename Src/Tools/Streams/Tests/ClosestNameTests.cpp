// "Did you mean …?": the rolling-row edit distance and the length pruning against the whole-table definition.
#include "Tools/Streams/ClosestName.h"
#include <cctype>
#include <gtest/gtest.h>
#include <random>

namespace
{
/// The optimal string alignment distance written from its definition, the whole table (the reference).
std::size_t referenceDistance(const std::string& a, const std::string& b)
{
  const auto same = [](char x, char y) { return std::tolower(x) == std::tolower(y); };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i)
    for (std::size_t j = 0; j <= b.size(); ++j)
    {
      if (i == 0 || j == 0)
      {
        d[i][j] = i + j;
        continue;
      }
      d[i][j] =
          std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

/// closestName without the length pruning: every candidate's distance from the reference.
std::optional<std::string> referenceClosest(const std::string& typed, const std::vector<std::string>& known)
{
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (const std::string& candidate : known)
  {
    const std::size_t distance = referenceDistance(typed, candidate);
    const std::size_t allowed = std::min<std::size_t>(3, std::max(typed.size(), candidate.size()) / 3);
    if (distance == 0 && candidate != typed) return candidate; // only the case differs
    if (distance == 0 || distance > allowed) continue;
    if (!best || distance < bestDistance)
    {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

std::string randomName(std::mt19937& random, std::size_t maxLength)
{
  static constexpr std::string_view letters = "abAB_x"; // few letters: many near misses and swaps
  std::string name(std::uniform_int_distribution<std::size_t>(0, maxLength)(random), ' ');
  for (char& letter : name)
    letter = letters[std::uniform_int_distribution<std::size_t>(0, letters.size() - 1)(random)];
  return name;
}
} // namespace

TEST(ClosestName, TheDistanceIsTheWholeTablesOnRandomNames)
{
  std::mt19937 random(17);
  for (int run = 0; run < 5000; ++run)
  {
    const std::string a = randomName(random, 12);
    const std::string b = randomName(random, 12);
    ASSERT_EQ(nao::streams::editDistance(a, b), referenceDistance(a, b)) << "'" << a << "' to '" << b << "'";
  }
}

TEST(ClosestName, KnownDistances)
{
  EXPECT_EQ(nao::streams::editDistance("", ""), 0u);
  EXPECT_EQ(nao::streams::editDistance("abc", ""), 3u);
  EXPECT_EQ(nao::streams::editDistance("", "abcd"), 4u);
  EXPECT_EQ(nao::streams::editDistance("maxSpeed", "MAXSPEED"), 0u); // case ignored
  EXPECT_EQ(nao::streams::editDistance("maxSpede", "maxSpeed"), 1u); // a swap of neighbours is one edit
  EXPECT_EQ(nao::streams::editDistance("kitten", "sitting"), 3u);
}

TEST(ClosestName, TheLengthPruningNeverChangesTheSuggestion)
{
  std::mt19937 random(18);
  for (int run = 0; run < 2000; ++run)
  {
    std::vector<std::string> known;
    for (int name = 0; name < 6; ++name)
      known.push_back(randomName(random, 14));
    const std::string typed = randomName(random, 14);
    ASSERT_EQ(nao::streams::closestName(typed, known), referenceClosest(typed, known)) << "'" << typed << "'";
  }
}

TEST(ClosestName, AMegabyteNameGetsNoSuggestion)
{
  // 1 MB typed against short names (pruned by length; the old whole table had a million rows per name).
  const std::vector<std::string> known{"maxSpeed", "stepHeight"};
  EXPECT_EQ(nao::streams::closestName(std::string(1 << 20, 'm'), known), std::nullopt);
  EXPECT_EQ(nao::streams::closestName("maxSped", known), std::optional<std::string>("maxSpeed"));
}

TEST(ClosestName, ACaseOnlyTypoGetsTheSameNameFirst)
{
  // `--scenario Stand`: "stand" differs only in case, "standin" by two letters.
  const std::vector<std::string> scenarios{"default", "standin", "stand", "arms"};
  EXPECT_EQ(nao::streams::closestName("Stand", scenarios), std::optional<std::string>("stand"));
  EXPECT_EQ(nao::streams::didYouMean("STAND", scenarios), " (did you mean 'stand'?)");
  EXPECT_EQ(nao::streams::closestName("stnad", scenarios), std::optional<std::string>("stand"));
  const std::vector<std::string> robots{"Nao01", "Nao02"};
  EXPECT_EQ(nao::streams::closestName("nao01", robots), std::optional<std::string>("Nao01"));
}
