// The shared test support: a file read whole, the checkout's folders, the NAO's URDF, and a Markdown document's
// sections and fenced blocks as the documentation tests take them.
#include "Tools/Testing/Files.h"
#include "Tools/Testing/Markdown.h"
#include "Tools/Testing/NaoUrdf.h"
#include "Tools/Testing/SourceTree.h"

#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao::test;

TEST(TestSupport, ReadFileReturnsEveryByteAndNothingForAMissingFile)
{
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("nao-test-support-" + std::to_string(::getpid()));
  const std::string bytes("line\r\n\0binary\n", 14);
  std::ofstream(file, std::ios::binary) << bytes;
  EXPECT_EQ(readFile(file), bytes);
  std::filesystem::remove(file);
  EXPECT_EQ(readFile(file), "");
}

TEST(TestSupport, TheFoldersAndTheUrdfAreThoseOfThisCheckout)
{
  EXPECT_TRUE(std::filesystem::exists(sourceDirectory() / "Src/Tools/Testing/Markdown.h"));
  EXPECT_TRUE(std::filesystem::exists(configDirectory() / "Modules"));
  EXPECT_EQ(naoUrdfPath(), configDirectory() / "Robots/Default/nao-v6.urdf");
  const std::string urdf = naoUrdfText();
  EXPECT_NE(urdf.find("<robot"), std::string::npos);
  EXPECT_EQ(urdf, readFile(naoUrdfPath()));
}

TEST(TestSupport, ASectionRunsFromItsHeadingToTheNextSecondLevelHeading)
{
  const std::string markdown = "## First\none\n### Sub\ntwo\n## Second\nthree\n";
  EXPECT_EQ(markdownSection(markdown, "## First"), "## First\none\n### Sub\ntwo\n");
  EXPECT_EQ(markdownSection(markdown, "### Sub"), "### Sub\ntwo\n");
  EXPECT_EQ(markdownSection(markdown, "## Second"), "## Second\nthree\n");
  EXPECT_EQ(markdownSection(markdown, "## Sec"), "") << "a heading is a whole line";
  EXPECT_EQ(markdownSection(markdown, "## Third"), "");
}

TEST(TestSupport, FencedBlocksKeepTheirLanguageAndLoseTheIndentationOfAListItem)
{
  const std::string markdown = "text\n"
                               "```sh\n"
                               "make\n"
                               "  indented\n"
                               "```\n"
                               "1. a step\n"
                               "   ```cpp\n"
                               "   int x;\n"
                               "\n"
                               "     int y;\n"
                               "   ```\n"
                               "```\n"
                               "bare ``` inside\n"
                               "```\n"
                               "```sh\n"
                               "ls\n"
                               "```\n";
  const std::vector<FencedBlock> blocks = fencedBlocks(markdown);
  ASSERT_EQ(blocks.size(), 4u);
  EXPECT_EQ(blocks[0].language, "sh");
  EXPECT_EQ(blocks[0].text, "make\n  indented\n");
  EXPECT_EQ(blocks[1].language, "cpp");
  EXPECT_EQ(blocks[1].text, "int x;\n\n  int y;\n");
  EXPECT_EQ(blocks[2].language, "");
  EXPECT_EQ(blocks[2].text, "bare ``` inside\n");
  EXPECT_EQ(fencedBlocks(markdown, "sh"), (std::vector<std::string>{"make\n  indented\n", "ls\n"}));
  EXPECT_TRUE(fencedBlocks(markdown, "toml").empty());
}
