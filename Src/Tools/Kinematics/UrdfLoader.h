#pragma once
// Builds a Model from a URDF (read with TinyXML: UrdfDocument.h). Supported joints: revolute, continuous,
// prismatic, fixed, with <mimic>. Fixed joints are merged into their parent body; every link keeps its own pose.
#include "Tools/Kinematics/MassCalibration.h"
#include "Tools/Kinematics/Model.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace nao::kinematics
{
struct ModelOptions
{
  /// Names of all independent joints in the order they take in q (e.g. the LoLA joint order). Empty: the
  /// order in which the joints appear in the URDF file.
  std::vector<std::string> coordinateOrder;
  /// Applied to the links before fixed links are merged; entries must name existing links.
  MassCalibration massCalibration;
};

/// Throws ModelError naming file, line and element for anything it cannot represent exactly: XML or URDF
/// errors, loops, unsupported joint types, zero or non-finite axes, negative masses, unknown mimic masters,
/// an incomplete coordinate order, calibration entries for unknown links.
Model loadModel(const std::filesystem::path& urdfFile, const ModelOptions& options = {});
Model buildModel(std::string_view urdfXml, const ModelOptions& options = {},
                 std::string_view sourceName = "URDF");
} // namespace nao::kinematics
