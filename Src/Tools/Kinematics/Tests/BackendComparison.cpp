#include "Tools/Kinematics/Tests/BackendComparison.h"

#include "Tools/Kinematics/UrdfLoader.h"

#include <sstream>

namespace nao::kinematics::test
{
const std::vector<RobotCase>& robotCases()
{
  static const std::vector<RobotCase> cases{
      {"nao", [] { return loadNao(); }, {"l_sole", "r_sole"}},
      {"ur3", [] { return buildModel(ur3Urdf(), {}, "ur3"); }, {"link3", "tool0"}},
      {"mixed", [] { return buildModel(mixedRobotUrdf(), {}, "mixed"); }, {"hand", "twin_tip"}},
      {"planar", [] { return buildModel(planarArmUrdf(), {}, "planar"); }, {"l1", "l3"}},
  };
  return cases;
}

::testing::AssertionResult allClose(const Eigen::MatrixXd& actual, const Eigen::MatrixXd& expected,
                                    double tolerance)
{
  if (actual.rows() != expected.rows() || actual.cols() != expected.cols())
    return ::testing::AssertionFailure() << "size " << actual.rows() << "x" << actual.cols() << " instead of "
                                         << expected.rows() << "x" << expected.cols();
  for (Eigen::Index c = 0; c < actual.cols(); ++c)
    for (Eigen::Index r = 0; r < actual.rows(); ++r)
    {
      const double allowed = tolerance * std::max(1.0, std::abs(expected(r, c)));
      if (!(std::abs(actual(r, c) - expected(r, c)) <= allowed))
      {
        std::ostringstream message;
        message.precision(17);
        message << "entry (" << r << ", " << c << "): " << actual(r, c) << " instead of " << expected(r, c)
                << ", difference " << actual(r, c) - expected(r, c) << " > " << allowed;
        return ::testing::AssertionFailure() << message.str();
      }
    }
  return ::testing::AssertionSuccess();
}

ContactWrench randomWrench(int link, const math::Pose& linkPose, std::mt19937& random)
{
  std::uniform_real_distribution<double> force(-60.0, 60.0), moment(-5.0, 5.0), offset(-0.05, 0.05);
  ContactWrench wrench;
  wrench.link = link;
  wrench.point = linkPose * Eigen::Vector3d(offset(random), offset(random), offset(random));
  wrench.force = Eigen::Vector3d(force(random), force(random), force(random));
  wrench.moment = Eigen::Vector3d(moment(random), moment(random), moment(random));
  return wrench;
}

SoleLoads randomSoleLoads(std::mt19937& random)
{
  std::uniform_real_distribution<double> share(0.1, 0.9), cop(-0.03, 0.03);
  const double left = share(random);
  return {SoleLoad{left, {cop(random), cop(random)}}, SoleLoad{1.0 - left, {cop(random), cop(random)}}};
}

Eigen::Vector3d randomGravity(std::mt19937& random)
{
  std::uniform_real_distribution<double> tilt(-0.5, 0.5);
  return 9.81 * Eigen::Vector3d(tilt(random), tilt(random), -1.0).normalized();
}
} // namespace nao::kinematics::test
