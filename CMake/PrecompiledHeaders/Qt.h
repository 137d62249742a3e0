// Common.h and the Qt headers of the debug GUI (QCustomPlot's header brings most of Qt Widgets), for the targets
// that link Qt (CMake/PrecompiledHeaders.cmake).
#pragma once

#include "Common.h"

#include <QApplication>
#include <QTimer>
#include <QWidget>
#include <qcustomplot.h>
