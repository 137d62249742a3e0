#pragma once
// The dockable views. None of them talks to the network itself: they read the SeriesStore and ask the main
// window (through the callbacks they are given) to subscribe, plot or send requests, so the same views serve a
// live robot and a log.
#include "Util/DebugGui/SeriesStore.h"
#include <QLabel>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTreeWidget>
#include <QWidget>
#include <functional>
#include <memory>
#include <set>

class QComboBox;
class QLineEdit;
class QSlider;
class QPushButton;
class QCheckBox;
class QTimer;

namespace nao::gui
{
struct GraphLayout;

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

/// A module's parameters: edit a value to apply it live (the robot validates it and its message is shown),
/// then save the applied keys to Config/Modules/<Module>.toml or the robot's overlay, touching only those keys.
class ParameterEditor : public QWidget
{
public:
  struct Hooks
  {
    std::function<void(const std::string& module)> get;
    std::function<void(const std::string& module, const std::string& key, const std::string& value)> set;
  };
  ParameterEditor(Hooks hooks, QWidget* parent = nullptr);
  void setModules(const std::vector<std::pair<std::string, bool>>& modules); ///< name, active
  void setConfig(const std::filesystem::path& config, const std::string& robot);
  /// The robot's parameters of a module (TOML text in file units, field list).
  void showParameters(const std::string& module, const std::string& toml,
                      const std::vector<FieldDescription>& fields);
  /// Read-only (a log's parameters): no edits, no saving; `why` is shown. false: editable again.
  void setReadOnly(bool readOnly, const QString& why = {});
  bool readOnly() const { return readOnly_; }
  /// The robot's answer to an edit.
  void editResult(const std::string& module, const std::string& key, const std::string& value, bool ok,
                  const std::string& message);

  /// What a user does, for tests and the console: select a module, type a value into a key's cell.
  void selectModule(const std::string& module);
  bool editValue(const std::string& key, const std::string& value);
  /// Writes the applied keys; target "module" (Config/Modules) or "robot" (Config/Robots/<robot>/Modules).
  bool save(const std::string& target);
  QString message() const { return message_->text(); }
  bool messageIsError() const { return messageIsError_; }
  QString value(const std::string& key) const;
  const std::string& module() const { return module_; }

private:
  void showMessage(const QString& text, bool error);

  Hooks hooks_;
  QComboBox* modules_;
  QTableWidget* table_;
  QLabel* message_;
  QLabel* files_;
  bool messageIsError_ = false;
  bool filling_ = false;
  bool readOnly_ = false;
  QWidget* saveButtons_ = nullptr;
  std::string module_;
  std::filesystem::path config_;
  std::string robot_;
  std::map<std::string, std::map<std::string, std::string>>
      applied_; ///< module -> key -> value (applied live)
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
