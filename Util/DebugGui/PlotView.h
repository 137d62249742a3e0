#pragma once
// A time plot of any numeric leaves (QCustomPlot): drop fields from the representation tree onto it or
// double-click them; pause, zoom (wheel, drag), cursor read-out, export to PNG and CSV. Values in the GUI's units
// (DisplayUnits.h: mA, °, °C), one axis rectangle per unit stacked over a shared time axis, the legend above them
// (never over the data), each y range fitted to the visible window with a floor per unit.
#include "Util/DebugGui/DisplayUnits.h"
#include "Util/DebugGui/SeriesStore.h"
#include <QWidget>
#include <functional>

class QCustomPlot;
class QCPAxisRect;
class QCPMarginGroup;
class QCPItemStraightLine;
class QLabel;
class QPushButton;

namespace nao::gui
{
class PlotView : public QWidget
{
public:
  explicit PlotView(QWidget* parent = nullptr);
  /// Adds a series for "Repr.leaf" (the field list's unit, shown as displayUnit() says); false if it is there.
  bool addSeries(const std::string& name, const std::string& unit);
  void removeAll();
  /// Appends what the store received since the last refresh and follows the newest time unless paused.
  void refresh(const SeriesStore& store);
  /// Log replay: all data is known; marks the time of the shown frame.
  void setCursorTime(double time);
  void setPaused(bool paused);
  bool paused() const { return paused_; }
  /// Seconds of history shown while following live data.
  void setWindow(double seconds) { window_ = seconds; }
  /// Shows every sample (a log replay): the time axis from the first to the last, each y range fitted.
  void showAll();

  bool exportPng(const QString& file, int width = 0, int height = 0);
  bool exportCsv(const QString& file) const;
  /// The cursor read-out at a time (what hovering shows), for tests.
  QString readOut(double time) const;

  std::vector<std::string> seriesNames() const;
  std::size_t pointCount(const std::string& name) const;
  /// The unit a series is shown in ("mA"), and the axis rectangle that holds it (one per unit).
  std::string shownUnit(const std::string& name) const;
  QCPAxisRect* axisRectOf(const std::string& name) const;
  int axisRectCount() const { return static_cast<int>(axes_.size()); }
  QCustomPlot* plot() const { return plot_; }
  /// Fields dropped or activated onto this plot ("Repr.leaf"); the main window subscribes and adds them.
  std::function<void(const std::string& field)> onFieldDropped;
  /// The fields removed by Clear (the main window releases their subscriptions).
  std::function<void(const std::vector<std::string>& fields)> onCleared;

  class DropPlot; ///< a QCustomPlot that takes fields dropped from the representation tree

private:
  struct Entry
  {
    std::string name;
    DisplayUnit unit;
    std::size_t axis = 0; ///< index into axes_
    int graph = 0;
    std::size_t taken = 0;          ///< samples of the store's series already in the graph
    const Series* source = nullptr; ///< for the read-out and CSV
  };
  struct Axis
  {
    std::string unit;
    QCPAxisRect* rect = nullptr;
    double floor = 0;
    QCPItemStraightLine* cursor = nullptr;
  };
  std::size_t axisFor(const DisplayUnit& unit);
  void setTimeRange(double lower, double upper);
  void fitValues();

  QCustomPlot* plot_;
  QCPMarginGroup* margins_;
  std::vector<Axis> axes_;
  bool syncing_ = false;
  QLabel* readOut_;
  QPushButton* pause_;
  std::vector<Entry> entries_;
  bool paused_ = false;
  double window_ = 10; ///< s
  double cursor_ = std::numeric_limits<double>::quiet_NaN();
};
/// An x–y plot of two leaves, samples paired by frame number: drop the x field first, then the y field.
class XyPlotView : public QWidget
{
public:
  explicit XyPlotView(QWidget* parent = nullptr);
  /// A dropped field: x while it is empty, y otherwise.
  void addField(const std::string& name, const std::string& unit);
  void refresh(const SeriesStore& store);
  std::size_t pointCount() const;
  const std::string& xField() const { return x_; }
  const std::string& yField() const { return y_; }
  QCustomPlot* plot() const { return plot_; }
  std::function<void(const std::string& field)> onFieldDropped;

private:
  QCustomPlot* plot_;
  class Curve;
  Curve* curve_;
  std::string x_, y_;
  double xScale_ = 1, yScale_ = 1; ///< field unit -> shown unit
  std::uint64_t version_ = 0;
};
} // namespace nao::gui
