#pragma once
// The parts of a Markdown document that documentation tests run or compare: a section under a heading and the
// fenced blocks (```sh ... ```) in it.
#include <string>
#include <vector>

namespace nao::test
{
/// The text from the line `heading` ("## Install", the whole line) to the next line that starts with "## ", or to
/// the end; empty when no line is `heading`.
std::string markdownSection(const std::string& markdown, const std::string& heading);

struct FencedBlock
{
  std::string language; ///< what follows the opening fence ("sh", "cpp"; empty for a bare fence)
  std::string text;     ///< its lines, each with its "\n", without the fences
};

/// Every fenced block of `markdown`, in order. A fence is "```" after nothing but spaces; the indentation of a
/// block's opening fence (a block inside a list item) is taken off each of its lines.
std::vector<FencedBlock> fencedBlocks(const std::string& markdown);
/// The texts of the blocks whose language is `language`.
std::vector<std::string> fencedBlocks(const std::string& markdown, const std::string& language);
} // namespace nao::test
