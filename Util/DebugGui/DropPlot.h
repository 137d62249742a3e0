#pragma once
// A QCustomPlot that takes fields dropped from the representation tree (the time plot's and the x–y plot's).
#include "Util/DebugGui/PlotView.h"
#include <QDragEnterEvent>
#include <QMimeData>
#include <qcustomplot.h>

namespace nao::gui
{
class PlotView::DropPlot : public QCustomPlot
{
public:
  explicit DropPlot(std::function<void(const std::string&)>& onDrop) : onDrop_(onDrop)
  {
    setAcceptDrops(true);
  }

protected:
  void dragEnterEvent(QDragEnterEvent* event) override
  {
    if (event->mimeData()->hasText()) event->acceptProposedAction();
  }
  void dragMoveEvent(QDragMoveEvent* event) override { event->acceptProposedAction(); }
  void dropEvent(QDropEvent* event) override
  {
    for (const QString& field : event->mimeData()->text().split('\n', Qt::SkipEmptyParts))
      if (onDrop_) onDrop_(field.toStdString());
    event->acceptProposedAction();
  }

private:
  std::function<void(const std::string&)>& onDrop_;
};

} // namespace nao::gui
