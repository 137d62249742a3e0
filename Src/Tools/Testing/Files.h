#pragma once
// Reading a whole file in a test: the README a test runs, the CSV a run wrote, the output of a command.
#include <filesystem>
#include <string>

namespace nao::test
{
/// The bytes of `file`; empty when it cannot be read (the test's own check then fails on what it expected).
std::string readFile(const std::filesystem::path& file);
} // namespace nao::test
