#include "Util/DebugGui/Views.h"
#include "Util/DebugGui/TomlSplice.h"
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMimeData>
#include <QPushButton>
#include <QSlider>
#include <QTimer>
#include <QVBoxLayout>
#include <cmath>
#include <fstream>
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

std::string readText(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
} // namespace

// ---------------------------------------------------------------------------------------------------------------
RepresentationTree::RepresentationTree(QWidget* parent) : QTreeWidget(parent)
{
  setColumnCount(3);
  setHeaderLabels({"field", "type", "unit"});
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
    auto* top = new QTreeWidgetItem(this, {q(name), "", ""});
    if (provider != providers.end() && !provider->second.empty()) top->setText(1, "← " + q(provider->second));
    for (const FieldDescription& field : fields)
    {
      auto* leaf = new QTreeWidgetItem(top, {q(field.path), q(field.type), q(field.unit)});
      if (numericType(field.type))
        leaf->setData(0, Qt::UserRole, q(name + "." + field.path));
      else
        leaf->setFlags(leaf->flags() & ~Qt::ItemIsDragEnabled);
    }
  }
  resizeColumnToContents(0);
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

std::vector<std::string> JointTable::configure(const SeriesStore& store,
                                               const std::map<std::string, std::string>& providers)
{
  constexpr double degrees = 180.0 / std::numbers::pi;
  const auto provided = [&](const std::string& representation)
  {
    if (!store.fields().contains(representation)) return false;
    const auto provider = providers.find(representation);
    return providers.empty() || (provider != providers.end() && !provider->second.empty());
  };
  // Representation leaves hold SI values (unit "") unless the field list names a unit.
  const std::vector<Column> wanted = {
      {"request [°]", "JointRequest", "angles", degrees},
      {"measured [°]", "JointSensorData", "angles", degrees},
      {"current [mA]", "JointSensorData", "currents", 1000},
      {"temperature [°C]", "JointSensorData", "temperatures", 1},
      {"status", "JointSensorData", "status", 1, true},
      {"stiffness request", "JointRequest", "stiffnesses", 1},
      {"stiffness measured", "JointSensorData", "stiffnesses", 1},
      {"heat offset [°]", "EnergySaving", "offsets", degrees},
  };
  columns_.clear();
  std::set<std::string> needed;
  for (const Column& column : wanted)
    if (provided(column.representation) &&
        store.field(column.representation + "." + column.leafPrefix + ".HeadYaw"))
    {
      columns_.push_back(column);
      needed.insert(column.representation);
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
  return {needed.begin(), needed.end()};
}

void JointTable::refresh(const SeriesStore& store)
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
  {
    QColor rowColour;
    for (std::size_t c = 0; c < columns_.size(); ++c)
    {
      const Column& column = columns_[c];
      const std::string text =
          store.latest(column.representation + "." + column.leafPrefix + "." + joints_[r]);
      QString shown = q(text);
      if (!column.status && !text.empty())
        if (const auto value = numericValue(text, "float"))
          shown = QString::number(*value * column.scale, 'f', column.scale == 1 ? 3 : 1);
      if (column.status)
      {
        // NaoFacts.md §18: the firmware limits the torque from `hot` on.
        if (text == "hot") rowColour = QColor(255, 230, 150);
        if (text == "veryHot") rowColour = QColor(255, 180, 120);
        if (text == "criticallyHot") rowColour = QColor(255, 120, 120);
      }
      QTableWidgetItem* cellItem = item(static_cast<int>(r), static_cast<int>(c));
      if (cellItem->text() != shown) cellItem->setText(shown);
    }
    for (std::size_t c = 0; c < columns_.size(); ++c)
      item(static_cast<int>(r), static_cast<int>(c))
          ->setBackground(rowColour.isValid() ? QBrush(rowColour) : QBrush());
  }
}

QString JointTable::cell(const QString& joint, const QString& column) const
{
  for (std::size_t r = 0; r < joints_.size(); ++r)
    for (std::size_t c = 0; c < columns_.size(); ++c)
      if (q(joints_[r]) == joint && columns_[c].title == column)
        return item(static_cast<int>(r), static_cast<int>(c))->text();
  return {};
}

// ---------------------------------------------------------------------------------------------------------------
ParameterEditor::ParameterEditor(Hooks hooks, QWidget* parent)
    : QWidget(parent), hooks_(std::move(hooks)), modules_(new QComboBox), table_(new QTableWidget),
      message_(new QLabel), files_(new QLabel)
{
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  auto* reload = new QPushButton("Get");
  top->addWidget(modules_, 1);
  top->addWidget(reload);
  layout->addLayout(top);
  table_->setColumnCount(4);
  table_->setHorizontalHeaderLabels({"key", "value", "unit", "range"});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  layout->addWidget(table_, 1);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(message_);
  auto* saveRow = new QHBoxLayout;
  auto* saveModule = new QPushButton("Save to Config/Modules");
  auto* saveRobot = new QPushButton("Save to robot overlay");
  saveRow->addWidget(saveModule);
  saveRow->addWidget(saveRobot);
  layout->addLayout(saveRow);
  files_->setWordWrap(true);
  layout->addWidget(files_);
  connect(modules_, &QComboBox::currentTextChanged,
          [this](const QString& name)
          {
            if (!filling_ && !name.isEmpty() && hooks_.get) hooks_.get(name.toStdString());
          });
  connect(reload, &QPushButton::clicked,
          [this]
          {
            if (!modules_->currentText().isEmpty()) hooks_.get(modules_->currentText().toStdString());
          });
  connect(table_, &QTableWidget::itemChanged,
          [this](QTableWidgetItem* item)
          {
            if (filling_ || item->column() != 1) return;
            const std::string key = table_->item(item->row(), 0)->text().toStdString();
            showMessage("applying " + q(key) + " = " + item->text() + " …", false);
            hooks_.set(module_, key, item->text().toStdString());
          });
  connect(saveModule, &QPushButton::clicked, [this] { save("module"); });
  connect(saveRobot, &QPushButton::clicked, [this] { save("robot"); });
}

void ParameterEditor::setModules(const std::vector<std::pair<std::string, bool>>& modules)
{
  filling_ = true;
  modules_->clear();
  // Active modules first: those are the ones whose edits change something now.
  for (const bool active : {true, false})
    for (const auto& [name, isActive] : modules)
      if (isActive == active) modules_->addItem(q(name) + (active ? "" : " (inactive)"), q(name));
  filling_ = false;
  if (modules_->count() > 0) selectModule(modules_->itemData(0).toString().toStdString());
}

void ParameterEditor::setConfig(const std::filesystem::path& config, const std::string& robot)
{
  config_ = config;
  robot_ = robot;
}

void ParameterEditor::selectModule(const std::string& module)
{
  const int index = modules_->findData(q(module));
  filling_ = true;
  if (index >= 0) modules_->setCurrentIndex(index);
  filling_ = false;
  if (hooks_.get) hooks_.get(module);
}

void ParameterEditor::showParameters(const std::string& module, const std::string& toml,
                                     const std::vector<FieldDescription>& fields)
{
  module_ = module;
  filling_ = true;
  table_->setRowCount(0);
  try
  {
    for (const auto& [key, value] : flattenToml(toml, module))
    {
      const int row = table_->rowCount();
      table_->insertRow(row);
      auto* keyItem = new QTableWidgetItem(q(key));
      keyItem->setFlags(keyItem->flags() & ~Qt::ItemIsEditable);
      table_->setItem(row, 0, keyItem);
      table_->setItem(row, 1, new QTableWidgetItem(q(value)));
      QString unit, range;
      for (const FieldDescription& field : fields)
        if (field.path == key)
        {
          unit = q(field.unit);
          if (!std::isnan(field.min)) range = QString("%1 … %2").arg(field.min).arg(field.max);
        }
      for (const auto& [column, text] : {std::pair{2, unit}, std::pair{3, range}})
      {
        auto* cellItem = new QTableWidgetItem(text);
        cellItem->setFlags(cellItem->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, column, cellItem);
      }
    }
  }
  catch (const std::exception& error)
  {
    showMessage(q(error.what()), true);
  }
  table_->resizeColumnToContents(0);
  filling_ = false;
  files_->setText(
      "module file: " + q((config_ / "Modules" / (module + ".toml")).string()) +
      "\nrobot overlay: " + q((config_ / "Robots" / robot_ / "Modules" / (module + ".toml")).string()));
}

void ParameterEditor::editResult(const std::string& module, const std::string& key, const std::string& value,
                                 bool ok, const std::string& message)
{
  if (ok) applied_[module][key] = value;
  showMessage(ok ? "applied: " + q(message) : "refused by the robot: " + q(message), !ok);
  // Show what the robot holds now: the new value, or the old one after a refusal.
  if (module == module_ && hooks_.get) hooks_.get(module);
}

bool ParameterEditor::editValue(const std::string& key, const std::string& value)
{
  for (int row = 0; row < table_->rowCount(); ++row)
    if (table_->item(row, 0)->text().toStdString() == key)
    {
      table_->item(row, 1)->setText(q(value)); // itemChanged applies it, as typing does
      return true;
    }
  showMessage(q(module_ + " has no key " + key), true);
  return false;
}

QString ParameterEditor::value(const std::string& key) const
{
  for (int row = 0; row < table_->rowCount(); ++row)
    if (table_->item(row, 0)->text().toStdString() == key) return table_->item(row, 1)->text();
  return {};
}

bool ParameterEditor::save(const std::string& target)
{
  const auto changed = applied_.find(module_);
  if (changed == applied_.end() || changed->second.empty())
  {
    showMessage("nothing applied to " + q(module_) + " yet: nothing to save", true);
    return false;
  }
  const std::filesystem::path file = target == "robot"
                                         ? config_ / "Robots" / robot_ / "Modules" / (module_ + ".toml")
                                         : config_ / "Modules" / (module_ + ".toml");
  try
  {
    if (target == "robot" && !std::filesystem::exists(file.parent_path().parent_path()))
      throw std::runtime_error("robot '" + robot_ + "' has no folder " +
                               file.parent_path().parent_path().string());
    std::string text = std::filesystem::exists(file) ? readText(file) : std::string();
    if (target != "robot" && text.empty()) throw std::runtime_error(file.string() + ": missing or empty");
    for (const auto& [key, value] : changed->second)
      text = target == "robot" ? setTomlValue(text, key, value, file.string())
                               : replaceTomlValue(text, key, value, file.string());
    std::filesystem::create_directories(file.parent_path());
    const std::filesystem::path temporary = file.string() + ".saving";
    std::ofstream(temporary, std::ios::binary) << text;
    std::filesystem::rename(temporary, file); // never a half-written file
    showMessage("saved " + QString::number(changed->second.size()) + " key(s) to " + q(file.string()), false);
    return true;
  }
  catch (const std::exception& error)
  {
    showMessage("not saved: " + q(error.what()), true);
    return false;
  }
}

void ParameterEditor::showMessage(const QString& text, bool error)
{
  messageIsError_ = error;
  message_->setText(text);
  message_->setStyleSheet(error ? "color: #b00000" : "color: #006000");
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
  row->addWidget(play_);
  row->addWidget(loop_);
  row->addWidget(slider_, 1);
  row->addWidget(label_);
  layout->addLayout(row);
  values_->setColumnCount(2);
  values_->setHorizontalHeaderLabels({"field", "value"});
  values_->horizontalHeader()->setStretchLastSection(true);
  values_->verticalHeader()->hide();
  values_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  layout->addWidget(values_, 1);
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
            {
              timer_->stop();
              play_->setText("Play");
            }
          });
  connect(play_, &QPushButton::clicked,
          [this]
          {
            if (timer_->isActive())
              timer_->stop();
            else
              timer_->start();
            play_->setText(timer_->isActive() ? "Pause" : "Play");
          });
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
