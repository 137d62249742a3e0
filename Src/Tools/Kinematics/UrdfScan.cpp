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

UrdfScan scanUrdf(std::string_view xml, std::string_view sourceName)
{
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
