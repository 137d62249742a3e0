#pragma once
// A time plot of any numeric leaves (QCustomPlot): drop fields from the representation tree onto it or
// double-click them; pause, zoom (wheel, drag), cursor read-out, per-series units, export to PNG and CSV.
#include "Util/DebugGui/SeriesStore.h"
#include <QWidget>
#include <functional>

class QCustomPlot;
class QLabel;
class QPushButton;

namespace nao::gui
{
class PlotView : public QWidget
{
public:
  explicit PlotView(QWidget* parent = nullptr);
  /// Adds a series for "Repr.leaf" (unit from the field list); false if it is there already.
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

  bool exportPng(const QString& file, int width = 0, int height = 0);
  bool exportCsv(const QString& file) const;
  /// The cursor read-out at a time (what hovering shows), for tests.
  QString readOut(double time) const;

  std::vector<std::string> seriesNames() const;
  std::size_t pointCount(const std::string& name) const;
  QCustomPlot* plot() const { return plot_; }
  /// Fields dropped or activated onto this plot ("Repr.leaf"); the main window subscribes and adds them.
  std::function<void(const std::string& field)> onFieldDropped;
  /// The fields removed by Clear (the main window releases their subscriptions).
  std::function<void(const std::vector<std::string>& fields)> onCleared;

  class DropPlot; ///< a QCustomPlot that takes fields dropped from the representation tree

private:
  struct Entry
  {
    std::string name, unit;
    int graph = 0;
    std::size_t taken = 0;          ///< samples of the store's series already in the graph
    const Series* source = nullptr; ///< for the read-out and CSV
  };
  void updateAxisLabel();

  QCustomPlot* plot_;
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
  std::uint64_t version_ = 0;
};
} // namespace nao::gui
