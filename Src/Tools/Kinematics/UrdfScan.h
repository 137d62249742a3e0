#pragma once
// Internal to the URDF loader: the tree structure read straight from the XML, before urdfdom parses it.
// urdfdom forgets the order of joints in the file and the line numbers, and it loops forever or reports only
// "no root link" when the joints form a cycle; this scan supplies all three.
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace nao::kinematics::detail
{
struct ScannedJoint
{
  std::string name;
  std::string parent; ///< link name
  std::string child;  ///< link name
  int line = 0;
};

struct UrdfScan
{
  std::vector<ScannedJoint> joints;     ///< in file order
  std::map<std::string, int> linkLines; ///< link name -> line of its <link> element
  std::map<std::string, int> jointLines;

  /// "source:line" for an element, or just "source" when the name is unknown.
  std::string linkLocation(std::string_view source, const std::string& link) const;
  std::string jointLocation(std::string_view source, const std::string& joint) const;
};

/// Throws ModelError for malformed XML, a link with two parent joints, or a cycle of joints (naming them).
UrdfScan scanUrdf(std::string_view xml, std::string_view sourceName);
} // namespace nao::kinematics::detail
