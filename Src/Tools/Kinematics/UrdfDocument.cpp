#include "Tools/Kinematics/UrdfDocument.h"

#include "Tools/Kinematics/ModelError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tinyxml.h>

namespace nao::kinematics::detail
{
namespace
{
/// Reads one element's content; every error names the source, the element's line and what it belongs to.
class ElementReader
{
public:
  ElementReader(std::string_view source, std::string owner) : source_(source), owner_(std::move(owner)) {}

  [[noreturn]] void fail(const TiXmlElement& element, const std::string& problem) const
  {
    throw ModelError(std::string(source_) + ":" + std::to_string(element.Row()) + ": " + owner_ + ": " +
                     problem);
  }

  std::string required(const TiXmlElement& element, const char* attribute) const
  {
    const char* value = element.Attribute(attribute);
    if (!value) fail(element, "<" + element.ValueStr() + "> has no attribute '" + attribute + "'");
    return value;
  }

  /// `text` is the attribute's value or, for a vector, one of its numbers.
  double number(const TiXmlElement& element, const char* attribute, std::string_view text) const
  {
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const std::size_t last = text.find_last_not_of(" \t\r\n");
    std::string_view trimmed = first == std::string_view::npos ? "" : text.substr(first, last - first + 1);
    if (!trimmed.empty() && trimmed.front() == '+') trimmed.remove_prefix(1); // from_chars takes no '+'
    double value = 0.0;
    const auto [end, error] = std::from_chars(trimmed.data(), trimmed.data() + trimmed.size(), value);
    if (trimmed.empty() || error != std::errc() || end != trimmed.data() + trimmed.size())
      fail(element, "<" + element.ValueStr() + " " + attribute + "=\"" + element.Attribute(attribute) +
                        "\">: '" + std::string(trimmed) + "' is not a number");
    return value;
  }

  double number(const TiXmlElement& element, const char* attribute) const
  {
    return number(element, attribute, required(element, attribute));
  }

  double numberOr(const TiXmlElement& element, const char* attribute, double fallback) const
  {
    const char* value = element.Attribute(attribute);
    return value ? number(element, attribute, value) : fallback;
  }

  /// Three numbers separated by white space ("x y z").
  Eigen::Vector3d vector(const TiXmlElement& element, const char* attribute, std::string_view text) const
  {
    std::vector<double> values;
    for (std::size_t begin = text.find_first_not_of(" \t\r\n"); begin != std::string_view::npos;)
    {
      const std::size_t end = std::min(text.find_first_of(" \t\r\n", begin), text.size());
      values.push_back(number(element, attribute, text.substr(begin, end - begin)));
      begin = text.find_first_not_of(" \t\r\n", end);
    }
    if (values.size() != 3)
      fail(element, "<" + element.ValueStr() + " " + attribute + "=\"" + std::string(text) + "\"> has " +
                        std::to_string(values.size()) + " numbers, 3 expected");
    return {values[0], values[1], values[2]};
  }

  Eigen::Vector3d vectorOr(const TiXmlElement& element, const char* attribute,
                           const Eigen::Vector3d& fallback) const
  {
    const char* value = element.Attribute(attribute);
    return value ? vector(element, attribute, value) : fallback;
  }

  /// An <origin> child of `parent`; identity when there is none.
  UrdfPose origin(const TiXmlElement& parent) const
  {
    UrdfPose pose;
    const TiXmlElement* origin = parent.FirstChildElement("origin");
    if (!origin) return pose;
    pose.position = vectorOr(*origin, "xyz", Eigen::Vector3d::Zero());
    if (origin->Attribute("rpy"))
      pose.rotation = rotationFromRollPitchYaw(vector(*origin, "rpy", origin->Attribute("rpy")));
    return pose;
  }

private:
  /// R = Rz(yaw) Ry(pitch) Rx(roll) as a unit quaternion, from the half angles; normalised the way urdfdom does,
  /// so that both parsers give the same bits.
  static Eigen::Quaterniond rotationFromRollPitchYaw(const Eigen::Vector3d& rpy)
  {
    const double sr = std::sin(rpy.x() / 2.0), cr = std::cos(rpy.x() / 2.0);
    const double sp = std::sin(rpy.y() / 2.0), cp = std::cos(rpy.y() / 2.0);
    const double sy = std::sin(rpy.z() / 2.0), cy = std::cos(rpy.z() / 2.0);
    double x = sr * cp * cy - cr * sp * sy;
    double y = cr * sp * cy + sr * cp * sy;
    double z = cr * cp * sy - sr * sp * cy;
    double w = cr * cp * cy + sr * sp * sy;
    const double norm = std::sqrt(x * x + y * y + z * z + w * w);
    if (norm == 0.0) return Eigen::Quaterniond::Identity();
    return Eigen::Quaterniond(w / norm, x / norm, y / norm, z / norm);
  }

  std::string_view source_;
  std::string owner_;
};

std::optional<UrdfInertial> readInertial(const TiXmlElement& link, const ElementReader& reader)
{
  const TiXmlElement* element = link.FirstChildElement("inertial");
  if (!element) return std::nullopt;
  UrdfInertial inertial;
  inertial.origin = reader.origin(*element);
  const TiXmlElement* mass = element->FirstChildElement("mass");
  if (!mass) reader.fail(*element, "<inertial> has no <mass>");
  inertial.mass = reader.number(*mass, "value");
  const TiXmlElement* inertia = element->FirstChildElement("inertia");
  if (!inertia) reader.fail(*element, "<inertial> has no <inertia>");
  inertial.ixx = reader.number(*inertia, "ixx");
  inertial.ixy = reader.number(*inertia, "ixy");
  inertial.ixz = reader.number(*inertia, "ixz");
  inertial.iyy = reader.number(*inertia, "iyy");
  inertial.iyz = reader.number(*inertia, "iyz");
  inertial.izz = reader.number(*inertia, "izz");
  return inertial;
}

UrdfJointType jointType(const TiXmlElement& joint, const ElementReader& reader)
{
  static const std::map<std::string, UrdfJointType, std::less<>> types = {
      {"revolute", UrdfJointType::revolute},   {"continuous", UrdfJointType::continuous},
      {"prismatic", UrdfJointType::prismatic}, {"fixed", UrdfJointType::fixed},
      {"floating", UrdfJointType::floating},   {"planar", UrdfJointType::planar}};
  const std::string name = reader.required(joint, "type");
  const auto found = types.find(name);
  if (found == types.end())
    reader.fail(joint,
                "unknown type '" + name + "' (revolute, continuous, prismatic, fixed, floating, planar)");
  return found->second;
}

UrdfJoint readJoint(const TiXmlElement& element, std::string_view source)
{
  UrdfJoint joint;
  joint.line = element.Row();
  joint.name = ElementReader(source, "a <joint>").required(element, "name");
  const ElementReader reader(source, "joint '" + joint.name + "'");
  joint.type = jointType(element, reader);
  for (auto [tag, link] : {std::pair{"parent", &joint.parent}, std::pair{"child", &joint.child}})
  {
    const TiXmlElement* linkElement = element.FirstChildElement(tag);
    if (!linkElement) reader.fail(element, std::string("has no <") + tag + ">");
    *link = reader.required(*linkElement, "link");
  }
  joint.origin = reader.origin(element);
  if (const TiXmlElement* axis = element.FirstChildElement("axis"))
    joint.axis = reader.vector(*axis, "xyz", reader.required(*axis, "xyz"));
  if (const TiXmlElement* limit = element.FirstChildElement("limit"))
    joint.limits = UrdfLimits{reader.numberOr(*limit, "lower", 0.0), reader.numberOr(*limit, "upper", 0.0),
                              reader.number(*limit, "effort"), reader.number(*limit, "velocity")};
  else if (joint.type == UrdfJointType::revolute || joint.type == UrdfJointType::prismatic)
    reader.fail(element, "a revolute or prismatic joint needs limits: <limit lower upper effort velocity>");
  if (const TiXmlElement* mimic = element.FirstChildElement("mimic"))
    joint.mimic = UrdfMimic{reader.required(*mimic, "joint"), reader.numberOr(*mimic, "multiplier", 1.0),
                            reader.numberOr(*mimic, "offset", 0.0)};
  return joint;
}

std::string location(std::string_view source, int line)
{
  return std::string(source) + ":" + std::to_string(line);
}

/// Every joint's links exist, every link has at most one parent joint, the joints form no cycle, and exactly
/// one link is no joint's child.
std::string checkTree(const UrdfDocument& document, std::string_view source)
{
  std::map<std::string, const UrdfJoint*, std::less<>> parentJointOfLink;
  for (const UrdfJoint& joint : document.joints)
  {
    for (const std::string* link : {&joint.parent, &joint.child})
      if (!document.linkIndex.contains(*link))
        throw ModelError(location(source, joint.line) + ": joint '" + joint.name + "': no link '" + *link +
                         "'");
    const auto [existing, inserted] = parentJointOfLink.emplace(joint.child, &joint);
    if (!inserted)
      throw ModelError(location(source, joint.line) + ": joint '" + joint.name + "': its child link '" +
                       joint.child + "' is already the child of joint '" + existing->second->name +
                       "' (line " + std::to_string(existing->second->line) +
                       "); a link has one parent, so the joints form a loop");
  }
  // Every link now has at most one parent joint; walking up from each link either ends at a root or cycles.
  for (const UrdfJoint& start : document.joints)
  {
    std::vector<const UrdfJoint*> chain{
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
        throw ModelError(location(source, (*repeated)->line) + ": joints " + names + " form a loop (link '" +
                         (*repeated)->child + "' is its own ancestor)");
      }
      chain.push_back(up->second);
    }
  }
  std::vector<const UrdfLink*> roots;
  for (const UrdfLink& link : document.links)
    if (!parentJointOfLink.contains(link.name)) roots.push_back(&link);
  if (roots.size() != 1)
    throw ModelError(std::string(source) + ": the robot has " + std::to_string(roots.size()) +
                     " root links (links that are no joint's child)" +
                     (roots.size() > 1
                          ? ", e.g. '" + roots[0]->name + "' (line " + std::to_string(roots[0]->line) +
                                ") and '" + roots[1]->name + "' (line " + std::to_string(roots[1]->line) + ")"
                          : std::string()) +
                     "; it must have exactly one");
  return roots.front()->name;
}

/// TinyXML 2.6 (Debian's) trusts a UTF-8 lead byte's length and reads past the end of the text when the sequence
/// is cut off (found by Fuzz/UrdfFuzzer). So the text must be valid UTF-8 before TinyXML sees it; the error names
/// the line and column of the first bad byte.
void requireValidUtf8(std::string_view xml, std::string_view sourceName)
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
} // namespace

const UrdfLink& UrdfDocument::link(std::string_view name) const
{
  const auto found = linkIndex.find(name);
  if (found == linkIndex.end()) throw std::out_of_range("no link '" + std::string(name) + "'");
  return links[found->second];
}

const UrdfJoint& UrdfDocument::joint(std::string_view name) const
{
  const auto found = jointIndex.find(name);
  if (found == jointIndex.end()) throw std::out_of_range("no joint '" + std::string(name) + "'");
  return joints[found->second];
}

std::string UrdfDocument::linkLocation(std::string_view source, std::string_view name) const
{
  const auto found = linkIndex.find(name);
  return found == linkIndex.end() ? std::string(source) : location(source, links[found->second].line);
}

std::string UrdfDocument::jointLocation(std::string_view source, std::string_view name) const
{
  const auto found = jointIndex.find(name);
  return found == jointIndex.end() ? std::string(source) : location(source, joints[found->second].line);
}

UrdfDocument readUrdf(std::string_view xml, std::string_view sourceName)
{
  requireValidUtf8(xml, sourceName);
  TiXmlDocument xmlDocument;
  xmlDocument.Parse(std::string(xml).c_str(), nullptr, TIXML_ENCODING_UTF8);
  if (xmlDocument.Error())
    throw ModelError(std::string(sourceName) + ":" + std::to_string(xmlDocument.ErrorRow()) + ":" +
                     std::to_string(xmlDocument.ErrorCol()) + ": XML error: " + xmlDocument.ErrorDesc());
  const TiXmlElement* robot = xmlDocument.FirstChildElement("robot");
  if (!robot) throw ModelError(std::string(sourceName) + ": no <robot> element");
  UrdfDocument document;
  document.robotName = ElementReader(sourceName, "the robot").required(*robot, "name");
  for (const TiXmlElement* element = robot->FirstChildElement("link"); element;
       element = element->NextSiblingElement("link"))
  {
    UrdfLink link;
    link.line = element->Row();
    link.name = ElementReader(sourceName, "a <link>").required(*element, "name");
    if (const auto [other, added] = document.linkIndex.emplace(link.name, document.links.size()); !added)
      throw ModelError(location(sourceName, link.line) + ": link '" + link.name +
                       "' is defined twice (also line " + std::to_string(document.links[other->second].line) +
                       ")");
    link.inertial = readInertial(*element, ElementReader(sourceName, "link '" + link.name + "'"));
    document.links.push_back(std::move(link));
  }
  for (const TiXmlElement* element = robot->FirstChildElement("joint"); element;
       element = element->NextSiblingElement("joint"))
  {
    UrdfJoint joint = readJoint(*element, sourceName);
    if (const auto [other, added] = document.jointIndex.emplace(joint.name, document.joints.size()); !added)
      throw ModelError(location(sourceName, joint.line) + ": joint '" + joint.name +
                       "' is defined twice (also line " +
                       std::to_string(document.joints[other->second].line) + ")");
    document.joints.push_back(std::move(joint));
  }
  document.rootLink = checkTree(document, sourceName);
  return document;
}
} // namespace nao::kinematics::detail
