#pragma once
// "Did you mean …?" for names a user types: keys, module, robot and scenario names. The closest known name by
// edit distance (insertions, deletions, substitutions and swaps of neighbours, case ignored), if it is close
// enough to be a typo: at most a third of the longer name's letters and never more than 3 edits. A name that
// differs only in case ("Stand" for "stand") is the closest of all, before any name a letter away ("standin").
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nao::streams
{
/// Edits between a and b, case ignored (optimal string alignment distance). Three rows of the table, not all of
/// it: a name can come from a file or a debug client, and a megabyte-long one must not cost a table of its size.
inline std::size_t editDistance(std::string_view a, std::string_view b)
{
  const auto same = [](char x, char y)
  { return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y)); };
  std::vector<std::size_t> beforeLast(b.size() + 1), last(b.size() + 1), row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j)
    last[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
  {
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j)
    {
      row[j] = std::min({last[j] + 1, row[j - 1] + 1, last[j - 1] + (same(a[i - 1], b[j - 1]) ? 0 : 1)});
      if (i > 1 && j > 1 && same(a[i - 1], b[j - 2]) && same(a[i - 2], b[j - 1]))
        row[j] = std::min(row[j], beforeLast[j - 2] + 1);
    }
    std::swap(beforeLast, last);
    std::swap(last, row);
  }
  return last[b.size()];
}

/// The known name closest to `typed`, if it is close enough to be a typo of it: first a name equal to it but for
/// case, then the nearest by edit distance (the first of equally near ones). `typed` itself is never suggested.
template<class Names>
std::optional<std::string> closestName(std::string_view typed, const Names& known)
{
  std::optional<std::string> best;
  std::size_t bestDistance = 0;
  for (const auto& name : known)
  {
    const std::string_view candidate(name);
    const std::size_t allowed = std::min<std::size_t>(3, std::max(typed.size(), candidate.size()) / 3);
    // Names whose lengths differ by more than the allowed edits cannot be close enough: no table for them.
    const std::size_t lengthDifference =
        typed.size() > candidate.size() ? typed.size() - candidate.size() : candidate.size() - typed.size();
    if (lengthDifference > allowed) continue;
    const std::size_t distance = editDistance(typed, candidate);
    if (distance == 0)
    {
      if (candidate == typed) continue;
      return std::string(candidate); // the same name but for case: no typo can be closer
    }
    if (distance > allowed) continue;
    if (!best || distance < bestDistance)
    {
      best = std::string(candidate);
      bestDistance = distance;
    }
  }
  return best;
}

/// " (did you mean 'x'?)" or "".
template<class Names>
std::string didYouMean(std::string_view typed, const Names& known)
{
  const auto closest = closestName(typed, known);
  return closest ? " (did you mean '" + *closest + "'?)" : std::string();
}
} // namespace nao::streams
