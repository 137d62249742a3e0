// The chain's geometry: construction errors, the Jacobian against nao::kinematics and against finite
// differences of forward kinematics, and its dJ/dq (Eq 10) by nao::kinematics' path derivatives against central
// differences of the chain's J and against the model's derivatives.
#include "Tools/Kinematics/ForwardKinematics.h"
#include "Tools/Kinematics/Jacobian.h"
#include "Tools/Kinematics/UrdfLoader.h"
#include "Tools/Stiffness/Chain.h"
#include "Tools/Stiffness/ChainKinematics.h"
#include "Tools/Stiffness/StiffnessError.h"
#include "Tools/Stiffness/Tests/StiffnessTestSupport.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace nao::stiffness::test
{
namespace
{
using kinematics::Model;
using ::testing::HasSubstr;

constexpr double step = 1e-6;

std::vector<std::string> namesOf(const Chain& chain)
{
  std::vector<std::string> names;
  for (const ChainJoint& joint : chain.joints())
    names.push_back(joint.name);
  return names;
}

std::string errorOf(const Model& model, const std::string& base, const std::string& tip)
{
  try
  {
    Chain chain(model, base, tip);
  }
  catch (const StiffnessError& error)
  {
    return error.what();
  }
  return "no error";
}

/// The chains every geometric test runs on: 6 and 7 joints, the base at the rotated mount (joints from the
/// first) and at link1 (the first two joints belong to the rest of the robot).
struct ChainCase
{
  int joints;
  unsigned seed;
  const char* base;
};
const ChainCase chainCases[] = {{6, 1, "mount"}, {7, 2, "mount"}, {6, 3, "link1"},
                                {7, 4, "link1"}, {6, 5, "world"}, {7, 6, "mount"}};

TEST(Chain, JointsAreTheUrdfJointsFromBaseToTip)
{
  const Model model = kinematics::buildModel(randomChainUrdf(6, 1));
  const Chain chain(model, "link1", "tool");
  EXPECT_EQ(namesOf(chain), (std::vector<std::string>{"joint2", "joint3", "joint4", "joint5"}));
  EXPECT_EQ(chain.jointNames(), "joint2, joint3, joint4, joint5");
  EXPECT_EQ(chain.findJoint("joint3"), 1);
  EXPECT_EQ(chain.findJoint("joint1"), -1);
  EXPECT_EQ(chain.joint(0).type, model.body(model.findBodyOfJoint("joint2")).type);
}

TEST(Chain, ErrorsNameTheProblem)
{
  const Model model = kinematics::buildModel(randomChainUrdf(6, 1));
  EXPECT_THAT(errorOf(model, "nowhere", "tool"), HasSubstr("unknown link 'nowhere' (the base link)"));
  EXPECT_THAT(errorOf(model, "mount", "hand"), HasSubstr("unknown link 'hand' (the tip link)"));
  EXPECT_THAT(errorOf(model, "tool", "mount"),
              HasSubstr("base link 'tool' is not an ancestor of tip link 'mount'"));
  EXPECT_THAT(errorOf(model, "side", "tool"),
              HasSubstr("base link 'side' is not an ancestor of tip link 'tool'"));
  EXPECT_THAT(errorOf(model, "world", "mount"), HasSubstr("no moving joint between base link 'world'"));
}

TEST(Chain, MimicCouplingsThatBreakTheChainAreRejected)
{
  const std::string limit = "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/>";
  const auto joint = [&](const std::string& name, const std::string& parent, const std::string& child,
                         const std::string& mimic)
  {
    return "<joint name=\"" + name + "\" type=\"revolute\"><parent link=\"" + parent + "\"/><child link=\"" +
           child + "\"/><origin xyz=\"0.1 0 0\"/><axis xyz=\"0 0 1\"/>" + limit + mimic +
           "</joint><link name=\"" + child + "\"/>";
  };
  const std::string mimicA = "<mimic joint=\"a\" multiplier=\"2\" offset=\"0.1\"/>";
  const Model model =
      kinematics::buildModel("<robot name=\"m\"><link name=\"root\"/>" + joint("a", "root", "la", "") +
                             joint("b", "la", "lb", mimicA) + joint("c", "lb", "lc", "") +
                             joint("d", "root", "ld", mimicA) + "</robot>");
  EXPECT_THAT(errorOf(model, "root", "lc"), HasSubstr("chain joints 'a' and 'b' are coupled by a <mimic>"));
  EXPECT_THAT(errorOf(model, "la", "lc"),
              HasSubstr("joint 'a' above base link 'la' is coupled by a <mimic> to chain joint 'b'"));
  // A mimic whose master is off the chain (on a sibling branch) is fine: its own value is the variable.
  const Chain chain(model, "root", "ld");
  ASSERT_EQ(chain.jointCount(), 1);
  Workspace workspace(chain);
  Eigen::VectorXd q(1);
  q << 0.7;
  updateChain(chain, workspace, q);
  EXPECT_NEAR(workspace.kinematics.jointValues[static_cast<std::size_t>(model.findBodyOfJoint("d"))], 0.7,
              1e-15);
}

TEST(ChainJacobian, MatchesNaoKinematicsRotatedIntoTheBaseFrame)
{
  for (const ChainCase& c : chainCases)
  {
    const Model model = kinematics::buildModel(randomChainUrdf(c.joints, c.seed));
    const Eigen::Vector3d pointInTip(0.05, -0.02, 0.03);
    const Chain chain(model, c.base, "tool", pointInTip);
    Workspace workspace(chain);
    std::mt19937 random(c.seed);
    for (int trial = 0; trial < 10; ++trial)
    {
      const Eigen::VectorXd q = randomJointValues(chain.jointCount(), 2.0, random);
      updateChain(chain, workspace, q);
      // The library's root-frame Jacobian of the whole model, its chain columns rotated into the base frame.
      kinematics::Jacobian rootJacobian(6, model.coordinateCount());
      kinematics::computePointJacobian(model, workspace.kinematics, chain.tipLink(), pointInTip,
                                       rootJacobian);
      const Eigen::Matrix3d toBase = workspace.basePose.rotation.transpose();
      for (int i = 0; i < chain.jointCount(); ++i)
      {
        const auto column = rootJacobian.col(chain.joint(i).coordinate);
        EXPECT_LT((workspace.jacobian.col(i).head<3>() - toBase * column.head<3>()).norm(), 1e-14);
        EXPECT_LT((workspace.jacobian.col(i).tail<3>() - toBase * column.tail<3>()).norm(), 1e-14);
      }
    }
  }
}

TEST(ChainJacobian, MatchesFiniteDifferencesOfTheRelativePose)
{
  for (const ChainCase& c : chainCases)
  {
    const Model model = kinematics::buildModel(randomChainUrdf(c.joints, c.seed));
    const Eigen::Vector3d pointInTip(-0.03, 0.04, 0.01);
    const Chain chain(model, c.base, "tool", pointInTip);
    const std::vector<std::string> names = namesOf(chain);
    Workspace workspace(chain);
    std::mt19937 random(c.seed + 100);
    for (int trial = 0; trial < 10; ++trial)
    {
      const Eigen::VectorXd q = randomJointValues(chain.jointCount(), 2.0, random);
      updateChain(chain, workspace, q);
      const auto pose = [&](const Eigen::VectorXd& x)
      { return relativeLinkPose(model, names, x, c.base, "tool"); };
      const math::Pose center = pose(q);
      EXPECT_LT((workspace.tipPoint - center * pointInTip).norm(), 1e-14);
      EXPECT_LT((workspace.tipRotation - center.rotation).norm(), 1e-14);
      for (int k = 0; k < chain.jointCount(); ++k)
      {
        Eigen::VectorXd plus = q, minus = q;
        plus[k] += step;
        minus[k] -= step;
        const math::Pose a = pose(plus), b = pose(minus);
        const Eigen::Vector3d linear = (a * pointInTip - b * pointInTip) / (2.0 * step);
        const Eigen::Vector3d angular =
            angularVelocityFromDifference(a.rotation, b.rotation, center.rotation, step);
        EXPECT_LT((workspace.jacobian.col(k).head<3>() - linear).norm(), 1e-8)
            << c.joints << " joints, k " << k;
        EXPECT_LT((workspace.jacobian.col(k).tail<3>() - angular).norm(), 1e-8)
            << c.joints << " joints, k " << k;
      }
    }
  }
}

TEST(ChainJacobianDerivatives, MatchCentralDifferencesOfTheJacobian)
{
  for (const ChainCase& c : chainCases)
  {
    const Model model = kinematics::buildModel(randomChainUrdf(c.joints, c.seed));
    const Chain chain(model, c.base, "tool", Eigen::Vector3d(0.02, 0.0, -0.04));
    const int n = chain.jointCount();
    Workspace workspace(chain), scratch(chain);
    std::mt19937 random(c.seed + 200);
    for (int trial = 0; trial < 10; ++trial)
    {
      const Eigen::VectorXd q = randomJointValues(n, 2.0, random);
      updateChain(chain, workspace, q);
      kinematics::Jacobian derivatives(6, n * n);
      kinematics::computeJacobianDerivatives(workspace.jacobian, derivatives);
      const auto flatJacobian = [&](const Eigen::VectorXd& x) -> Eigen::VectorXd
      {
        updateChain(chain, scratch, x);
        return scratch.jacobian.reshaped();
      };
      for (int k = 0; k < n; ++k)
      {
        const Eigen::VectorXd expected = centralDifference(flatJacobian, q, k, step);
        const Eigen::VectorXd actual = derivatives.middleCols(k * n, n).reshaped();
        EXPECT_LT((actual - expected).cwiseAbs().maxCoeff(), 1e-8) << c.joints << " joints, d/dq" << k;
      }
    }
  }
}

TEST(ChainJacobianDerivatives, MatchNaoKinematicsWhenTheBaseIsTheRoot)
{
  // With base = root and every coordinate on the chain, dJ/dq_k of nao::kinematics is the same matrix.
  const Model model = kinematics::buildModel(randomChainUrdf(7, 9));
  const Chain chain(model, "world", "tool");
  const int n = chain.jointCount(), nq = model.coordinateCount();
  Workspace workspace(chain);
  std::mt19937 random(10);
  const Eigen::VectorXd q = randomJointValues(n, 2.0, random);
  updateChain(chain, workspace, q);
  kinematics::Jacobian ours(6, n * n);
  kinematics::computeJacobianDerivatives(workspace.jacobian, ours);
  kinematics::Jacobian theirs(6, nq * nq);
  kinematics::computeJacobianDerivatives(model, workspace.kinematics, chain.tipLink(),
                                         Eigen::Vector3d::Zero(), theirs);
  for (int k = 0; k < n; ++k)
    for (int i = 0; i < n; ++i)
    {
      const int ck = chain.joint(k).coordinate, ci = chain.joint(i).coordinate;
      EXPECT_LT((ours.col(k * n + i) - theirs.col(ck * nq + ci)).norm(), 1e-14) << k << " " << i;
    }
}
} // namespace
} // namespace nao::stiffness::test

namespace nao::stiffness::test
{
namespace
{
TEST(ChainFromPoses, EqualsUpdateChainFromAnotherForwardPass)
{
  // One forward pass of the whole model (its own kinematics::Data) shared by a chain: the same geometry as the
  // chain's own updateChain, and the chain's q with the model's values.
  for (const ChainCase& c : chainCases)
  {
    const Model model = kinematics::buildModel(randomChainUrdf(c.joints, c.seed));
    const Chain chain(model, c.base, "tool", Eigen::Vector3d(0.02, -0.01, 0.03));
    Workspace own(chain), shared(chain);
    kinematics::Data data(model);
    std::mt19937 random(c.seed + 300);
    const Eigen::VectorXd modelQ = randomJointValues(model.coordinateCount(), 2.0, random);
    kinematics::updateBodyPoses(model, data, modelQ);
    struct DataPoses
    {
      const Model& model;
      const kinematics::Data& data;
      math::Pose linkPose(int link) const { return kinematics::linkPose(model, data, link); }
      const math::Pose& bodyPose(int body) const { return data.bodyPoses[static_cast<std::size_t>(body)]; }
      const Eigen::Vector3d& jointAxis(int body) const
      {
        return data.jointAxes[static_cast<std::size_t>(body)];
      }
    };
    updateChainFromPoses(chain, shared, modelQ, DataPoses{model, data});
    Eigen::VectorXd q(chain.jointCount());
    for (int i = 0; i < chain.jointCount(); ++i)
      q[i] = modelQ[chain.joint(i).coordinate];
    updateChain(chain, own, q);
    EXPECT_LT((shared.q - q).norm(), 1e-15);
    EXPECT_LT((shared.jacobian - own.jacobian).norm(), 1e-12) << c.joints << " joints from " << c.base;
    EXPECT_LT((shared.tipPoint - own.tipPoint).norm(), 1e-12);
    EXPECT_LT((shared.axes - own.axes).norm(), 1e-12);
  }
}
} // namespace
} // namespace nao::stiffness::test
