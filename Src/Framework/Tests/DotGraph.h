#pragma once
// A reader for the Graphviz DOT subset toDot() writes, strict enough to fail on anything a Graphviz reader
// would refuse: `digraph ID { ... }` with graph attributes (`a=b;`), node statements (`ID [a=b, ...];`) and
// edge statements (`ID -> ID [a=b];`), IDs quoted (with \" and \\) or bare words.
#include <map>
#include <string>
#include <vector>

namespace nao::test
{
struct DotGraph
{
  using Attributes = std::map<std::string, std::string>;
  struct Edge
  {
    std::string from, to;
    Attributes attributes;
  };
  std::string name;
  Attributes graphAttributes;
  std::map<std::string, Attributes> nodes; ///< declared nodes by id
  std::vector<Edge> edges;

  /// Throws std::runtime_error naming the offset of the first syntax error, or an edge to an undeclared node.
  static DotGraph parse(const std::string& text);
  bool hasEdge(const std::string& from, const std::string& to) const;
  const Edge* edge(const std::string& from, const std::string& to) const;
};
} // namespace nao::test
