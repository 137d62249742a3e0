#pragma once
// The error a load into TestParameters must raise, for the Streams tests that check what it says.
#include "TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

#include <gtest/gtest.h>

namespace streams_test
{
/// The ConfigError of loading `table` into TestParameters; a test failure (and an empty error) if it loads.
inline nao::streams::ConfigError loadErrorOf(const toml::table& table)
{
  TestParameters parameters;
  try
  {
    nao::streams::loadFromTable(table, parameters);
  }
  catch (const nao::streams::ConfigError& error)
  {
    return error;
  }
  ADD_FAILURE() << "loading did not fail";
  return nao::streams::ConfigError(nao::streams::ConfigIssue{});
}
} // namespace streams_test
