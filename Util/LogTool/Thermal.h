#pragma once
// `LogTool thermal LOG`: each joint's fitted thermal model and forecast from the last JointThermalState of a log
// (Src/Modules/Modeling/JointThermalStateProvider/README.md), and a one-line summary of the robot.
#include <string>

namespace nao
{
/// Prints the table and the summary to standard output; 0, or 2 (with what is missing on standard error) when the
/// log holds no JointThermalState it can decode.
int printThermal(const std::string& path);
} // namespace nao
