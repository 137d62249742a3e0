// The x–y plot: two leaves paired by frame number, in the GUI's units (DisplayUnits.h).
#include "Util/DebugGui/DropPlot.h"
#include <QPushButton>
#include <QVBoxLayout>

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
  const DisplayUnit shown = displayUnit(unit);
  const QString label = QString::fromStdString(streams::labelWithUnit(name, shown.symbol));
  if (x_.empty())
  {
    x_ = name;
    xScale_ = shown.scale;
    plot_->xAxis->setLabel(label);
  }
  else
  {
    y_ = name;
    yScale_ = shown.scale;
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
      keys.push_back(x.value[i] * xScale_);
      values.push_back(y.value[j] * yScale_);
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
