#pragma once
// A dockable view (the others: Views.h): a module's parameters, edited live and saved.
#include "Util/DebugGui/SeriesStore.h"
#include <QLabel>
#include <QTableWidget>
#include <QWidget>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

class QComboBox;

namespace nao::gui
{
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
} // namespace nao::gui
