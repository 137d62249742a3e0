#include "Util/Simulator/Run/TextTable.h"

#include <algorithm>
#include <sstream>

namespace nao
{
namespace
{
/// Characters as a terminal shows them: UTF-8 continuation bytes take no place ("°C" is two).
std::size_t displayWidth(const std::string& text)
{
  return static_cast<std::size_t>(std::count_if(
      text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// The label's words, greedily joined into lines of at most `width` (a longer word has a line of its own).
std::vector<std::string> wrap(const std::string& label, std::size_t width)
{
  std::vector<std::string> lines;
  std::istringstream words(label);
  for (std::string word; words >> word;)
  {
    if (!lines.empty() && displayWidth(lines.back()) + 1 + displayWidth(word) <= width)
      lines.back() += " " + word;
    else
      lines.push_back(word);
  }
  return lines;
}

std::string padded(const std::string& text, std::size_t width, bool left)
{
  const std::size_t shown = displayWidth(text);
  const std::string fill(width > shown ? width - shown : 0, ' ');
  return left ? text + fill : fill + text;
}
} // namespace

std::string textTable(const std::vector<TextColumn>& columns,
                      const std::vector<std::vector<std::string>>& rows, std::size_t headerLines)
{
  std::vector<std::size_t> widths;
  std::vector<std::vector<std::string>> headers;
  std::size_t lines = 1;
  for (std::size_t c = 0; c < columns.size(); ++c)
  {
    std::size_t width = 0;
    for (const auto& row : rows)
      if (c < row.size()) width = std::max(width, displayWidth(row[c]));
    for (const std::string& word : wrap(columns[c].label, 0))
      width = std::max(width, displayWidth(word));
    while (wrap(columns[c].label, width).size() > headerLines)
      ++width;
    headers.push_back(wrap(columns[c].label, width));
    for (const std::string& line : headers.back())
      width = std::max(width, displayWidth(line));
    widths.push_back(width);
    lines = std::max(lines, headers.back().size());
  }
  std::string text;
  const auto addLine = [&](const auto& cellOf)
  {
    std::string line;
    for (std::size_t c = 0; c < columns.size(); ++c)
      line += (c ? "  " : "") + padded(cellOf(c), widths[c], columns[c].alignLeft);
    line.erase(line.find_last_not_of(' ') + 1);
    text += line + "\n";
  };
  for (std::size_t l = 0; l < lines; ++l)
    addLine(
        [&](std::size_t c)
        {
          const std::size_t blank =
              lines - headers[c].size(); // bottom-aligned: units right above the numbers
          return l < blank ? std::string() : headers[c][l - blank];
        });
  for (const auto& row : rows)
    addLine([&](std::size_t c) { return c < row.size() ? row[c] : std::string(); });
  return text;
}
} // namespace nao
