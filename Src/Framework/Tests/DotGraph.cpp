#include "Framework/Tests/DotGraph.h"
#include <cctype>
#include <stdexcept>

namespace nao::test
{
namespace
{
class Reader
{
public:
  explicit Reader(const std::string& text) : text_(text) {}

  void skipSpace()
  {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_])))
      ++position_;
  }
  bool accept(const std::string& token)
  {
    skipSpace();
    if (text_.compare(position_, token.size(), token) != 0) return false;
    position_ += token.size();
    return true;
  }
  void expect(const std::string& token)
  {
    if (!accept(token)) fail("expected '" + token + "'");
  }
  std::string identifier()
  {
    skipSpace();
    if (position_ < text_.size() && text_[position_] == '"')
    {
      std::string result;
      for (++position_; position_ < text_.size() && text_[position_] != '"'; ++position_)
      {
        if (text_[position_] == '\\' && position_ + 1 < text_.size() &&
            (text_[position_ + 1] == '"' || text_[position_ + 1] == '\\'))
          ++position_;
        result += text_[position_];
      }
      if (position_ >= text_.size()) fail("unterminated string");
      ++position_;
      return result;
    }
    const std::size_t start = position_;
    while (position_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[position_])) ||
                                        text_[position_] == '_' || text_[position_] == '.'))
      ++position_;
    if (start == position_) fail("expected an identifier");
    return text_.substr(start, position_ - start);
  }
  DotGraph::Attributes attributeList()
  {
    DotGraph::Attributes attributes;
    if (!accept("[")) return attributes;
    while (!accept("]"))
    {
      const std::string key = identifier();
      expect("=");
      attributes[key] = identifier();
      accept(",");
    }
    return attributes;
  }
  bool atEnd()
  {
    skipSpace();
    return position_ == text_.size();
  }
  [[noreturn]] void fail(const std::string& what) const
  {
    throw std::runtime_error("DOT, offset " + std::to_string(position_) + ": " + what);
  }

private:
  const std::string& text_;
  std::size_t position_ = 0;
};
} // namespace

DotGraph DotGraph::parse(const std::string& text)
{
  Reader reader(text);
  DotGraph graph;
  reader.expect("digraph");
  graph.name = reader.identifier();
  reader.expect("{");
  while (!reader.accept("}"))
  {
    const std::string first = reader.identifier();
    if (reader.accept("="))
      graph.graphAttributes[first] = reader.identifier();
    else if (reader.accept("->"))
    {
      std::vector<std::string> chain = {first, reader.identifier()};
      while (reader.accept("->"))
        chain.push_back(reader.identifier());
      const Attributes attributes = reader.attributeList();
      for (std::size_t i = 0; i + 1 < chain.size(); ++i)
        graph.edges.push_back({chain[i], chain[i + 1], attributes});
    }
    else if (first == "node" || first == "edge" || first == "graph")
      reader.attributeList();
    else
      graph.nodes[first] = reader.attributeList();
    reader.expect(";");
  }
  if (!reader.atEnd()) reader.fail("text after the graph");
  for (const Edge& edge : graph.edges)
    for (const std::string& end : {edge.from, edge.to})
      if (!graph.nodes.contains(end)) throw std::runtime_error("DOT: edge to undeclared node '" + end + "'");
  return graph;
}

const DotGraph::Edge* DotGraph::edge(const std::string& from, const std::string& to) const
{
  for (const Edge& candidate : edges)
    if (candidate.from == from && candidate.to == to) return &candidate;
  return nullptr;
}

bool DotGraph::hasEdge(const std::string& from, const std::string& to) const
{
  return edge(from, to) != nullptr;
}
} // namespace nao::test
