#include "Util/DebugGui/Views.h"
#include "Util/DebugGui/DisplayUnits.h"
#include "Util/DebugGui/HealthDisplay.h"
#include "Util/DebugGui/ThermalDisplay.h"
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

bool numericType(const std::string& type)
{
  return type != "string";
}
} // namespace

// ---------------------------------------------------------------------------------------------------------------
RepresentationTree::RepresentationTree(QWidget* parent) : QTreeWidget(parent)
{
  setColumnCount(4);
  setHeaderLabels({"field", "type", "unit", "provider"});
  setDragEnabled(true);
  setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(this, &QTreeWidget::itemDoubleClicked,
          [this](QTreeWidgetItem* item, int)
          {
            const QString field = item->data(0, Qt::UserRole).toString();
            if (!field.isEmpty() && onActivated) onActivated(field.toStdString());
          });
}

void RepresentationTree::populate(const SeriesStore& store,
                                  const std::map<std::string, std::string>& providers)
{
  clear();
  for (const auto& [name, fields] : store.fields())
  {
    const auto provider = providers.find(name);
    auto* top = new QTreeWidgetItem(this, {q(name), "", "", ""});
    if (provider != providers.end() && !provider->second.empty())
    {
      top->setText(3, q(provider->second));
      top->setToolTip(0, "provided by " + q(provider->second));
    }
    for (const FieldDescription& field : fields)
    {
      // The unit the plots and tables show (DisplayUnits.h), not the code's.
      auto* leaf =
          new QTreeWidgetItem(top, {q(field.path), q(field.type), q(displayUnit(field.unit).symbol), ""});
      if (numericType(field.type))
        leaf->setData(0, Qt::UserRole, q(name + "." + field.path));
      else
        leaf->setFlags(leaf->flags() & ~Qt::ItemIsDragEnabled);
    }
  }
  for (int column = 0; column < columnCount(); ++column)
    resizeColumnToContents(column);
}

QStringList RepresentationTree::mimeTypes() const
{
  return {"text/plain"};
}

QMimeData* RepresentationTree::mimeData(const QList<QTreeWidgetItem*>& items) const
{
  QStringList fields;
  for (const QTreeWidgetItem* item : items)
    if (const QString field = item->data(0, Qt::UserRole).toString(); !field.isEmpty()) fields << field;
  auto* data = new QMimeData;
  data->setText(fields.join('\n'));
  return data;
}

// ---------------------------------------------------------------------------------------------------------------
JointTable::JointTable(QWidget* parent) : QTableWidget(parent)
{
  setEditTriggers(QAbstractItemView::NoEditTriggers);
  verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
}

std::map<std::string, float> JointTable::configure(const SeriesStore& store,
                                                   const std::map<std::string, std::string>& providers)
{
  const auto provided = [&](const std::string& representation)
  {
    if (!store.fields().contains(representation)) return false;
    const auto provider = providers.find(representation);
    return providers.empty() || (provider != providers.end() && !provider->second.empty());
  };
  // Titles without a unit: the unit and the scale come from the field list through displayUnit(), the same
  // conversion the plots make (mA, °, °C), so a cell and a plot of one sample show one number.
  const std::vector<Column> wanted = {
      {"request", "JointRequest", "angles"},
      {"measured", "JointSensorData", "angles"},
      {"current", "JointSensorData", "currents"},
      {"temperature", "JointSensorData", "temperatures"},
      {"status", "JointSensorData", "status", 1, true},
      {"stiffness request", "JointRequest", "stiffnesses"},
      {"stiffness measured", "JointSensorData", "stiffnesses"},
      {"heat offset", "EnergySaving", "offsets"},
      // The stages' guards ("do no harm"): a joint the stage made worse is held as without it, until the posture
      // changes (the README of EnergySavingProvider and of SmartStiffnessProvider).
      {"heat guard", "EnergySaving", "guard", 1, false, true, true},
      {"stiffness guard", "SmartStiffness", "guarded", 1, false, true, true},
      // JointThermalState's forecast: shown as "—" when the source lacks it.
      {"status 1 in", "JointThermalState", "hot.times", 1, false, true, false, true},
      // SensorHealth's check of each joint's readings ("trust no single reading"): shown as "—" without it.
      {"reading", "SensorHealth", "joints", 1, false, true, false, false, true},
  };
  columns_.clear();
  std::map<std::string, float> needed;
  for (Column column : wanted)
  {
    const FieldDescription* field = store.field(column.representation + "." + column.leafPrefix + ".HeadYaw" +
                                                (column.health ? ".state" : ""));
    const bool available = provided(column.representation) && field;
    if (column.thermal || column.health)
    {
      columns_.push_back(column);
      if (available) needed[column.representation] = column.health ? sensorHealthRateHz : 0;
      continue;
    }
    if (!available) continue;
    if (!column.status && !column.text)
    {
      const DisplayUnit shown = displayUnit(field->unit);
      column.scale = shown.scale;
      column.title = q(streams::labelWithUnit(column.title.toStdString(), shown.symbol));
    }
    columns_.push_back(column);
    needed[column.representation] = 0;
  }
  joints_.clear();
  if (const auto found = store.fields().find("JointSensorData"); found != store.fields().end())
    for (const FieldDescription& field : found->second)
      if (field.path.starts_with("angles.")) joints_.push_back(field.path.substr(7));
  setColumnCount(static_cast<int>(columns_.size()));
  setRowCount(static_cast<int>(joints_.size()));
  QStringList titles, rows;
  for (const Column& column : columns_)
    titles << column.title;
  for (const std::string& joint : joints_)
    rows << q(joint);
  setHorizontalHeaderLabels(titles);
  setVerticalHeaderLabels(rows);
  for (int r = 0; r < rowCount(); ++r)
    for (int c = 0; c < columnCount(); ++c)
      setItem(r, c, new QTableWidgetItem(""));
  resizeColumnsToContents(); // as wide as the titles: every column in view at the window's default width
  for (std::size_t c = 0; c < columns_.size(); ++c)
    if (columns_[c].thermal) // room for its longest text, "12.3 min → 2"
      setColumnWidth(static_cast<int>(c), std::max(columnWidth(static_cast<int>(c)),
                                                   fontMetrics().horizontalAdvance("00.0 min → 0") + 12));
    else if (columns_[c].health) // room for its longest text
      setColumnWidth(static_cast<int>(c),
                     std::max(columnWidth(static_cast<int>(c)),
                              fontMetrics().horizontalAdvance("suspect: notFollowing") + 12));
  return needed;
}

void JointTable::refresh(const SeriesStore& store)
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
  {
    QColor rowColour, thermalColour, healthColour;
    for (std::size_t c = 0; c < columns_.size(); ++c)
    {
      const Column& column = columns_[c];
      QTableWidgetItem* cellItem = item(static_cast<int>(r), static_cast<int>(c));
      if (column.thermal)
      {
        const ThermalCell thermal = thermalCell(store, joints_[r]);
        thermalColour = thermal.colour;
        if (cellItem->text() != thermal.text) cellItem->setText(thermal.text);
        if (cellItem->toolTip() != thermal.toolTip) cellItem->setToolTip(thermal.toolTip);
        continue;
      }
      if (column.health)
      {
        const HealthCell health = jointHealthCell(store, joints_[r]);
        healthColour = health.colour;
        if (cellItem->text() != health.text) cellItem->setText(health.text);
        if (cellItem->toolTip() != health.toolTip) cellItem->setToolTip(health.toolTip);
        continue;
      }
      const std::string text =
          store.latest(column.representation + "." + column.leafPrefix + "." + joints_[r]);
      QString shown = q(text);
      if (!column.status && !column.text && !text.empty())
        if (const auto value = numericValue(text, "float"))
          shown = QString::number(*value * column.scale, 'f', column.title.contains('[') ? 1 : 3);
      if (column.status)
      {
        // NaoFacts.md §18: the firmware limits the torque from `hot` on.
        if (text == "hot") rowColour = QColor(255, 230, 150);
        if (text == "veryHot") rowColour = QColor(255, 180, 120);
        if (text == "criticallyHot") rowColour = QColor(255, 120, 120);
      }
      if (cellItem->text() != shown) cellItem->setText(shown);
    }
    for (std::size_t c = 0; c < columns_.size(); ++c)
    {
      const Column& column = columns_[c];
      QTableWidgetItem* cellItem = item(static_cast<int>(r), static_cast<int>(c));
      const QString text = cellItem->text();
      // A guard that holds the joint (the stage made it worse): lilac, over the row's temperature colour.
      const bool guardHolds = column.guard && (text == "heldAtBest" || text == "heldAtZero" ||
                                               text == "restless" || text == "true");
      const QColor colour = column.thermal  ? thermalColour
                            : column.health ? healthColour
                            : guardHolds    ? QColor(220, 190, 255)
                                            : rowColour;
      cellItem->setBackground(colour.isValid() ? QBrush(colour) : QBrush());
    }
  }
}

QString JointTable::cell(const QString& joint, const QString& column) const
{
  const QTableWidgetItem* found = cellItem(joint, column);
  return found ? found->text() : QString();
}

const QTableWidgetItem* JointTable::cellItem(const QString& joint, const QString& column) const
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
    for (std::size_t c = 0; c < columns_.size(); ++c)
      if (q(joints_[r]) == joint && columns_[c].title == column)
        return item(static_cast<int>(r), static_cast<int>(c));
  return nullptr;
}

// ---------------------------------------------------------------------------------------------------------------
Console::Console(QWidget* parent) : QWidget(parent), output_(new QPlainTextEdit), input_(new QLineEdit)
{
  auto* layout = new QVBoxLayout(this);
  output_->setReadOnly(true);
  output_->setMaximumBlockCount(5000);
  layout->addWidget(output_, 1);
  input_->setPlaceholderText("list | get <module|representation> | set <module> <key> <value> | "
                             "provider <representation> <module|off> | log start [name] | log stop | help");
  layout->addWidget(input_);
  connect(input_, &QLineEdit::returnPressed,
          [this]
          {
            execute(input_->text());
            input_->clear();
          });
}

void Console::print(const QString& text)
{
  output_->appendPlainText(text);
}

void Console::execute(const QString& line)
{
  if (line.trimmed().isEmpty()) return;
  history_ << line;
  print("> " + line);
  if (onCommand) onCommand(line.trimmed().toStdString());
}

// ---------------------------------------------------------------------------------------------------------------
LogTimeline::LogTimeline(QWidget* parent)
    : QWidget(parent), slider_(new QSlider(Qt::Horizontal)), play_(new QPushButton("Play")),
      loop_(new QCheckBox("loop")), label_(new QLabel), values_(new QTableWidget), timer_(new QTimer(this))
{
  auto* layout = new QVBoxLayout(this);
  auto* row = new QHBoxLayout;
  auto* back = new QPushButton("◀ step");
  auto* forward = new QPushButton("step ▶");
  auto* showValues = new QPushButton("values");
  back->setObjectName("stepBack");
  forward->setObjectName("stepForward");
  showValues->setCheckable(true);
  row->addWidget(play_);
  row->addWidget(back);
  row->addWidget(forward);
  row->addWidget(loop_);
  // The slider takes the row's width (at least 300 px, room to scrub); the label's width is fixed so that it does not
  // squeeze the slider as the frame number grows.
  slider_->setMinimumWidth(300);
  row->addWidget(slider_, 1);
  label_->setMinimumWidth(label_->fontMetrics().horizontalAdvance("frame 0000000  t = 00000.000 s"));
  row->addWidget(label_);
  row->addWidget(showValues);
  layout->addLayout(row);
  values_->setColumnCount(2);
  values_->setHorizontalHeaderLabels({"field", "value"});
  values_->horizontalHeader()->setStretchLastSection(true);
  values_->verticalHeader()->hide();
  values_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  values_->hide(); // every leaf's value at the frame, on demand ("values")
  layout->addWidget(values_, 1);
  connect(showValues, &QPushButton::toggled, values_, &QWidget::setVisible);
  connect(back, &QPushButton::clicked, [this] { step(-1); });
  connect(forward, &QPushButton::clicked, [this] { step(1); });
  connect(slider_, &QSlider::valueChanged, [this](int index) { show(index); });
  timer_->setInterval(12); // one frame per 12 ms: real time
  connect(timer_, &QTimer::timeout,
          [this]
          {
            if (slider_->value() < slider_->maximum())
              slider_->setValue(slider_->value() + 1);
            else if (loop_->isChecked())
              slider_->setValue(0);
            else
              setPlaying(false);
          });
  connect(play_, &QPushButton::clicked, [this] { setPlaying(!timer_->isActive()); });
}

void LogTimeline::setPlaying(bool playing)
{
  if (playing)
    timer_->start();
  else
    timer_->stop();
  play_->setText(playing ? "Pause" : "Play");
}

bool LogTimeline::playing() const
{
  return timer_->isActive();
}

void LogTimeline::step(int frames)
{
  setPlaying(false);
  slider_->setValue(std::clamp(slider_->value() + frames, 0, slider_->maximum()));
}

void LogTimeline::setLog(const LoadedLog* log)
{
  log_ = log;
  slider_->setRange(0, log && !log->frames.empty() ? static_cast<int>(log->frames.size()) - 1 : 0);
  slider_->setValue(0);
  show(0);
}

void LogTimeline::setFrameIndex(int index)
{
  slider_->setValue(index);
}

int LogTimeline::frameIndex() const
{
  return slider_->value();
}

std::uint32_t LogTimeline::frameNumber() const
{
  return log_ && !log_->frames.empty() ? log_->frames[static_cast<std::size_t>(slider_->value())].number : 0;
}

void LogTimeline::show(int index)
{
  if (!log_ || log_->frames.empty()) return;
  const LoadedLog::Frame& frame = log_->frames[static_cast<std::size_t>(index)];
  label_->setText(QString("frame %1  t = %2 s").arg(frame.number).arg(frame.time, 0, 'f', 3));
  int rows = 0;
  for (const Sample& sample : frame.samples)
    rows += static_cast<int>(sample.values.size());
  values_->setRowCount(rows);
  int row = 0;
  for (const Sample& sample : frame.samples)
    for (const auto& [leaf, text] : sample.values)
    {
      for (const auto& [column, shown] :
           {std::pair{0, q(sample.representation + "." + leaf)}, std::pair{1, q(text)}})
      {
        QTableWidgetItem* cellItem = values_->item(row, column);
        if (!cellItem) values_->setItem(row, column, cellItem = new QTableWidgetItem);
        cellItem->setText(shown);
      }
      ++row;
    }
  if (onFrame) onFrame(index);
}

QString LogTimeline::shownValue(const QString& field) const
{
  for (int row = 0; row < values_->rowCount(); ++row)
    if (values_->item(row, 0)->text() == field) return values_->item(row, 1)->text();
  return {};
}
} // namespace nao::gui
