// The module graph as Graphviz DOT, parsed back: every module, representation, loaded input and edge of the
// plan.
#include "Framework/Controller.h"
#include "Framework/ModuleGraph.h"
#include "Framework/Tests/DotGraph.h"
#include "Framework/Tests/TestModules.h"
#include <gtest/gtest.h>

using namespace nao;
using namespace nao::test;

namespace
{
DotGraph dotOf(std::initializer_list<std::pair<const char*, const char*>> pairs)
{
  std::vector<ProviderChoice> choices;
  for (const auto& [representation, provider] : pairs)
    choices.push_back({representation, provider, {"test.toml", 1, 1}});
  const auto fixed = Controller::fixedProviders();
  const ExecutionPlan plan = resolveModuleGraph(choices, fixed, "test");
  return DotGraph::parse(toDot(plan, fixed, "test"));
}
} // namespace

TEST(ModuleGraphDot, ModulesInOrderRepresentationsAndTheirEdges)
{
  const DotGraph graph =
      dotOf({{"RepD", "ModC"}, {"RepC", "ModCProvider"}, {"RepB", "ModB"}, {"RepA", "ModA"}});
  EXPECT_EQ(graph.name, "test");
  ASSERT_TRUE(graph.nodes.contains("module:ModA"));
  EXPECT_EQ(graph.nodes.at("module:ModA").at("shape"), "box");
  EXPECT_EQ(graph.nodes.at("module:ModA").at("order"), "1");
  EXPECT_EQ(graph.nodes.at("module:ModB").at("order"), "2");
  EXPECT_EQ(graph.nodes.at("representation:RepB").at("label"), "RepB");
  EXPECT_EQ(graph.nodes.at("representation:RepB").at("shape"), "ellipse");
  // Provider -> representation -> the modules that require it.
  EXPECT_TRUE(graph.hasEdge("module:Body", "representation:FrameInfo"));
  EXPECT_TRUE(graph.hasEdge("representation:FrameInfo", "module:ModA"));
  EXPECT_TRUE(graph.hasEdge("module:ModA", "representation:RepA"));
  EXPECT_TRUE(graph.hasEdge("representation:RepA", "module:ModB"));
  EXPECT_TRUE(graph.hasEdge("module:ModCProvider", "representation:RepC"));
  // ModC only uses last frame's RepC: a dashed edge, no ordering.
  const DotGraph::Edge* used = graph.edge("representation:RepC", "module:ModC");
  ASSERT_NE(used, nullptr);
  EXPECT_EQ(used->attributes.at("style"), "dashed");
  EXPECT_TRUE(graph.hasEdge("module:Framework", "representation:ModuleTimes"));
}

TEST(ModuleGraphDot, OffRepresentationsAndPassThroughStagesAreDashed)
{
  const DotGraph offGraph = dotOf({{"RepA", "off"}, {"RepB", "ModB"}});
  EXPECT_EQ(offGraph.nodes.at("representation:RepA").at("style"), "dashed");
  EXPECT_FALSE(offGraph.nodes.contains("module:ModA"));
  EXPECT_TRUE(offGraph.hasEdge("representation:RepA", "module:ModB"));

  const DotGraph stageGraph = dotOf({{"RepA", "ModA"}, {"RepAStage", "off"}});
  const std::string passThrough = "module:PassThrough(RepAStage)";
  ASSERT_TRUE(stageGraph.nodes.contains(passThrough));
  EXPECT_EQ(stageGraph.nodes.at(passThrough).at("style"), "dashed");
  EXPECT_TRUE(stageGraph.hasEdge("representation:RepA", passThrough));
  EXPECT_TRUE(stageGraph.hasEdge(passThrough, "representation:RepAStage"));
}

TEST(ModuleGraphDot, TheReaderRefusesWhatGraphvizWould)
{
  EXPECT_THROW(DotGraph::parse("digraph \"x\" { \"a\" -> \"b\"; }"), std::runtime_error); // undeclared nodes
  EXPECT_THROW(DotGraph::parse("digraph \"x\" { \"a\" [label=\"a\"] }"), std::runtime_error); // no ';'
  EXPECT_THROW(DotGraph::parse("digraph \"x { }"), std::runtime_error);
  const DotGraph quoted = DotGraph::parse("digraph g { \"a\\\"b\" [label=\"a\\\\\"]; }");
  EXPECT_EQ(quoted.nodes.at("a\"b").at("label"), "a\\");
}
