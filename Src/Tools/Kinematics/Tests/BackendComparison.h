#pragma once
// Robots, random loads and a tolerance check shared by the tests that compare the JIT with the Eigen reference
// (Jit/Tests) and the evaluators' backends (EvaluatorTests).
#include "Tools/Kinematics/StaticTorques.h"
#include "Tools/Kinematics/Tests/TestModels.h"

#include <Eigen/Core>
#include <array>
#include <functional>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

namespace nao::kinematics::test
{
/// A robot of the comparison and the two links its contact wrenches act on.
struct RobotCase
{
  std::string name;
  std::function<Model()> load;
  std::array<std::string, 2> contactLinks;
};

/// The NAO (LoLA coordinate order), the UR3 from DH parameters, the mixed robot (general axes, rotated
/// placements, prismatic joint, mimic with multiplier and offset) and the planar arm.
const std::vector<RobotCase>& robotCases();

/// Every entry within tolerance, absolute below magnitude 1 and relative above: |a - e| <= tol * max(1, |e|).
::testing::AssertionResult allClose(const Eigen::MatrixXd& actual, const Eigen::MatrixXd& expected,
                                    double tolerance = 1e-12);

/// A wrench of robot-like magnitude on `link`: force components up to 60 N, moments up to 5 N*m, applied
/// within 5 cm of the link's origin. `linkPose` is the link's current pose.
ContactWrench randomWrench(int link, const math::Pose& linkPose, std::mt19937& random);

/// Weight shares in [0.1, 0.9] and centres of pressure within 3 cm of the sole origins.
SoleLoads randomSoleLoads(std::mt19937& random);

/// A gravity vector of 9.81 m/s^2 tilted up to about 30 degrees from -z (a leaning torso).
Eigen::Vector3d randomGravity(std::mt19937& random);
} // namespace nao::kinematics::test
