// Common.h and GoogleTest, for the targets that link GoogleTest (CMake/PrecompiledHeaders.cmake).
#pragma once

#include "Common.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
