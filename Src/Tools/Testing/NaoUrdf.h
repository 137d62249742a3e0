#pragma once
// The NAO's robot description of this checkout (Config/Robots/Default/nao-v6.urdf), for tests and benchmarks that
// load it as a file or build from its text.
#include <filesystem>
#include <string>

namespace nao::test
{
std::filesystem::path naoUrdfPath();
std::string naoUrdfText();
} // namespace nao::test
