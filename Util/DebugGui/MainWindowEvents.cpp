// --sim's events: Simulation → Events and the events tool bar send the simulator's event commands (`Simulator serve
// --control`, Util/Simulator/App/README.md, "Events into a running simulation") to its control channel, the same
// lines a user types there; the simulator answers each "applied <line> at frame N (T s)" or with an error, which the
// status line and the console show. Choices come from the robot's Config/ (Sim/faults.toml, Sim/variants.toml,
// Sim/robots.toml), so a new fault or variant needs no GUI change.
#include "Representations/Infrastructure/Joints.h"
#include "Util/DebugGui/MainWindow.h"
#include <QDoubleSpinBox>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QToolBar>
#include <toml++/toml.h>

namespace nao::gui
{
namespace
{
/// The `name` of every table of the array `array` in Config/Sim/<file> (empty when the file cannot be read: the menu
/// then offers none, and the simulator names the valid ones when a typed line names another).
QStringList namesIn(const std::filesystem::path& config, const char* file, const char* array)
{
  QStringList names;
  try
  {
    const toml::table table = toml::parse_file((config / "Sim" / file).string());
    if (const toml::array* entries = table[array].as_array())
      for (const toml::node& entry : *entries)
        if (const auto name =
                entry.as_table() ? (*entry.as_table())["name"].value<std::string>() : std::nullopt)
          names << QString::fromStdString(*name);
  }
  catch (const std::exception&)
  {
  }
  return names;
}

struct PushDirection
{
  const char* name;  ///< object name of the action
  const char* title; ///< menu text
  double x, y;       ///< unit direction, world frame (x: the way the robot faces at the start)
  const char* key;
};
constexpr PushDirection pushDirections[] = {{"pushFront", "Push to the &front", 1, 0, "Ctrl+Shift+Up"},
                                            {"pushBack", "Push to the &back", -1, 0, "Ctrl+Shift+Down"},
                                            {"pushLeft", "Push to the &left", 0, 1, "Ctrl+Shift+Left"},
                                            {"pushRight", "Push to the &right", 0, -1, "Ctrl+Shift+Right"}};
} // namespace

std::string MainWindow::pushLine(double x, double y, double impulse)
{
  // The impulse as a scenario script's push: a force for pushSeconds (N·s / s = N).
  const double force = impulse / MainWindow::pushSeconds;
  return "push " + QString::number(force * x, 'g', 6).toStdString() + " " +
         QString::number(force * y, 'g', 6).toStdString() + " 0 for " +
         QString::number(MainWindow::pushSeconds).toStdString();
}

void MainWindow::buildEventsMenu()
{
  QMenu* events = simulationMenu_->addMenu("E&vents");
  eventsBar_ = addToolBar("Simulation events");
  eventsBar_->setObjectName("simulationEventsBar");
  auto* impulse = new QDoubleSpinBox;
  impulse->setObjectName("pushImpulse");
  impulse->setRange(0.1, 50.0);
  impulse->setSingleStep(0.5);
  impulse->setDecimals(1);
  impulse->setValue(pushImpulse_);
  impulse->setSuffix(" N·s");
  impulse->setToolTip("the push's impulse: a force for 0.1 s on the torso (the fall scenarios push 4.5 N·s)");
  connect(impulse, &QDoubleSpinBox::valueChanged, [this](double value) { pushImpulse_ = value; });
  eventsBar_->addWidget(new QLabel(" push "));
  eventsBar_->addWidget(impulse);
  const auto add = [this](auto&&... arguments) { return addEventAction(arguments...); };
  for (const PushDirection& direction : pushDirections)
    add(
        events, direction.name, direction.title,
        [this, direction] { simulatorCommand(pushLine(direction.x, direction.y, pushImpulse_)); },
        direction.key, true);
  events->addSeparator();
  add(
      events, "pickUp", "Pick &up", [this] { simulatorCommand("pickup"); }, "Ctrl+Shift+U", true);
  add(
      events, "putDown", "Put &down", [this] { simulatorCommand("putdown"); }, "Ctrl+Shift+D", true);
  events->addSeparator();
  add(
      events, "pressChest", "Press the &chest button", [this] { simulatorCommand("press chest"); },
      "Ctrl+Shift+B", true);
  QMenu* buttons = events->addMenu("Buttons");
  for (const char* button : {"chest", "head-front", "head-middle", "head-rear"})
  {
    const std::string name(button);
    buttons->addAction(QString("Press %1").arg(button), [this, name] { simulatorCommand("press " + name); });
    buttons->addAction(QString("Hold %1").arg(button), [this, name] { simulatorCommand("hold " + name); });
    buttons->addAction(QString("Release %1").arg(button),
                       [this, name] { simulatorCommand("release " + name); });
  }
  buildEventSettingsMenus(events);
  events->addSeparator();
  add(
      events, "restartScenario", "&Restart the scenario", [this] { simulatorCommand("restart"); },
      "Ctrl+Shift+R");
}

QAction* MainWindow::addEventAction(QMenu* menu, const char* name, const QString& title,
                                    std::function<void()> what, const char* key, bool onBar)
{
  QAction* action = menu->addAction(title);
  action->setObjectName(name);
  if (key) action->setShortcut(QKeySequence(key));
  connect(action, &QAction::triggered, std::move(what));
  if (onBar) eventsBar_->addAction(action);
  return action;
}

void MainWindow::buildEventSettingsMenus(QMenu* events)
{
  const auto add = [this](auto&&... arguments) { return addEventAction(arguments...); };
  QMenu* battery = events->addMenu("&Battery");
  add(battery, "setBattery", "Set the &charge…",
      [this]
      {
        bool ok = false;
        const double percent = QInputDialog::getDouble(this, "Battery", "charge [%]", 50, 0, 100, 0, &ok);
        if (ok) simulatorCommand("battery " + QString::number(percent / 100, 'g', 4).toStdString());
      });
  add(battery, "drainBattery", "&Drain within…",
      [this]
      {
        bool ok = false;
        const double seconds =
            QInputDialog::getDouble(this, "Battery", "empty within [s]", 30, 1, 86400, 0, &ok);
        if (ok) simulatorCommand("drain " + QString::number(seconds).toStdString());
      });
  add(events, "setTemperature", "Joint &temperature…",
      [this]
      {
        QStringList joints;
        for (std::size_t j = 0; j < numOfJoints; ++j)
          joints << QString::fromStdString(std::string(name(jointAt(j))));
        bool ok = false;
        const QString joint =
            QInputDialog::getItem(this, "Joint temperature", "joint", joints, 0, false, &ok);
        if (!ok) return;
        const double degrees =
            QInputDialog::getDouble(this, "Joint temperature", joint + " winding [°C]", 70, 0, 150, 1, &ok);
        if (ok)
          simulatorCommand("temperature " + joint.toStdString() + " " +
                           QString::number(degrees).toStdString());
      });
  QMenu* plant = events->addMenu("&Plant");
  for (const QString& preset : QStringList{"normal"} + namesIn(options_.config, "robots.toml", "presets"))
    plant->addAction("Preset " + preset,
                     [this, preset] { simulatorCommand("preset " + preset.toStdString()); });
  plant->addSeparator();
  for (const QString& variant : QStringList{"none"} + namesIn(options_.config, "variants.toml", "variants"))
    plant->addAction("Variant " + variant,
                     [this, variant] { simulatorCommand("variant " + variant.toStdString()); });
  QMenu* faults = events->addMenu("Sensor &fault");
  add(faults, "clearFault", "&Clear", [this] { simulatorCommand("fault clear"); });
  faults->addSeparator();
  for (const QString& fault : namesIn(options_.config, "faults.toml", "faults"))
    faults->addAction(fault, [this, fault] { simulatorCommand("fault " + fault.toStdString()); });
}
} // namespace nao::gui
