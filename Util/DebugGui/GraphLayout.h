#pragma once
// The module graph's layout, apart from Qt so that it runs on a worker thread: DOT text in, node boxes and edge
// splines out, laid out by Graphviz (libgvc, "dot" layout, "plain" output). Names in the DOT text are written
// with an encoding of our own (dotName) that Graphviz's syntax cannot misread, whatever bytes a robot sends.
#include "Framework/DebugMessages.h"
#include <atomic>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace nao::gui
{
struct GraphLayout
{
  struct Node
  {
    std::string name;                           ///< as the robot sent it (decoded from dotName)
    double x = 0, y = 0, width = 0, height = 0; ///< points (1/72 inch), centre, y down
    bool box = false;                           ///< a module (a box); else a representation (an ellipse)
    bool dashed = false;
  };
  struct Edge
  {
    std::vector<std::pair<double, double>> points; ///< points, y down: a start and cubic Bézier segments
    bool dashed = false;
  };
  std::vector<Node> nodes;
  std::vector<Edge> edges;
  std::string error; ///< why there is no layout; empty when laid out
};

/// The DOT text of a module graph and its size.
struct ModuleGraphDot
{
  std::string text;
  std::size_t nodes = 0, edges = 0;
};

/// A robot's module graph as the framework's toDot draws it: modules as boxes, representations as ellipses (`off`
/// dashed), an edge from each provider to its representation and from each representation to the modules that
/// require it (dashed: last frame's value). Names as dotName() writes them: no robot text reaches Graphviz as it is.
/// Fills `providersOf` (representation → the modules that can provide it). More than `fastLayoutEdges` edges ask
/// Graphviz for a quick layout.
ModuleGraphDot moduleGraphDot(const debug::ListReply& list,
                              std::map<std::string, std::vector<std::string>>& providersOf,
                              std::size_t fastLayoutEdges);

/// A name as a quoted DOT identifier: ASCII letters and digits kept, every other byte as _XX (hexadecimal). Graphviz
/// reads more into other characters: `%3` names an anonymous node, `&amp;` is an entity in a label.
std::string dotName(std::string_view name);
/// The name a dotName() stands for (without its quotes); false for text that no dotName() gives.
bool nameFromDot(std::string_view encoded, std::string& name);
/// Graphviz's "plain" output as a layout; `error` names the first line it cannot read. Never throws.
GraphLayout readPlain(std::string_view plain);
/// Lays out DOT text with Graphviz's dot. One layout at a time in the process (Graphviz keeps global state); any
/// thread. A layout whose `cancelled` is set when its turn comes is not made (its error says so). Never throws.
GraphLayout layOut(const std::string& dot, const std::atomic<bool>* cancelled = nullptr);
} // namespace nao::gui
