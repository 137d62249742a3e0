#pragma once
// A dockable view (the others: Views.h): the module graph, laid out by Graphviz.
#include "Util/DebugGui/SeriesStore.h"
#include <QLabel>
#include <QWidget>
#include <functional>
#include <memory>
#include <string>
#include <vector>

class QTimer;

namespace nao::gui
{
struct GraphLayout;

/// The module graph: modules and representations laid out by Graphviz's dot from the list reply (on a worker
/// thread: the GUI goes on meanwhile); right-click a representation to switch its provider or set it off.
class ModuleGraphView : public QWidget
{
public:
  /// Larger graphs are not laid out (Graphviz would take minutes and gigabytes): the view says so. Graphs of more
  /// than fastLayoutEdges edges are laid out with fewer passes and straight edges.
  static constexpr std::size_t maxLaidOutNodes = 500, maxLaidOutEdges = 2000, fastLayoutEdges = 150;

  explicit ModuleGraphView(QWidget* parent = nullptr);
  ~ModuleGraphView() override;
  /// Starts laying out the graph; the drawing changes when the layout is done (a newer graph replaces it).
  void setGraph(const debug::ListReply& list);
  /// No graph to show (a log): the view is empty and says why.
  void showNoGraph(const QString& why);
  /// The graph comes from a log: it says so instead of offering to switch providers (right-click does nothing).
  void setRecorded(bool recorded) { recorded_ = recorded; }
  /// Scales the drawing to fit the view, but never below minimumTextPointSize (then it scrolls).
  void zoomToFit();
  /// The point size the nodes' names are drawn at on screen (scene font × the view's scale).
  double shownTextPointSize() const;
  static constexpr double textPointSize = 10, minimumTextPointSize = 9;
  std::function<void(const std::string& representation, const std::string& provider)> onProvider;
  /// Nodes placed by the last layout (for tests).
  int nodeCount() const { return nodes_; }
  /// The DOT text that was laid out.
  const std::string& dot() const { return dot_; }
  /// The names of the nodes placed (for tests).
  const std::vector<std::string>& nodeNames() const { return names_; }
  /// What the view says under the graph: its size, or why it shows none.
  QString message() const { return status_->text(); }
  /// Whether a layout is under way.
  bool layingOut() const { return job_ != nullptr; }
  /// Module timings from ModuleTimes: shown in each module's box.
  void setTimes(const SeriesStore& store);
  /// The timing text shown for a module ("" if none), for tests.
  QString timeText(const std::string& module) const;

private:
  class Canvas;
  struct Job;
  void clear();
  void collect(); ///< takes a finished layout (on a timer while one is under way)
  void draw(const GraphLayout& layout);

  Canvas* canvas_;
  QLabel* status_;
  QTimer* poll_;
  std::shared_ptr<Job> job_;
  int nodes_ = 0;
  bool recorded_ = false;
  std::string dot_, scenario_;
  std::vector<std::string> names_;
};
} // namespace nao::gui
