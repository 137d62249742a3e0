// Config/ is found from the executable's own location: in the source tree above a build folder, next to bin/ in a
// deployed version folder, below share/ of an installed prefix; the nearest wins, and a miss names every folder.
#include "Tools/Files/ConfigDirectory.h"
#include <fstream>
#include <gtest/gtest.h>
#include <unistd.h>

using namespace nao::files;

namespace
{
struct Tree
{
  std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("nao-config-directory-" + std::to_string(::getpid()));
  Tree() { std::filesystem::create_directories(root); }
  ~Tree() { std::filesystem::remove_all(root); }
  std::filesystem::path file(const std::filesystem::path& relative) const
  {
    std::filesystem::create_directories((root / relative).parent_path());
    std::ofstream(root / relative) << "\n";
    return root / relative;
  }
};
} // namespace

TEST(ConfigDirectory, ASourceTreeAboveTheBuildFolder)
{
  const Tree tree;
  tree.file("checkout/Config/settings.toml");
  const auto binary = tree.file("checkout/Build/Release/Src/Apps/Nao/nao");
  EXPECT_EQ(findConfigDirectory(binary), tree.root / "checkout/Config");
}

TEST(ConfigDirectory, AnInstalledPrefix)
{
  const Tree tree;
  tree.file("prefix/share/nao-framework/Config/settings.toml");
  EXPECT_EQ(findConfigDirectory(tree.file("prefix/bin/Simulator")),
            tree.root / "prefix/share/nao-framework/Config");
}

TEST(ConfigDirectory, TheNearestWinsAndALinkCountsWhereItPoints)
{
  const Tree tree;
  tree.file("Config/settings.toml"); // an outer one, e.g. the home folder's
  tree.file("versions/v1/Config/settings.toml");
  const auto binary = tree.file("versions/v1/bin/nao");
  EXPECT_EQ(findConfigDirectory(binary), tree.root / "versions/v1/Config");
  std::filesystem::create_directories(tree.root / "elsewhere");
  std::filesystem::create_symlink(binary, tree.root / "elsewhere/nao");
  EXPECT_EQ(findConfigDirectory(tree.root / "elsewhere/nao"), tree.root / "versions/v1/Config");
}

TEST(ConfigDirectory, AFolderWithoutSettingsIsNotConfig)
{
  const Tree tree;
  std::filesystem::create_directories(tree.root / "a/Config");
  tree.file("Config/settings.toml");
  EXPECT_EQ(findConfigDirectory(tree.file("a/bin/nao")), tree.root / "Config");
}

TEST(ConfigDirectory, AMissNamesEveryFolderItLookedIn)
{
  // Up to the file system's root: the temporary folder's parents hold no Config/ either.
  const Tree tree;
  const auto binary = tree.file("a/bin/nao");
  const auto candidates = configCandidates(binary);
  ASSERT_GE(candidates.size(), 4u);
  EXPECT_EQ(candidates[0], tree.root / "a/bin/Config");
  EXPECT_EQ(candidates[1], tree.root / "a/bin/share/nao-framework/Config");
  EXPECT_EQ(candidates[2], tree.root / "a/Config");
  EXPECT_EQ(candidates[3], tree.root / "a/share/nao-framework/Config");
  EXPECT_EQ(candidates.back(), std::filesystem::path("/share/nao-framework/Config"));
  try
  {
    FAIL() << "found " << findConfigDirectory(binary) << " (a Config/ above " << tree.root << "?)";
  }
  catch (const ConfigNotFound& error)
  {
    const std::string message = error.what();
    for (const auto& candidate : candidates)
      EXPECT_NE(message.find(candidate.string()), std::string::npos) << message;
    EXPECT_NE(message.find("--config"), std::string::npos) << message;
  }
}
