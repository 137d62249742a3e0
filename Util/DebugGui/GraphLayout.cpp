#include "Util/DebugGui/GraphLayout.h"
#include "Framework/Representation.h"
#include <cctype>
#include <charconv>
#include <cmath>
#include <graphviz/gvc.h>
#include <mutex>
#include <sstream>

namespace nao::gui
{
namespace
{
constexpr char hexDigits[] = "0123456789ABCDEF";

int hexValue(char c)
{
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

/// Splits a line of "plain" output into words. A quoted word ends at the first quote no backslash escapes; its
/// \" and \\ are undone. False for a quote that does not end.
bool splitWords(std::string_view line, std::vector<std::string>& words)
{
  std::size_t i = 0;
  while (i < line.size())
  {
    if (line[i] == ' ')
    {
      ++i;
      continue;
    }
    std::string word;
    if (line[i] == '"')
    {
      bool closed = false;
      for (++i; i < line.size() && !closed;)
      {
        const char c = line[i++];
        if (c == '"')
          closed = true;
        else if (c == '\\' && i < line.size() && (line[i] == '"' || line[i] == '\\'))
          word += line[i++];
        else
          word += c;
      }
      if (!closed) return false;
    }
    else
    {
      const std::size_t end = std::min(line.find(' ', i), line.size());
      word = line.substr(i, end - i);
      i = end;
    }
    words.push_back(std::move(word));
  }
  return true;
}

template<class Number>
bool parse(const std::string& text, Number& value)
{
  const char* end = text.data() + text.size();
  const auto [stop, error] = std::from_chars(text.data(), end, value);
  if constexpr (std::is_floating_point_v<Number>)
    if (!std::isfinite(value)) return false;
  return error == std::errc() && stop == end;
}

std::mutex graphvizMutex; ///< Graphviz's parser and layouts keep global state: one at a time
std::string* graphvizErrors = nullptr;
int collectError(char* message)
{
  if (graphvizErrors && graphvizErrors->size() < 400) *graphvizErrors += message;
  return 0;
}
} // namespace

std::string dotName(std::string_view name)
{
  std::string result = "\"";
  for (const char c : name)
  {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80 && std::isalnum(byte))
      result += c;
    else
    {
      result += '_';
      result += hexDigits[byte >> 4];
      result += hexDigits[byte & 0xF];
    }
  }
  return result + "\"";
}

bool nameFromDot(std::string_view encoded, std::string& name)
{
  name.clear();
  for (std::size_t i = 0; i < encoded.size(); ++i)
  {
    const auto c = static_cast<unsigned char>(encoded[i]);
    if (c != '_')
    {
      if (c >= 0x80 || !std::isalnum(c)) return false;
      name += static_cast<char>(c);
      continue;
    }
    const int high = i + 2 < encoded.size() ? hexValue(encoded[i + 1]) : -1;
    const int low = high >= 0 ? hexValue(encoded[i + 2]) : -1;
    if (low < 0) return false;
    name += static_cast<char>(high * 16 + low);
    i += 2;
  }
  return true;
}

GraphLayout readPlain(std::string_view plain)
{
  // "graph scale width height", "node name x y width height label style shape color fillcolor",
  // "edge tail head n x1 y1 .. xn yn [label xl yl] style color", "stop"; inches, y up.
  constexpr double dpi = 72;
  GraphLayout layout;
  double height = 0;
  bool haveGraph = false;
  std::size_t number = 0;
  std::string_view line;
  const auto fail = [&](const std::string& why)
  {
    GraphLayout failed;
    failed.error = "line " + std::to_string(number) + " of Graphviz's output: " + why + " (" +
                   std::string(line.substr(0, 60)) + (line.size() > 60 ? "…" : "") + ")";
    return failed;
  };
  for (std::size_t begin = 0; begin < plain.size();)
  {
    const std::size_t end = std::min(plain.find('\n', begin), plain.size());
    line = plain.substr(begin, end - begin);
    begin = end + 1;
    ++number;
    std::vector<std::string> w;
    if (!splitWords(line, w)) return fail("a quote that does not end");
    if (w.empty()) continue;
    if (w[0] == "stop") break;
    if (w[0] == "graph")
    {
      if (w.size() < 4 || !parse(w[3], height)) return fail("no height of the graph");
      haveGraph = true;
    }
    else if (w[0] == "node")
    {
      GraphLayout::Node node;
      double x = 0, y = 0;
      if (!haveGraph) return fail("a node before the graph's line");
      if (w.size() < 10) return fail("a node of fewer than 10 words");
      if (!nameFromDot(w[1], node.name)) return fail("a node name the module graph does not have");
      if (!parse(w[2], x) || !parse(w[3], y) || !parse(w[4], node.width) || !parse(w[5], node.height))
        return fail("a node's position or size is not a number");
      node.x = x * dpi;
      node.y = (height - y) * dpi;
      node.width *= dpi;
      node.height *= dpi;
      node.dashed = w[7] == "dashed";
      node.box = w[8] == "box";
      layout.nodes.push_back(std::move(node));
    }
    else if (w[0] == "edge")
    {
      std::size_t points = 0;
      if (!haveGraph) return fail("an edge before the graph's line");
      if (w.size() < 4 || !parse(w[3], points) || points < 2 || points > (w.size() - 4) / 2)
        return fail("an edge's number of points does not match its line");
      GraphLayout::Edge edge;
      for (std::size_t i = 0; i < points; ++i)
      {
        double x = 0, y = 0;
        if (!parse(w[4 + 2 * i], x) || !parse(w[5 + 2 * i], y))
          return fail("an edge's point is not a number");
        edge.points.emplace_back(x * dpi, (height - y) * dpi);
      }
      edge.dashed = w.size() >= 6 + 2 * points && w[w.size() - 2] == "dashed";
      layout.edges.push_back(std::move(edge));
    }
  }
  if (!haveGraph) return fail("no graph");
  return layout;
}

GraphLayout layOut(const std::string& dot, const std::atomic<bool>* cancelled)
{
  try
  {
    std::string plain, errors;
    bool laidOut = false;
    {
      std::lock_guard lock(graphvizMutex);
      if (cancelled && *cancelled)
      {
        GraphLayout none;
        none.error = "a newer graph replaced this one";
        return none;
      }
      graphvizErrors = &errors;
      const agusererrf previous = agseterrf(collectError); // messages to us, not to the terminal
      // One context for the process, never freed: Graphviz's text-size plugin (pango) keeps a font name across
      // contexts, so a layout after gvFreeContext() read freed memory (AddressSanitizer, DebugLinkFuzzer).
      static GVC_t* const context = gvContext();
      if (Agraph_t* graph = agmemread(dot.c_str()))
      {
        char* rendered = nullptr;
        unsigned int length = 0;
        if (gvLayout(context, graph, "dot") == 0)
        {
          if (gvRenderData(context, graph, "plain", &rendered, &length) == 0 && rendered)
          {
            plain.assign(rendered, length);
            laidOut = true;
          }
          if (rendered) gvFreeRenderData(rendered);
          gvFreeLayout(context, graph);
        }
        agclose(graph);
      }
      agseterrf(previous);
      graphvizErrors = nullptr;
    }
    if (laidOut) return readPlain(plain);
    GraphLayout failed;
    while (!errors.empty() && (errors.back() == '\n' || errors.back() == ' '))
      errors.pop_back();
    failed.error = "Graphviz could not lay out the module graph" + (errors.empty() ? "" : ": " + errors);
    return failed;
  }
  catch (const std::exception& error) // out of memory: no layout, the GUI goes on
  {
    GraphLayout failed;
    failed.error = std::string("Graphviz could not lay out the module graph: ") + error.what();
    return failed;
  }
}
ModuleGraphDot moduleGraphDot(const debug::ListReply& list,
                              std::map<std::string, std::vector<std::string>>& providersOf,
                              std::size_t fastLayoutEdges)
{
  ModuleGraphDot result;
  std::ostringstream dot; // the nodes and edges; the graph's attributes depend on how many there are
  const auto edge = [&](const std::string& from, const std::string& to, bool dashed)
  {
    dot << dotName(from) << " -> " << dotName(to) << (dashed ? " [style=dashed]" : "") << ";\n";
    ++result.edges;
  };
  std::map<std::string, std::string> provider;
  for (const auto& representation : list.representations)
    provider[representation.name] = representation.provider;
  std::map<std::string, bool> shown;
  for (const auto& module : list.modules)
  {
    for (const std::string& name : module.provides)
      providersOf[name].push_back(module.name);
    if (!module.active) continue;
    // Two lines: the name and, once ModuleTimes arrives, the median and maximum time.
    const std::string name = dotName(module.name);
    dot << name << " [shape=box,label=" << name.substr(0, name.size() - 1)
        << "\\nmedian 00000 ns max 00000 ns\"];\n";
    ++result.nodes;
    for (const std::string& name : module.provides)
      if (provider[name] == module.name)
      {
        edge(module.name, name, false);
        shown[name] = true;
      }
    for (const std::string& name : module.requires_)
    {
      edge(name, module.name, false);
      shown[name] = true;
    }
    for (const std::string& name : module.uses)
    {
      edge(name, module.name, true);
      shown[name] = true;
    }
  }
  // A representation set `off` keeps its default value; a stage set off passes its input through (dashed edge).
  const auto& registry = RepresentationRegistry::instance();
  for (const auto& representation : list.representations)
  {
    if (!representation.provider.starts_with("off")) continue;
    shown[representation.name] = true;
    const int id = registry.find(representation.name);
    if (id < 0) continue;
    const int input = registry.info(static_cast<RepresentationId>(id)).passThroughFrom;
    if (input < 0) continue;
    const std::string& from = registry.info(static_cast<RepresentationId>(input)).name;
    edge(from, representation.name, true);
    shown[from] = true;
  }
  for (const auto& [name, isShown] : shown)
    dot << dotName(name) << " [shape=ellipse" << (provider[name].starts_with("off") ? ",style=dashed" : "")
        << "];\n";
  result.nodes += shown.size();
  // Beyond a scenario's size, dot's crossing minimisation and splines take minutes (132 nodes with 1,560 edges:
  // 16 s; 440 with 2,000: 300 s): fewer passes and straight edges lay those out in 0.5 s and 5 s.
  const bool large = result.edges > fastLayoutEdges;
  // Left to right in execution order (a provider before the modules that require its representation). Graphviz
  // sizes the boxes for 14-point text in its 72-dpi units: the view draws 10-point names (13.3 px at 96 dpi) in them.
  result.text =
      std::string("digraph modules {\nrankdir=LR;\nranksep=0.35;\nnodesep=0.15;\nnode [fontsize=14];\n") +
      (large ? "mclimit=0.01;\nnslimit=0.1;\nnslimit1=0.1;\nremincross=false;\nsearchsize=5;\n"
               "splines=line;\n"
             : "") +
      dot.str() + "}\n";
  return result;
}

} // namespace nao::gui
