// The module graph, laid out by Graphviz on a worker thread (GraphLayout.h: the GUI never waits for it) and drawn
// with Qt, so that nodes can be clicked. A graph too large for Graphviz to lay out in seconds is not laid out: the
// view says so.
#include "Util/DebugGui/ModuleGraphView.h"
#include "Tools/Streams/TerminalText.h"
#include "Util/DebugGui/GraphLayout.h"
#include <QContextMenuEvent>
#include <QGraphicsEllipseItem>
#include <QGraphicsScene>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QMenu>
#include <QPainterPath>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

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
    while (item && !item->data(0).isValid())
      item = item->parentItem();
    if (!item || owner_.recorded_) return; // a log's graph: nothing to switch
    const std::string representation = item->data(0).toByteArray().toStdString();
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
    : QWidget(parent), canvas_(new Canvas(*this)), status_(new QLabel), poll_(new QTimer(this))
{
  connect(poll_, &QTimer::timeout, [this] { collect(); });
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(canvas_, 1);
  status_->setText("no module graph yet: connect to a robot");
  auto* row = new QHBoxLayout;
  auto* fit = new QPushButton("Zoom to fit");
  fit->setToolTip("the whole graph in the view (names stay at least 9 pt: then it scrolls)");
  connect(fit, &QPushButton::clicked, [this] { zoomToFit(); });
  row->addWidget(status_, 1);
  row->addWidget(fit);
  layout->addLayout(row);
}

/// A layout made on a worker thread; the view takes it when done, unless a newer graph replaced it.
struct ModuleGraphView::Job
{
  std::mutex mutex;
  bool done = false;
  GraphLayout layout;
  std::atomic<bool> cancelled{false};
};

ModuleGraphView::~ModuleGraphView()
{
  if (job_) job_->cancelled = true; // its thread ends on its own and frees it
}

void ModuleGraphView::showNoGraph(const QString& why)
{
  if (job_) job_->cancelled = true;
  job_.reset();
  clear();
  dot_.clear();
  status_->setText(why);
}

void ModuleGraphView::zoomToFit()
{
  const QRectF bounds = canvas_->scene_.itemsBoundingRect();
  if (bounds.isEmpty()) return;
  canvas_->setSceneRect(bounds.adjusted(-10, -10, 10, 10));
  canvas_->fitInView(canvas_->sceneRect(), Qt::KeepAspectRatio);
  // A graph wider than the view would shrink its names below reading size: scroll instead.
  const double scale = canvas_->transform().m11();
  if (scale * textPointSize < minimumTextPointSize || scale > 1.5)
  {
    const double wanted = std::clamp(scale, minimumTextPointSize / textPointSize, 1.5);
    canvas_->setTransform(QTransform::fromScale(wanted, wanted));
    canvas_->centerOn(bounds.left() + canvas_->viewport()->width() / wanted / 2, bounds.center().y());
  }
}

double ModuleGraphView::shownTextPointSize() const
{
  return textPointSize * canvas_->transform().m11();
}

namespace
{
/// A robot's name as the view shows it: control characters (newlines too) written as \xNN.
QString shownName(const std::string& name)
{
  std::string text = terminalSafe(name);
  for (const auto& [from, to] : {std::pair<const char*, const char*>{"\n", "\\x0a"}, {"\t", "\\x09"}})
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + 4))
      text.replace(at, 1, to);
  return QString::fromStdString(text);
}
} // namespace

void ModuleGraphView::clear()
{
  canvas_->scene_.clear();
  canvas_->times.clear();
  nodes_ = 0;
  names_.clear();
}

void ModuleGraphView::setGraph(const debug::ListReply& list)
{
  canvas_->providersOf.clear();
  const ModuleGraphDot dot = moduleGraphDot(list, canvas_->providersOf, fastLayoutEdges);
  dot_ = dot.text;
  scenario_ = list.scenario;
  if (job_) job_->cancelled = true;
  job_.reset();
  if (dot.nodes > maxLaidOutNodes || dot.edges > maxLaidOutEdges)
  {
    clear();
    status_->setText(
        QString("graph too large to lay out: %1 nodes, %2 edges (Graphviz lays out up to %3 nodes "
                "and %4 edges here); the console's `list` names them")
            .arg(dot.nodes)
            .arg(dot.edges)
            .arg(maxLaidOutNodes)
            .arg(maxLaidOutEdges));
    return;
  }
  status_->setText(QString("laying out %1 nodes …").arg(dot.nodes));
  auto job = std::make_shared<Job>();
  try
  {
    std::thread(
        [job, text = dot.text]
        {
          GraphLayout layout = layOut(text, &job->cancelled);
          std::lock_guard lock(job->mutex);
          job->layout = std::move(layout);
          job->done = true;
        })
        .detach();
  }
  catch (const std::exception& error) // no thread to be had
  {
    clear();
    status_->setText(QString("the module graph could not be laid out: %1").arg(error.what()));
    return;
  }
  job_ = job;
  poll_->start(20);
}

void ModuleGraphView::collect()
{
  if (!job_) return poll_->stop();
  GraphLayout layout;
  {
    std::lock_guard lock(job_->mutex);
    if (!job_->done) return;
    layout = std::move(job_->layout);
  }
  job_.reset();
  poll_->stop();
  clear();
  try
  {
    draw(layout);
  }
  catch (const std::exception& error) // never out of the timer's slot
  {
    clear();
    layout.error = std::string("the module graph could not be drawn: ") + error.what();
  }
  if (!layout.error.empty()) return status_->setText(QString::fromStdString(layout.error));
  zoomToFit();
  status_->setText(QString(recorded_
                               ? "%1 nodes, scenario %2; recorded in the log"
                               : "%1 nodes, scenario %2; right-click a representation to switch its provider")
                       .arg(nodes_)
                       .arg(shownName(scenario_)));
}

void ModuleGraphView::draw(const GraphLayout& layout)
{
  QFont font;
  font.setPointSizeF(textPointSize);
  for (const GraphLayout::Node& node : layout.nodes)
  {
    const QRectF rect(node.x - node.width / 2, node.y - node.height / 2, node.width, node.height);
    QAbstractGraphicsShapeItem* shape = nullptr;
    if (node.box)
      shape = canvas_->scene_.addRect(rect, QPen(Qt::black), QBrush(QColor(220, 232, 255)));
    else
    {
      shape = canvas_->scene_.addEllipse(rect, QPen(Qt::black, 1, node.dashed ? Qt::DashLine : Qt::SolidLine),
                                         QBrush(QColor(240, 240, 240)));
      shape->setData(0, QByteArray::fromStdString(node.name)); // the name byte for byte, for the menu
    }
    auto* text = canvas_->scene_.addSimpleText(shownName(node.name), font);
    text->setParentItem(shape);
    text->setPos(node.x - text->boundingRect().width() / 2,
                 node.box ? rect.top() + 2 : node.y - text->boundingRect().height() / 2);
    if (node.box)
    {
      auto* time = canvas_->scene_.addSimpleText("", font);
      time->setParentItem(shape);
      time->setPos(rect.left() + 4, node.y + 1);
      time->setBrush(QColor(60, 60, 140));
      canvas_->times[node.name] = time;
    }
    ++nodes_;
    names_.push_back(node.name);
  }
  for (const GraphLayout::Edge& edge : layout.edges)
  {
    const auto point = [&](std::size_t i) { return QPointF(edge.points[i].first, edge.points[i].second); };
    QPainterPath path;
    path.moveTo(point(0));
    for (std::size_t i = 1; i + 2 < edge.points.size(); i += 3)
      path.cubicTo(point(i), point(i + 1), point(i + 2));
    canvas_->scene_.addPath(path, QPen(Qt::darkGray, 1, edge.dashed ? Qt::DashLine : Qt::SolidLine));
    // Arrow head at the end.
    const QPointF end = point(edge.points.size() - 1), before = point(edge.points.size() - 2);
    const QLineF direction(end, before);
    QLineF a = direction, b = direction;
    a.setLength(6);
    b.setLength(6);
    a.setAngle(direction.angle() + 25);
    b.setAngle(direction.angle() - 25);
    canvas_->scene_.addPolygon(QPolygonF({end, a.p2(), b.p2()}), QPen(Qt::darkGray), QBrush(Qt::darkGray));
  }
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
