#pragma once
// LogTool's view of what a log records besides its frames (Framework/LogMetadata.h): the module graph and the
// parameters, loaded and edited live.
#include "Framework/LogMetadata.h"
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>

namespace nao::logtool
{
/// For `info`: the module graph's modules (execution order, what each requires, uses and provides) and which
/// modules' parameters the log holds, with each live edit and the frame it is in force from. A log written before
/// these were recorded says so.
void printMetadataSummary(const LogMetadata& metadata, std::ostream& out);
/// `LogTool parameters LOG [FRAME]`: every module's parameters (TOML, file units) in force at `frame` (the log's
/// start when not given). Returns the exit status (2: the log holds no parameters).
int printParameters(const std::string& path, std::optional<std::uint32_t> frame);
} // namespace nao::logtool
