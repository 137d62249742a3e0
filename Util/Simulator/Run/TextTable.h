#pragma once
// A table for a terminal: every column is headed by its whole label in words with its unit in brackets
// ("highest leg current [mA]", as every output names units: streams::labelWithUnit), wrapped over a few lines
// above a column no wider than its cells need, instead of a cryptic abbreviation.
#include <string>
#include <vector>

namespace nao
{
struct TextColumn
{
  std::string label;      ///< words, then " [unit]" if it has one
  bool alignLeft = false; ///< names; numbers align right
};

/// The header (each label wrapped at spaces over at most `headerLines` lines, bottom-aligned) and the rows (one
/// cell per column), columns two spaces apart.
std::string textTable(const std::vector<TextColumn>& columns,
                      const std::vector<std::vector<std::string>>& rows, std::size_t headerLines = 3);
} // namespace nao
