// The robot binary's command line: `--print-graph dot` read back as Graphviz DOT for real scenarios.
#include "Framework/Tests/DotGraph.h"
#include "Tools/Testing/RunCommand.h"
#include <gtest/gtest.h>

using namespace nao::test;

namespace
{
DotGraph graphOf(const std::string& arguments)
{
  const CommandResult result = runCommand(std::string(NAO_ROBOT_BINARY) + " " + arguments);
  EXPECT_EQ(result.status, 0) << result.output;
  return DotGraph::parse(result.output);
}
} // namespace

TEST(NaoCommandLine, PrintGraphDotDrawsTheStandScenario)
{
  const DotGraph graph = graphOf("--scenario stand --print-graph dot");
  EXPECT_EQ(graph.name, "stand");
  for (const char* module : {"RobotModelProvider", "StaticTorqueProvider", "ScenarioPlayer",
                             "FilteredCurrentProvider", "EnergySavingProvider"})
    EXPECT_TRUE(graph.nodes.contains(std::string("module:") + module)) << module;
  EXPECT_EQ(graph.nodes.at("module:RobotModelProvider").at("order"), "1");
  EXPECT_TRUE(graph.hasEdge("module:Body", "representation:JointSensorData"));
  EXPECT_TRUE(graph.hasEdge("module:RobotModelProvider", "representation:RobotModel"));
  EXPECT_TRUE(graph.hasEdge("representation:RobotModel", "module:StaticTorqueProvider"));
  EXPECT_TRUE(graph.hasEdge("module:EnergySavingProvider", "representation:JointRequest"));
  EXPECT_TRUE(graph.hasEdge("representation:JointRequest", "module:Body"));
  // The inputs loaded once per robot, and who reads them.
  for (const char* module : {"RobotModelProvider", "StaticTorqueProvider", "ScenarioPlayer"})
    EXPECT_TRUE(graph.hasEdge("input:RobotDescription", std::string("module:") + module)) << module;
  EXPECT_TRUE(graph.hasEdge("input:ScenarioScript", "module:ScenarioPlayer"));
  EXPECT_FALSE(graph.hasEdge("input:ScenarioScript", "module:RobotModelProvider"));
  // The sit-down and fall stages after the motion source, then the self-collision stage with its shapes file.
  EXPECT_TRUE(graph.hasEdge("representation:MotionJointRequest", "module:SitDownProvider"));
  EXPECT_TRUE(graph.hasEdge("representation:SafeMotionJointRequest", "module:FallProtectionProvider"));
  EXPECT_TRUE(graph.hasEdge("representation:FallSafeJointRequest", "module:SelfCollisionProvider"));
  EXPECT_TRUE(graph.hasEdge("module:SelfCollisionProvider", "representation:CollisionFreeJointRequest"));
  EXPECT_TRUE(graph.hasEdge("input:SelfCollisionShapes", "module:SelfCollisionProvider"));
}

TEST(NaoCommandLine, PrintGraphFollowsProviderOverrides)
{
  const DotGraph graph = graphOf("--scenario stand --provider JointRequest=off --print-graph dot");
  EXPECT_TRUE(graph.hasEdge("module:PassThrough(JointRequest)", "representation:JointRequest"));
  EXPECT_FALSE(graph.hasEdge("module:EnergySavingProvider", "representation:JointRequest"));
  EXPECT_TRUE(graph.hasEdge("module:EnergySavingProvider", "representation:EnergySaving"));
  // A stage set `off` is a pass-through step, drawn dashed.
  const DotGraph off = graphOf("--scenario stand --provider CollisionFreeJointRequest=off --print-graph dot");
  EXPECT_EQ(off.nodes.at("module:PassThrough(CollisionFreeJointRequest)").at("style"), "dashed");
}

TEST(NaoCommandLine, PrintGraphOfAScenarioThatDoesNotResolveFails)
{
  const CommandResult missing =
      runCommand(std::string(NAO_ROBOT_BINARY) + " --scenario nosuch --print-graph dot");
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.output.find("scenario file not found"), std::string::npos) << missing.output;
  const CommandResult broken = runCommand(std::string(NAO_ROBOT_BINARY) +
                                          " --scenario stand --provider RobotModel=Nobody --print-graph dot");
  EXPECT_EQ(broken.status, 1);
  // The override came from the command line, which has no lines and columns to invent.
  EXPECT_NE(
      broken.output.find("command line --provider RobotModel=Nobody: provider 'Nobody' of 'RobotModel' is "
                         "not a module"),
      std::string::npos)
      << broken.output;
  EXPECT_EQ(broken.output.find(":1:1"), std::string::npos) << broken.output;
  const CommandResult malformed =
      runCommand(std::string(NAO_ROBOT_BINARY) + " --provider RobotModel --print-graph dot");
  EXPECT_NE(malformed.output.find("command line --provider RobotModel: expected Representation=Module"),
            std::string::npos)
      << malformed.output;
}

TEST(NaoCommandLine, TheMotionSourceOffIsRefusedAtStartUpAsItIsLive)
{
  // Off, MotionJointRequest would be its default (stiffness 0 on every joint): the robot would collapse at once.
  const CommandResult result =
      runCommand(std::string(NAO_ROBOT_BINARY) +
                 " --body standin --frames 5 --no-debug --provider MotionJointRequest=off");
  EXPECT_EQ(result.status, 1) << result.output;
  EXPECT_NE(result.output.find("MotionJointRequest=off refused: with MotionJointRequest off"),
            std::string::npos)
      << result.output;
  EXPECT_EQ(result.output.find("Per-module timing"), std::string::npos) << "no frame ran";
  // A stage off passes its input through: allowed.
  EXPECT_EQ(runCommand(std::string(NAO_ROBOT_BINARY) +
                       " --body standin --frames 5 --no-debug --provider CollisionFreeJointRequest=off")
                .status,
            0);
}

TEST(NaoCommandLine, ADebugPortOutsideZeroTo65535IsAnError)
{
  for (const char* port : {"99999", "-5", "65536"})
  {
    const CommandResult result =
        runCommand(std::string(NAO_ROBOT_BINARY) + " --body standin --frames 5 --debug-port " + port);
    EXPECT_NE(result.status, 0) << port << ": " << result.output;
    EXPECT_NE(result.output.find("--debug-port"), std::string::npos) << result.output;
    EXPECT_EQ(result.output.find("debug channel on port"), std::string::npos) << "it must not start";
  }
}
