// Qt.h and GoogleTest, for the debug GUI's tests (CMake/PrecompiledHeaders.cmake).
#pragma once

#include "Qt.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
