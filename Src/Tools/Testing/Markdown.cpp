#include "Tools/Testing/Markdown.h"

#include <sstream>

namespace nao::test
{
std::string markdownSection(const std::string& markdown, const std::string& heading)
{
  const std::string text = "\n" + markdown; // a heading on the first line, too
  const std::size_t start = text.find("\n" + heading + "\n");
  if (start == std::string::npos) return {};
  const std::size_t end = text.find("\n## ", start + 1);
  return text.substr(start + 1, end == std::string::npos ? std::string::npos : end - start);
}

std::vector<FencedBlock> fencedBlocks(const std::string& markdown)
{
  std::istringstream in(markdown);
  std::vector<FencedBlock> blocks;
  std::size_t indent = 0;
  bool inside = false;
  for (std::string line; std::getline(in, line);)
  {
    const std::size_t fence = line.find("```");
    if (fence != std::string::npos && line.find_first_not_of(' ') == fence)
    {
      if (!inside) blocks.push_back({line.substr(fence + 3), ""});
      inside = !inside;
      indent = fence;
      continue;
    }
    if (inside) blocks.back().text += (line.size() >= indent ? line.substr(indent) : std::string()) + "\n";
  }
  return blocks;
}

std::vector<std::string> fencedBlocks(const std::string& markdown, const std::string& language)
{
  std::vector<std::string> texts;
  for (FencedBlock& block : fencedBlocks(markdown))
    if (block.language == language) texts.push_back(std::move(block.text));
  return texts;
}
} // namespace nao::test
