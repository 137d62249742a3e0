#include "Util/DebugGui/Views.h"
#include "Util/DebugGui/DisplayUnits.h"
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
