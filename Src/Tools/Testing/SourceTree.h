#pragma once
// Where a test finds the checkout it was built from: the repository's root folder and its Config/ (the build's
// NAO_SOURCE_DIR and NAO_CONFIG_DIR), so that a test reads the files of this checkout wherever it runs.
#include <filesystem>

namespace nao::test
{
std::filesystem::path sourceDirectory(); ///< the repository's root folder
std::filesystem::path configDirectory(); ///< its Config/
} // namespace nao::test
