// The parameter editor: a module's parameters as the robot reports them, edited live (the robot validates), saved
// key by key into the module's TOML file or the robot's overlay (TomlSplice keeps the rest of the file).
#include "Util/DebugGui/ParameterEditor.h"
#include "Util/DebugGui/TomlSplice.h"
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QVBoxLayout>
#include <fstream>
#include <sstream>

namespace nao::gui
{
namespace
{
QString q(const std::string& text)
{
  return QString::fromStdString(text);
}

std::string readText(const std::filesystem::path& file)
{
  std::ifstream in(file, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}
} // namespace

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
  table_->setColumnCount(5);
  table_->setHorizontalHeaderLabels({"key", "value", "unit", "range", "what it does"});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  layout->addWidget(table_, 1);
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(message_);
  saveButtons_ = new QWidget;
  auto* saveRow = new QHBoxLayout(saveButtons_);
  saveRow->setContentsMargins(0, 0, 0, 0);
  auto* saveModule = new QPushButton("Save to Config/Modules");
  auto* saveRobot = new QPushButton("Save to robot overlay");
  saveRow->addWidget(saveModule);
  saveRow->addWidget(saveRobot);
  layout->addWidget(saveButtons_);
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
            if (filling_ || readOnly_ || item->column() != 1) return;
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
      auto* valueItem = new QTableWidgetItem(q(value));
      if (readOnly_) valueItem->setFlags(valueItem->flags() & ~Qt::ItemIsEditable);
      table_->setItem(row, 1, valueItem);
      // The leaf itself, or the first element of an array the file writes on one line ("centerOfMassMin").
      QString unit, range, doc;
      for (const FieldDescription& field : fields)
        if (field.path == key || field.path.starts_with(key + "["))
        {
          unit = q(field.unit);
          if (!std::isnan(field.min)) range = QString("%1 … %2").arg(field.min).arg(field.max);
          doc = q(field.doc);
          break;
        }
      for (const auto& [column, text] : {std::pair{2, unit}, std::pair{3, range}, std::pair{4, doc}})
      {
        auto* cellItem = new QTableWidgetItem(text);
        cellItem->setFlags(cellItem->flags() & ~Qt::ItemIsEditable);
        table_->setItem(row, column, cellItem);
      }
      keyItem->setToolTip(doc);
      table_->item(row, 1)->setToolTip(doc);
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

void ParameterEditor::setReadOnly(bool readOnly, const QString& why)
{
  readOnly_ = readOnly;
  saveButtons_->setEnabled(!readOnly);
  if (readOnly) showMessage(why, false);
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
  if (readOnly_)
  {
    showMessage("a log's parameters are read-only: " + q(key) + " stays as recorded", true);
    return false;
  }
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
  if (readOnly_)
  {
    showMessage("a log's parameters are read-only: nothing to save", true);
    return false;
  }
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
    // Either file states only what differs from the defaults: a key it lacks is added.
    std::string text = std::filesystem::exists(file) ? readText(file) : std::string();
    for (const auto& [key, value] : changed->second)
      text = setTomlValue(text, key, value, file.string());
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
} // namespace nao::gui
