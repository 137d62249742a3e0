#pragma once
// The dockable views implemented in Views.cpp (the parameter editor and the module graph: ParameterEditor.h,
// ModuleGraphView.h). None of them talks to the network itself: they read the SeriesStore and ask the main window
// (through the callbacks they are given) to subscribe, plot or send requests, so the same views serve a live robot
// and a log.
#include "Util/DebugGui/SeriesStore.h"
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTreeWidget>
#include <QWidget>
#include <functional>
#include <memory>
#include <set>

class QLineEdit;
class QSlider;
class QPushButton;
class QCheckBox;
class QTimer;

namespace nao::gui
{

/// Representations and their leaves; drag a numeric leaf into a plot, or double-click it.
class RepresentationTree : public QTreeWidget
{
public:
  explicit RepresentationTree(QWidget* parent = nullptr);
  /// providers: representation -> provider ("" when the scenario does not mention it).
  void populate(const SeriesStore& store, const std::map<std::string, std::string>& providers);
  std::function<void(const std::string& field)> onActivated; ///< "Repr.leaf"

protected:
  QMimeData* mimeData(const QList<QTreeWidgetItem*>& items) const override;
  QStringList mimeTypes() const override;
};

/// One row per joint; columns for whichever of request, measurement, current, temperature (status colour),
/// stiffness, heat-adjustment offset the robot provides, the minutes to the next temperature status
/// (JointThermalState, ThermalDisplay.h) and how far the joint's readings are trusted (SensorHealth, HealthDisplay.h);
/// those two show "—" without their representation.
class JointTable : public QTableWidget
{
public:
  explicit JointTable(QWidget* parent = nullptr);
  /// Chooses the columns from the field list; returns the representations it needs subscribed, each with its rate
  /// (Hz, 0: every frame).
  std::map<std::string, float> configure(const SeriesStore& store,
                                         const std::map<std::string, std::string>& providers);
  void refresh(const SeriesStore& store);
  /// The shown text of a joint's column ("LKneePitch", "current [mA]"), for tests.
  QString cell(const QString& joint, const QString& column) const;
  /// The cell's item (background, tooltip), or nullptr, for tests.
  const QTableWidgetItem* cellItem(const QString& joint, const QString& column) const;

private:
  /// A column per entry of columns_ and a row per joint of joints_, empty cells, each column wide enough.
  void layOut();

  struct Column
  {
    QString title;
    std::string representation, leafPrefix; ///< value of joint J: representation.leafPrefix.J
    double scale = 1;                       ///< from the field's unit to the shown one
    bool status = false;                    ///< colours the row by temperature status
    bool text = false;                      ///< shown as the robot sends it (an enum, a flag)
    bool guard = false;                     ///< a stage's guard: colours the cell while it holds the joint
    bool thermal = false; ///< minutes to the next temperature status (ThermalDisplay.h), always shown
    bool health = false;  ///< the joint's SensorCheck (HealthDisplay.h), always shown
  };
  std::vector<Column> columns_;
  std::vector<std::string> joints_;
};

/// The debug channel's commands as DebugClient takes them: list, get, set, provider, subscribe, log.
class Console : public QWidget
{
public:
  explicit Console(QWidget* parent = nullptr);
  std::function<void(const std::string& line)> onCommand;
  void print(const QString& text);
  void execute(const QString& line); ///< as if typed
  QString text() const { return output_->toPlainText(); }

private:
  QPlainTextEdit* output_;
  QLineEdit* input_;
  QStringList history_;
};

/// A log's timeline: a slider over its frames, play and loop, and every leaf's value at the frame.
class LogTimeline : public QWidget
{
public:
  explicit LogTimeline(QWidget* parent = nullptr);
  void setLog(const LoadedLog* log);
  void setFrameIndex(int index);
  int frameIndex() const;
  /// Play / Pause, and the step buttons (frames < 0: back); a step pauses.
  void setPlaying(bool playing);
  bool playing() const;
  void step(int frames);
  QSlider* slider() const { return slider_; }
  std::function<void(int index)> onFrame;
  /// The value shown for "Repr.leaf" at the current frame ("" if none).
  QString shownValue(const QString& field) const;
  std::uint32_t frameNumber() const;

private:
  void show(int index);
  const LoadedLog* log_ = nullptr;
  QSlider* slider_;
  QPushButton* play_;
  QCheckBox* loop_;
  QLabel* label_;
  QTableWidget* values_;
  QTimer* timer_;
};
} // namespace nao::gui
