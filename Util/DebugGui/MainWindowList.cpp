// Several sources side by side: one window per source (File → New connection… opens one), every window listed in
// the Window menu to switch to. Each window has its own link, store and views, so two robots, or a robot and a
// log, never mix their values.
#include "Util/DebugGui/MainWindow.h"
#include <QMenuBar>

namespace nao::gui
{
std::vector<MainWindow*>& MainWindow::windowList()
{
  static std::vector<MainWindow*> windows;
  return windows;
}

const std::vector<MainWindow*>& MainWindow::windows()
{
  return windowList();
}

MainWindow* MainWindow::newWindow()
{
  GuiOptions options = options_;
  options.connect.clear();
  options.log.clear();
  options.sim.clear();
  options.plots.clear();
  auto* window = new MainWindow(std::move(options));
  window->setAttribute(Qt::WA_DeleteOnClose); // the first window is main()'s; the others own themselves
  window->move(pos() + QPoint(40, 40));
  window->show();
  return window;
}

void MainWindow::buildWindowMenu()
{
  windowList().push_back(this);
  QMenu* menu = menuBar()->addMenu("&Window");
  menu->setObjectName("windowMenu");
  // Listed when opened, so that it always shows the windows (and their sources) as they are now.
  connect(menu, &QMenu::aboutToShow,
          [this, menu]
          {
            menu->clear();
            for (MainWindow* window : windowList())
            {
              QAction* action = menu->addAction(window->windowTitle(),
                                                [window]
                                                {
                                                  window->show();
                                                  window->raise();
                                                  window->activateWindow();
                                                });
              action->setCheckable(true);
              action->setChecked(window == this);
            }
          });
}
} // namespace nao::gui
