#include "Util/DebugGui/PlotView.h"
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <fstream>
#include <qcustomplot.h>
#include <set>

namespace nao::gui
{
class PlotView::DropPlot : public QCustomPlot
{
public:
  explicit DropPlot(std::function<void(const std::string&)>& onDrop) : onDrop_(onDrop)
  {
    setAcceptDrops(true);
  }

protected:
  void dragEnterEvent(QDragEnterEvent* event) override
  {
    if (event->mimeData()->hasText()) event->acceptProposedAction();
  }
  void dragMoveEvent(QDragMoveEvent* event) override { event->acceptProposedAction(); }
  void dropEvent(QDropEvent* event) override
  {
    for (const QString& field : event->mimeData()->text().split('\n', Qt::SkipEmptyParts))
      if (onDrop_) onDrop_(field.toStdString());
    event->acceptProposedAction();
  }

private:
  std::function<void(const std::string&)>& onDrop_;
};

namespace
{
const QColor seriesColours[] = {QColor(31, 119, 180),  QColor(255, 127, 14),  QColor(44, 160, 44),
                                QColor(214, 39, 40),   QColor(148, 103, 189), QColor(140, 86, 75),
                                QColor(227, 119, 194), QColor(127, 127, 127), QColor(188, 189, 34),
                                QColor(23, 190, 207)};
}

PlotView::PlotView(QWidget* parent)
    : QWidget(parent), plot_(new DropPlot(onFieldDropped)), readOut_(new QLabel),
      pause_(new QPushButton("Pause"))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* bar = new QHBoxLayout;
  auto* png = new QPushButton("PNG…");
  auto* csv = new QPushButton("CSV…");
  auto* clear = new QPushButton("Clear");
  pause_->setCheckable(true);
  for (QPushButton* button : {pause_, png, csv, clear})
    bar->addWidget(button);
  bar->addWidget(readOut_, 1);
  layout->addLayout(bar);
  layout->addWidget(plot_, 1);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->xAxis->setLabel("time [s]");
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont(font().family(), 8));
  plot_->setMinimumSize(300, 200);
  // Live plots are redrawn at up to 60 Hz: curves as plain polylines (QCustomPlot's fast path, no joins) and without
  // antialiasing, which alone took 7 cores for 50 curves of 10 s (DebugGuiBenchmark).
  plot_->setPlottingHint(QCP::phFastPolylines, true);
  plot_->setNotAntialiasedElements(QCP::aePlottables);
  readOut_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  connect(pause_, &QPushButton::toggled, [this](bool checked) { setPaused(checked); });
  connect(clear, &QPushButton::clicked, [this] { removeAll(); });
  connect(png, &QPushButton::clicked,
          [this]
          {
            const QString file = QFileDialog::getSaveFileName(this, "Export PNG", "plot.png", "PNG (*.png)");
            if (!file.isEmpty()) exportPng(file);
          });
  connect(csv, &QPushButton::clicked,
          [this]
          {
            const QString file = QFileDialog::getSaveFileName(this, "Export CSV", "plot.csv", "CSV (*.csv)");
            if (!file.isEmpty()) exportCsv(file);
          });
  connect(plot_, &QCustomPlot::mouseMove,
          [this](QMouseEvent* event)
          { readOut_->setText(readOut(plot_->xAxis->pixelToCoord(event->position().x()))); });
  // Zooming or dragging looks at the past: pause following the newest data.
  connect(plot_, &QCustomPlot::mouseWheel, [this](QWheelEvent*) { pause_->setChecked(true); });
  connect(plot_, &QCustomPlot::mousePress, [this](QMouseEvent*) { pause_->setChecked(true); });
}

bool PlotView::addSeries(const std::string& name, const std::string& unit)
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return false;
  QCPGraph* graph = plot_->addGraph();
  graph->setName(QString::fromStdString(name + (unit.empty() ? "" : " [" + unit + "]")));
  // 1 px, not wider: a wider pen is stroked as a polygon per segment (a third of the drawing time).
  graph->setPen(QPen(seriesColours[entries_.size() % std::size(seriesColours)], 1));
  entries_.push_back({name, unit, plot_->graphCount() - 1, 0, nullptr});
  updateAxisLabel();
  plot_->replot();
  return true;
}

void PlotView::removeAll()
{
  if (onCleared) onCleared(seriesNames());
  plot_->clearGraphs();
  entries_.clear();
  updateAxisLabel();
  plot_->replot();
}

void PlotView::updateAxisLabel()
{
  std::set<std::string> units;
  for (const Entry& entry : entries_)
    units.insert(entry.unit.empty() ? "SI units" : entry.unit);
  std::string label;
  for (const std::string& unit : units)
    label += (label.empty() ? "" : ", ") + unit;
  plot_->yAxis->setLabel(QString::fromStdString(label));
}

void PlotView::refresh(const SeriesStore& store)
{
  bool changed = false;
  double newest = -std::numeric_limits<double>::infinity();
  for (Entry& entry : entries_)
  {
    const Series& series = store.series(entry.name);
    entry.source = &series;
    QCPGraph* graph = plot_->graph(entry.graph);
    if (series.time.size() < entry.taken) // the store dropped old samples: start over
    {
      graph->data()->clear();
      entry.taken = 0;
    }
    if (series.time.size() > entry.taken)
    {
      const auto begin = static_cast<qsizetype>(entry.taken);
      const auto count = static_cast<qsizetype>(series.time.size()) - begin;
      graph->addData(QVector<double>(series.time.begin() + begin, series.time.begin() + begin + count),
                     QVector<double>(series.value.begin() + begin, series.value.begin() + begin + count),
                     true);
      entry.taken = series.time.size();
      changed = true;
    }
    if (!series.time.empty()) newest = std::max(newest, series.time.back());
  }
  if (!changed || paused_ || !std::isfinite(newest)) return;
  plot_->xAxis->setRange(newest - window_, newest);
  bool first = true;
  for (const Entry& entry : entries_)
  {
    bool found = false;
    const QCPRange range =
        plot_->graph(entry.graph)->getValueRange(found, QCP::sdBoth, plot_->xAxis->range());
    if (!found) continue;
    if (first)
      plot_->yAxis->setRange(range);
    else
      plot_->yAxis->setRange(std::min(plot_->yAxis->range().lower, range.lower),
                             std::max(plot_->yAxis->range().upper, range.upper));
    first = false;
  }
  const QCPRange y = plot_->yAxis->range();
  const double margin = std::max(0.05 * y.size(), 1e-6);
  plot_->yAxis->setRange(y.lower - margin, y.upper + margin);
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setCursorTime(double time)
{
  cursor_ = time;
  static constexpr const char* cursorName = "cursor";
  QCPItemStraightLine* line = nullptr;
  for (int i = 0; i < plot_->itemCount(); ++i)
    if (plot_->item(i)->objectName() == cursorName) line = static_cast<QCPItemStraightLine*>(plot_->item(i));
  if (!line)
  {
    line = new QCPItemStraightLine(plot_);
    line->setObjectName(cursorName);
    line->setPen(QPen(Qt::red, 1, Qt::DashLine));
  }
  line->point1->setCoords(time, 0);
  line->point2->setCoords(time, 1);
  readOut_->setText(readOut(time));
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setPaused(bool paused)
{
  paused_ = paused;
  if (pause_->isChecked() != paused) pause_->setChecked(paused);
  pause_->setText(paused ? "Follow" : "Pause");
}

QString PlotView::readOut(double time) const
{
  QString text = QString("t = %1 s").arg(time, 0, 'f', 3);
  for (const Entry& entry : entries_)
  {
    if (!entry.source || entry.source->time.empty()) continue;
    const auto& times = entry.source->time;
    auto at = std::lower_bound(times.begin(), times.end(), time);
    if (at == times.end()) --at;
    if (at != times.begin() && std::abs(*(at - 1) - time) < std::abs(*at - time)) --at;
    const double value = entry.source->value[static_cast<std::size_t>(at - times.begin())];
    text += QString("   %1 = %2%3")
                .arg(QString::fromStdString(entry.name.substr(entry.name.rfind('.') + 1)))
                .arg(value, 0, 'g', 6)
                .arg(entry.unit.empty() ? "" : " " + QString::fromStdString(entry.unit));
  }
  return text;
}

bool PlotView::exportPng(const QString& file, int width, int height)
{
  return plot_->savePng(file, width, height);
}

bool PlotView::exportCsv(const QString& file) const
{
  // One row per time of any series; a series without a sample at that time leaves its cell empty.
  std::set<double> times;
  for (const Entry& entry : entries_)
    if (entry.source) times.insert(entry.source->time.begin(), entry.source->time.end());
  std::ofstream out(file.toStdString());
  if (!out) return false;
  out << "time [s]";
  for (const Entry& entry : entries_)
    out << "," << entry.name << (entry.unit.empty() ? "" : " [" + entry.unit + "]");
  out << "\n";
  std::vector<std::size_t> next(entries_.size(), 0);
  out.precision(9);
  for (const double time : times)
  {
    out << time;
    for (std::size_t i = 0; i < entries_.size(); ++i)
    {
      out << ",";
      const Series* series = entries_[i].source;
      if (series && next[i] < series->time.size() && series->time[next[i]] == time)
        out << series->value[next[i]++];
    }
    out << "\n";
  }
  return static_cast<bool>(out);
}

std::vector<std::string> PlotView::seriesNames() const
{
  std::vector<std::string> names;
  for (const Entry& entry : entries_)
    names.push_back(entry.name);
  return names;
}

std::size_t PlotView::pointCount(const std::string& name) const
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return static_cast<std::size_t>(plot_->graph(entry.graph)->dataCount());
  return 0;
}
} // namespace nao::gui

namespace nao::gui
{
class XyPlotView::Curve : public QCPCurve
{
public:
  using QCPCurve::QCPCurve;
};

XyPlotView::XyPlotView(QWidget* parent)
    : QWidget(parent), plot_(new PlotView::DropPlot(onFieldDropped)),
      curve_(new Curve(plot_->xAxis, plot_->yAxis))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  auto* clear = new QPushButton("Clear");
  layout->addWidget(clear, 0, Qt::AlignLeft);
  layout->addWidget(plot_, 1);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->setMinimumSize(300, 200);
  curve_->setPen(QPen(QColor(31, 119, 180), 1.5));
  plot_->xAxis->setLabel("drop the x field");
  plot_->yAxis->setLabel("then the y field");
  connect(clear, &QPushButton::clicked,
          [this]
          {
            x_.clear();
            y_.clear();
            curve_->data()->clear();
            plot_->xAxis->setLabel("drop the x field");
            plot_->yAxis->setLabel("then the y field");
            plot_->replot();
          });
}

void XyPlotView::addField(const std::string& name, const std::string& unit)
{
  const QString label = QString::fromStdString(name + (unit.empty() ? "" : " [" + unit + "]"));
  if (x_.empty())
  {
    x_ = name;
    plot_->xAxis->setLabel(label);
  }
  else
  {
    y_ = name;
    plot_->yAxis->setLabel(label);
  }
  version_ = 0;
  curve_->data()->clear();
}

void XyPlotView::refresh(const SeriesStore& store)
{
  if (x_.empty() || y_.empty() || store.version() == version_) return;
  version_ = store.version();
  const Series& x = store.series(x_);
  const Series& y = store.series(y_);
  // Pair the samples of the same frame (two representations may be subscribed at different times).
  QVector<double> keys, values, order;
  std::size_t j = 0;
  for (std::size_t i = 0; i < x.frame.size(); ++i)
  {
    while (j < y.frame.size() && y.frame[j] < x.frame[i])
      ++j;
    if (j < y.frame.size() && y.frame[j] == x.frame[i])
    {
      order.push_back(static_cast<double>(order.size()));
      keys.push_back(x.value[i]);
      values.push_back(y.value[j]);
    }
  }
  curve_->setData(order, keys, values, true);
  plot_->rescaleAxes();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

std::size_t XyPlotView::pointCount() const
{
  return static_cast<std::size_t>(curve_->dataCount());
}
} // namespace nao::gui
