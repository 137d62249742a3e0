#include "Util/DebugGui/PlotView.h"
#include "Util/DebugGui/DropPlot.h"
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
  margins_ = new QCPMarginGroup(plot_);
  axes_.push_back({"", plot_->axisRect(), 0, nullptr});
  plot_->axisRect()->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
  plot_->axisRect()->setRangeZoom(Qt::Horizontal); // y follows the data; the wheel zooms time
  plot_->xAxis->setLabel("time [s]");
  // The legend in a row of its own above the axis rectangles: it never covers a curve or a tick.
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot_->legend->setWrap(3);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setVisible(true);
  plot_->legend->setFont(QFont(font().family(), 9));
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
  connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
          [this](const QCPRange& range) { setTimeRange(range.lower, range.upper); });
  // Zooming or dragging looks at the past: pause following the newest data.
  connect(plot_, &QCustomPlot::mouseWheel, [this](QWheelEvent*) { pause_->setChecked(true); });
  connect(plot_, &QCustomPlot::mousePress, [this](QMouseEvent*) { pause_->setChecked(true); });
}

std::size_t PlotView::axisFor(const DisplayUnit& unit)
{
  if (!entries_.empty())
    for (std::size_t i = 0; i < axes_.size(); ++i)
      if (axes_[i].unit == unit.symbol) return i;
  if (entries_.empty()) // the first series: the empty first rectangle takes its unit
    axes_[0].unit = unit.symbol;
  else
  {
    // A rectangle per unit, under the others, its time axis following the first one's.
    auto* rect = new QCPAxisRect(plot_);
    rect->setMarginGroup(QCP::msLeft | QCP::msRight, margins_);
    rect->setRangeZoom(Qt::Horizontal);
    rect->setRangeDrag(Qt::Horizontal);
    plot_->plotLayout()->addElement(plot_->plotLayout()->rowCount(), 0, rect);
    for (QCPAxis* axis : rect->axes())
      axis->setLayer("axes");
    rect->axis(QCPAxis::atBottom)->setLabel("time [s]");
    rect->axis(QCPAxis::atBottom)->setRange(plot_->xAxis->range());
    connect(rect->axis(QCPAxis::atBottom), qOverload<const QCPRange&>(&QCPAxis::rangeChanged),
            [this](const QCPRange& range) { setTimeRange(range.lower, range.upper); });
    axes_.push_back({unit.symbol, rect, 0, nullptr});
  }
  Axis& axis = entries_.empty() ? axes_[0] : axes_.back();
  axis.floor = unit.floor;
  axis.rect->axis(QCPAxis::atLeft)
      ->setLabel(QString::fromStdString(unit.symbol.empty() ? "no unit" : unit.symbol));
  axis.rect->axis(QCPAxis::atLeft)->setLabelFont(QFont(font().family(), 12)); // a lone "°" must be legible
  return static_cast<std::size_t>(&axis - axes_.data());
}

bool PlotView::addSeries(const std::string& name, const std::string& unit)
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return false;
  const DisplayUnit shown = displayUnit(unit);
  const std::size_t axis = axisFor(shown);
  QCPAxisRect* rect = axes_[axis].rect;
  QCPGraph* graph = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
  graph->setName(QString::fromStdString(streams::labelWithUnit(name, shown.symbol)));
  // 1 px, not wider: a wider pen is stroked as a polygon per segment (a third of the drawing time).
  graph->setPen(QPen(seriesColours[entries_.size() % std::size(seriesColours)], 1));
  entries_.push_back({name, shown, axis, plot_->graphCount() - 1, 0, nullptr});
  plot_->replot();
  return true;
}

void PlotView::removeAll()
{
  if (onCleared) onCleared(seriesNames());
  plot_->clearGraphs();
  plot_->clearItems();
  for (std::size_t i = 1; i < axes_.size(); ++i)
    plot_->plotLayout()->remove(axes_[i].rect);
  plot_->plotLayout()->simplify();
  axes_.resize(1);
  axes_[0] = {"", plot_->axisRect(), 0, nullptr};
  plot_->yAxis->setLabel("");
  entries_.clear();
  if (std::isfinite(cursor_)) setCursorTime(cursor_);
  plot_->replot();
}

void PlotView::setTimeRange(double lower, double upper)
{
  if (syncing_) return;
  syncing_ = true;
  for (const Axis& axis : axes_)
    axis.rect->axis(QCPAxis::atBottom)->setRange(lower, upper);
  syncing_ = false;
}

void PlotView::fitValues()
{
  // Each rectangle's y range: the samples in the visible time, at least the unit's floor, 5 % margin.
  const QCPRange time = plot_->xAxis->range();
  for (std::size_t a = 0; a < axes_.size(); ++a)
  {
    double lower = std::numeric_limits<double>::infinity(), upper = -lower;
    for (const Entry& entry : entries_)
    {
      if (entry.axis != a) continue;
      bool found = false;
      const QCPRange range = plot_->graph(entry.graph)->getValueRange(found, QCP::sdBoth, time);
      if (!found) continue;
      lower = std::min(lower, range.lower);
      upper = std::max(upper, range.upper);
    }
    if (!std::isfinite(lower)) continue;
    const double floor = axes_[a].floor;
    if (upper - lower < floor)
    {
      const bool positive = lower >= 0; // keep a positive quantity's zero line in view
      const double middle = (lower + upper) / 2;
      lower = middle - floor / 2;
      upper = middle + floor / 2;
      if (positive && lower < 0)
      {
        upper -= lower;
        lower = 0;
      }
    }
    const double margin = std::max(0.05 * (upper - lower), 1e-6);
    axes_[a].rect->axis(QCPAxis::atLeft)->setRange(lower - margin, upper + margin);
  }
}

void PlotView::refresh(const SeriesStore& store)
{
  bool changed = false;
  double newest = -std::numeric_limits<double>::infinity(), first = -newest;
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
      QVector<double> values(series.value.begin() + begin, series.value.begin() + begin + count);
      for (double& value : values)
        value *= entry.unit.scale;
      graph->addData(QVector<double>(series.time.begin() + begin, series.time.begin() + begin + count),
                     values, true);
      entry.taken = series.time.size();
      changed = true;
    }
    if (!series.time.empty())
    {
      newest = std::max(newest, series.time.back());
      first = std::min(first, series.time.front());
    }
  }
  if (!changed || paused_ || !std::isfinite(newest)) return;
  // The newest window_ seconds, from the first sample on (never before it: no empty negative time).
  const double lower = std::max(first, newest - window_);
  setTimeRange(lower, std::max(newest, lower + window_));
  fitValues();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::showAll()
{
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (const Entry& entry : entries_)
    if (entry.source && !entry.source->time.empty())
    {
      first = std::min(first, entry.source->time.front());
      last = std::max(last, entry.source->time.back());
    }
  if (!std::isfinite(first)) return;
  setTimeRange(first, std::max(last, first + 0.1));
  fitValues();
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotView::setCursorTime(double time)
{
  cursor_ = time;
  for (Axis& axis : axes_)
  {
    if (!axis.cursor)
    {
      axis.cursor = new QCPItemStraightLine(plot_);
      axis.cursor->setPen(QPen(Qt::red, 1, Qt::DashLine));
      axis.cursor->setClipAxisRect(axis.rect);
      for (QCPItemPosition* point : {axis.cursor->point1, axis.cursor->point2})
        point->setAxes(axis.rect->axis(QCPAxis::atBottom), axis.rect->axis(QCPAxis::atLeft));
    }
    axis.cursor->point1->setCoords(time, 0);
    axis.cursor->point2->setCoords(time, 1);
  }
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
    const double value = entry.source->value[static_cast<std::size_t>(at - times.begin())] * entry.unit.scale;
    text += QString("   %1 = %2%3")
                .arg(QString::fromStdString(entry.name.substr(entry.name.rfind('.') + 1)))
                .arg(value, 0, 'g', 6)
                .arg(entry.unit.symbol.empty() ? "" : " " + QString::fromStdString(entry.unit.symbol));
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
    out << "," << streams::labelWithUnit(entry.name, entry.unit.symbol);
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
        out << series->value[next[i]++] * entries_[i].unit.scale;
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

std::string PlotView::shownUnit(const std::string& name) const
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return entry.unit.symbol;
  return {};
}

QCPAxisRect* PlotView::axisRectOf(const std::string& name) const
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return axes_[entry.axis].rect;
  return nullptr;
}

std::size_t PlotView::pointCount(const std::string& name) const
{
  for (const Entry& entry : entries_)
    if (entry.name == name) return static_cast<std::size_t>(plot_->graph(entry.graph)->dataCount());
  return 0;
}
} // namespace nao::gui
