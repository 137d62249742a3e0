// The module graph, laid out by Graphviz (libgvc, "dot" layout, "plain" output: node positions and edge splines)
// and drawn with Qt, so that nodes can be clicked.
#include "Util/DebugGui/Views.h"
#include <QContextMenuEvent>
#include <QGraphicsEllipseItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QMenu>
#include <QPainterPath>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <graphviz/gvc.h>
#include <map>
#include <sstream>

namespace nao::gui
{
class ModuleGraphView::Canvas : public QGraphicsView
{
public:
  explicit Canvas(ModuleGraphView& owner) : owner_(owner)
  {
    setScene(&scene_);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setRenderHint(QPainter::Antialiasing);
  }
  QGraphicsScene scene_;
  std::map<std::string, std::vector<std::string>> providersOf; ///< representation -> modules that provide it
  std::map<std::string, QGraphicsSimpleTextItem*> times;       ///< module -> its timing text

protected:
  void wheelEvent(QWheelEvent* event) override
  {
    const double factor = event->angleDelta().y() > 0 ? 1.15 : 1 / 1.15;
    scale(factor, factor);
  }
  void contextMenuEvent(QContextMenuEvent* event) override
  {
    QGraphicsItem* item = itemAt(event->pos());
    while (item && item->data(0).toString().isEmpty())
      item = item->parentItem();
    if (!item) return;
    const std::string representation = item->data(0).toString().toStdString();
    QMenu menu;
    for (const std::string& module : providersOf[representation])
      menu.addAction(QString::fromStdString("provider: " + module),
                     [&, module] { owner_.onProvider(representation, module); });
    menu.addAction("off (default value, a stage passes its input through)",
                   [&] { owner_.onProvider(representation, "off"); });
    menu.exec(event->globalPos());
  }

private:
  ModuleGraphView& owner_;
};

ModuleGraphView::ModuleGraphView(QWidget* parent)
    : QWidget(parent), canvas_(new Canvas(*this)), status_(new QLabel)
{
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(canvas_, 1);
  status_->setText("right-click a representation to switch its provider");
  layout->addWidget(status_);
}

namespace
{
std::string quoted(const std::string& text)
{
  return "\"" + text + "\"";
}

/// The graph as the framework's toDot draws it: modules as boxes, representations as ellipses (`off` dashed),
/// an edge from each provider to its representation and from each representation to the modules that require
/// it (dashed: last frame's value).
std::string dotOf(const debug::ListReply& list, std::map<std::string, std::vector<std::string>>& providersOf)
{
  std::ostringstream dot;
  dot << "digraph \"" << list.scenario << "\" {\nrankdir=LR;\nnode [fontsize=10];\n";
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
    dot << quoted(module.name) << " [shape=box,label=\"" << module.name
        << "\\nmedian 00000 ns max 00000 ns\"];\n";
    for (const std::string& name : module.provides)
      if (provider[name] == module.name)
      {
        dot << quoted(module.name) << " -> " << quoted(name) << ";\n";
        shown[name] = true;
      }
    for (const std::string& name : module.requires_)
    {
      dot << quoted(name) << " -> " << quoted(module.name) << ";\n";
      shown[name] = true;
    }
    for (const std::string& name : module.uses)
    {
      dot << quoted(name) << " -> " << quoted(module.name) << " [style=dashed];\n";
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
    dot << quoted(from) << " -> " << quoted(representation.name) << " [style=dashed];\n";
    shown[from] = true;
  }
  for (const auto& [name, isShown] : shown)
    dot << quoted(name) << " [shape=ellipse" << (provider[name].starts_with("off") ? ",style=dashed" : "")
        << "];\n";
  dot << "}\n";
  return dot.str();
}

/// Splits a line of Graphviz's "plain" output; quoted names keep their spaces.
std::vector<std::string> words(const std::string& line)
{
  std::vector<std::string> result;
  std::size_t i = 0;
  while (i < line.size())
  {
    if (line[i] == ' ')
    {
      ++i;
      continue;
    }
    if (line[i] == '"')
    {
      const std::size_t end = line.find('"', i + 1);
      result.push_back(line.substr(i + 1, end - i - 1));
      i = end == std::string::npos ? line.size() : end + 1;
      continue;
    }
    const std::size_t end = std::min(line.find(' ', i), line.size());
    result.push_back(line.substr(i, end - i));
    i = end;
  }
  return result;
}
} // namespace

void ModuleGraphView::setGraph(const debug::ListReply& list)
{
  canvas_->providersOf.clear();
  dot_ = dotOf(list, canvas_->providersOf);
  canvas_->scene_.clear();
  canvas_->times.clear();
  nodes_ = 0;
  GVC_t* context = gvContext();
  Agraph_t* graph = agmemread(dot_.c_str());
  if (!graph)
  {
    status_->setText("Graphviz could not read the module graph");
    gvFreeContext(context);
    return;
  }
  char* rendered = nullptr;
  unsigned int length = 0;
  if (gvLayout(context, graph, "dot") != 0 || gvRenderData(context, graph, "plain", &rendered, &length) != 0)
  {
    status_->setText("Graphviz could not lay out the module graph");
    agclose(graph);
    gvFreeContext(context);
    return;
  }
  const std::string plain(rendered, length);
  gvFreeRenderData(rendered);
  gvFreeLayout(context, graph);
  agclose(graph);
  gvFreeContext(context);

  // plain: "graph scale width height", "node name x y width height label style shape color fillcolor",
  // "edge tail head n x1 y1 .. xn yn [label xl yl] style color"; inches, y up.
  constexpr double dpi = 72;
  double height = 0;
  std::istringstream in(plain);
  std::string line;
  QFont font;
  font.setPointSize(8);
  while (std::getline(in, line))
  {
    const auto w = words(line);
    if (w.empty()) continue;
    if (w[0] == "graph" && w.size() >= 4) height = std::stod(w[3]);
    if (w[0] == "node" && w.size() >= 10)
    {
      const double x = std::stod(w[2]) * dpi, y = (height - std::stod(w[3])) * dpi;
      const double nodeWidth = std::stod(w[4]) * dpi, nodeHeight = std::stod(w[5]) * dpi;
      const QRectF rect(x - nodeWidth / 2, y - nodeHeight / 2, nodeWidth, nodeHeight);
      QAbstractGraphicsShapeItem* shape = nullptr;
      const bool module = w[8] == "box";
      if (module)
        shape = canvas_->scene_.addRect(rect, QPen(Qt::black), QBrush(QColor(220, 232, 255)));
      else
      {
        shape = canvas_->scene_.addEllipse(
            rect, QPen(Qt::black, 1, w[7] == "dashed" ? Qt::DashLine : Qt::SolidLine),
            QBrush(QColor(240, 240, 240)));
        shape->setData(0, QString::fromStdString(w[1]));
      }
      auto* text = canvas_->scene_.addSimpleText(QString::fromStdString(module ? w[1] : w[6]), font);
      text->setParentItem(shape);
      text->setPos(x - text->boundingRect().width() / 2,
                   module ? rect.top() + 2 : y - text->boundingRect().height() / 2);
      if (module)
      {
        auto* time = canvas_->scene_.addSimpleText("", font);
        time->setParentItem(shape);
        time->setPos(rect.left() + 4, y + 1);
        time->setBrush(QColor(60, 60, 140));
        canvas_->times[w[1]] = time;
      }
      ++nodes_;
    }
    if (w[0] == "edge" && w.size() >= 4)
    {
      const std::size_t points = std::stoul(w[3]);
      if (w.size() < 4 + 2 * points) continue;
      QPainterPath path;
      auto point = [&](std::size_t i)
      { return QPointF(std::stod(w[4 + 2 * i]) * dpi, (height - std::stod(w[5 + 2 * i])) * dpi); };
      path.moveTo(point(0));
      for (std::size_t i = 1; i + 2 < points; i += 3)
        path.cubicTo(point(i), point(i + 1), point(i + 2));
      const bool dashed = line.find(" dashed ") != std::string::npos;
      canvas_->scene_.addPath(path, QPen(Qt::darkGray, 1, dashed ? Qt::DashLine : Qt::SolidLine));
      // Arrow head at the end.
      const QPointF end = point(points - 1), before = point(points - 2);
      const QLineF direction(end, before);
      QLineF a = direction, b = direction;
      a.setLength(6);
      b.setLength(6);
      a.setAngle(direction.angle() + 25);
      b.setAngle(direction.angle() - 25);
      canvas_->scene_.addPolygon(QPolygonF({end, a.p2(), b.p2()}), QPen(Qt::darkGray), QBrush(Qt::darkGray));
    }
  }
  canvas_->setSceneRect(canvas_->scene_.itemsBoundingRect());
  canvas_->fitInView(canvas_->sceneRect(), Qt::KeepAspectRatio);
  status_->setText(QString("%1 nodes, scenario %2; right-click a representation to switch its provider")
                       .arg(nodes_)
                       .arg(QString::fromStdString(list.scenario)));
}
void ModuleGraphView::setTimes(const SeriesStore& store)
{
  // ModuleTimes: modules[i].name.text, .medianNs, .maxNs for i < count.
  const int count = QString::fromStdString(store.latest("ModuleTimes.count")).toInt();
  for (int i = 0; i < count; ++i)
  {
    const std::string prefix = "ModuleTimes.modules[" + std::to_string(i) + "].";
    const auto found = canvas_->times.find(store.latest(prefix + "name.text"));
    if (found == canvas_->times.end()) continue;
    const double median = QString::fromStdString(store.latest(prefix + "medianNs")).toDouble();
    const double max = QString::fromStdString(store.latest(prefix + "maxNs")).toDouble();
    found->second->setText(
        QString("median %1 µs, max %2 µs").arg(median / 1000, 0, 'f', 1).arg(max / 1000, 0, 'f', 1));
  }
}

QString ModuleGraphView::timeText(const std::string& module) const
{
  const auto found = canvas_->times.find(module);
  return found == canvas_->times.end() ? QString() : found->second->text();
}
} // namespace nao::gui
