#pragma once
// Benchmark support: an Orocos KDL tree built from the same URDF (Debian ships no kdl_parser), so that KDL
// and nao::kinematics compute the same robot.
#include <kdl/tree.hpp>
#include <set>
#include <string>

namespace nao::kinematics::benchmark
{
/// One KDL segment per URDF link except the root; fixed joints become Joint::None. With `onlyLoadedLinks`,
/// leaf links on fixed joints without mass (the NAO's 35 sensor frames, gaze) are left out, except `keep`.
/// Throws std::runtime_error.
KDL::Tree kdlTreeFromUrdf(const std::string& urdfXml, bool onlyLoadedLinks = false,
                          const std::set<std::string>& keep = {});
} // namespace nao::kinematics::benchmark
