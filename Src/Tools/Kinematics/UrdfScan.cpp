#include "Tools/Kinematics/UrdfScan.h"

#include "Tools/Kinematics/ModelError.h"

#include <algorithm>
#include <tinyxml.h>

namespace nao::kinematics::detail
{
namespace
{
std::string attribute(const TiXmlElement& element, const char* name)
{
  const char* value = element.Attribute(name);
  return value ? value : "";
}

std::string linkOf(const TiXmlElement& joint, const char* tag)
{
  const TiXmlElement* element = joint.FirstChildElement(tag);
  return element ? attribute(*element, "link") : "";
}

std::string location(std::string_view source, const std::map<std::string, int>& lines,
                     const std::string& name)
{
  const auto found = lines.find(name);
  return found == lines.end() ? std::string(source)
                              : std::string(source) + ":" + std::to_string(found->second);
}

void rejectLoops(const UrdfScan& scan, std::string_view source)
{
  std::map<std::string, const ScannedJoint*> parentJointOfLink;
  for (const ScannedJoint& joint : scan.joints)
  {
    const auto [existing, inserted] = parentJointOfLink.emplace(joint.child, &joint);
    if (!inserted)
      throw ModelError(std::string(source) + ":" + std::to_string(joint.line) + ": joint '" + joint.name +
                       "': its child link '" + joint.child + "' is already the child of joint '" +
                       existing->second->name + "' (line " + std::to_string(existing->second->line) +
                       "); a link has one parent, so the joints form a loop");
  }
  // Every link now has at most one parent joint; walking up from each link either ends at a root or cycles.
  for (const ScannedJoint& start : scan.joints)
  {
    std::vector<const ScannedJoint*> chain{
        &start}; // walked upwards: chain[i + 1] is the parent joint of chain[i]
    for (auto up = parentJointOfLink.find(start.parent); up != parentJointOfLink.end();
         up = parentJointOfLink.find(up->second->parent))
    {
      const auto repeated = std::find(chain.begin(), chain.end(), up->second);
      if (repeated != chain.end())
      {
        std::string names;
        for (auto joint = chain.end(); joint != repeated;)
          names += (names.empty() ? "'" : " -> '") + (*--joint)->name + "'";
        throw ModelError(std::string(source) + ":" + std::to_string((*repeated)->line) + ": joints " + names +
                         " form a loop (link '" + (*repeated)->child + "' is its own ancestor)");
      }
      chain.push_back(up->second);
    }
  }
}
} // namespace

std::string UrdfScan::linkLocation(std::string_view source, const std::string& link) const
{
  return location(source, linkLines, link);
}

std::string UrdfScan::jointLocation(std::string_view source, const std::string& joint) const
{
  return location(source, jointLines, joint);
}

/// TinyXML 2.6 (Debian's, also inside urdfdom) trusts a UTF-8 lead byte's length and reads past the end of the
/// text when the sequence is cut off (found by Fuzz/UrdfFuzzer). So the text must be valid UTF-8 before either
/// parser sees it; the error names the line and column of the first bad byte.
static void requireValidUtf8(std::string_view xml, std::string_view sourceName)
{
  int line = 1, column = 1;
  for (std::size_t i = 0; i < xml.size();)
  {
    const auto byte = static_cast<unsigned char>(xml[i]);
    std::size_t length = byte < 0x80           ? 1
                         : (byte >> 5) == 0x6  ? 2
                         : (byte >> 4) == 0xE  ? 3
                         : (byte >> 3) == 0x1E ? 4
                                               : 0;
    bool valid = length != 0 && i + length <= xml.size() && byte != 0;
    for (std::size_t k = 1; valid && k < length; ++k)
      valid = (static_cast<unsigned char>(xml[i + k]) & 0xC0) == 0x80;
    if (!valid)
      throw ModelError(std::string(sourceName) + ":" + std::to_string(line) + ":" + std::to_string(column) +
                       ": not valid UTF-8 text (byte 0x" + "0123456789abcdef"[byte >> 4] +
                       "0123456789abcdef"[byte & 0xF] + ")");
    if (byte == '\n')
    {
      ++line;
      column = 1;
    }
    else
      ++column;
    i += length;
  }
}

UrdfScan scanUrdf(std::string_view xml, std::string_view sourceName)
{
  requireValidUtf8(xml, sourceName);
  TiXmlDocument document;
  document.Parse(std::string(xml).c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (document.Error())
    throw ModelError(std::string(sourceName) + ":" + std::to_string(document.ErrorRow()) + ":" +
                     std::to_string(document.ErrorCol()) + ": XML error: " + document.ErrorDesc());
  const TiXmlElement* robot = document.FirstChildElement("robot");
  if (!robot) throw ModelError(std::string(sourceName) + ": no <robot> element");
  UrdfScan scan;
  for (const TiXmlElement* link = robot->FirstChildElement("link"); link;
       link = link->NextSiblingElement("link"))
    scan.linkLines.emplace(attribute(*link, "name"), link->Row());
  for (const TiXmlElement* joint = robot->FirstChildElement("joint"); joint;
       joint = joint->NextSiblingElement("joint"))
  {
    scan.joints.push_back(
        {attribute(*joint, "name"), linkOf(*joint, "parent"), linkOf(*joint, "child"), joint->Row()});
    scan.jointLines.emplace(scan.joints.back().name, joint->Row());
  }
  rejectLoops(scan, sourceName);
  return scan;
}
} // namespace nao::kinematics::detail
