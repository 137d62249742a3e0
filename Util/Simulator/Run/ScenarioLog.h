#pragma once
// What a judged run's robot logs: an evaluation that reads only a few representations runs on a copy of Config/ whose
// scenarios' [Log] name just those (a full log is ~25 MB per simulated minute; Config/Scenarios/stand.toml).
#include <filesystem>
#include <string>
#include <vector>

namespace nao
{
/// The scenario file's text with [Log]'s `representations` (a list that may span lines) replaced by `names`.
std::string withLoggedRepresentations(const std::string& scenarioText, const std::vector<std::string>& names);

/// Config/ copied to `target` (what was there removed), each of `scenarios` logging only `names`. Returns `target`.
/// Throws std::runtime_error when a scenario cannot be read or written.
std::filesystem::path configLogging(const std::filesystem::path& source, const std::filesystem::path& target,
                                    const std::vector<std::string>& scenarios,
                                    const std::vector<std::string>& names);
} // namespace nao
