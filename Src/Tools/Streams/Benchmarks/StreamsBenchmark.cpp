// How long loading and saving a module's parameters takes (start-up and GUI edits; never in the motion
// thread). Figures only; nothing here fails on time.

#include <benchmark/benchmark.h>

#include "Tools/Streams/FlatValuesArchive.h"
#include "Tools/Streams/Tests/TestParameters.h"
#include "Tools/Streams/TomlFiles.h"

using namespace nao::streams;
using namespace streams_test;

static void parseAndLoad(benchmark::State& state)
{
  for (auto _ : state)
  {
    TestParameters parameters;
    loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
    benchmark::DoNotOptimize(parameters);
  }
}
BENCHMARK(parseAndLoad);

static void loadFromParsedTable(benchmark::State& state)
{
  const toml::table table = parseToml(validToml, "virtual/path.toml");
  for (auto _ : state)
  {
    TestParameters parameters;
    loadFromTable(table, parameters);
    benchmark::DoNotOptimize(parameters);
  }
}
BENCHMARK(loadFromParsedTable);

static void saveToText(benchmark::State& state)
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  for (auto _ : state)
    benchmark::DoNotOptimize(toTomlString(saveToTable(parameters)));
}
BENCHMARK(saveToText);

static void applyOneEdit(benchmark::State& state)
{
  toml::table shadow = parseToml(validToml, "virtual/path.toml");
  TestParameters parameters;
  loadFromTable(shadow, parameters);
  for (auto _ : state)
    applyEdit(shadow, "walk.maxSpeed", "0.3", parameters);
}
BENCHMARK(applyOneEdit);

static void flattenForCsv(benchmark::State& state)
{
  TestParameters parameters;
  loadFromTable(parseToml(validToml, "virtual/path.toml"), parameters);
  for (auto _ : state)
    benchmark::DoNotOptimize(flattenValues(parameters));
}
BENCHMARK(flattenForCsv);

BENCHMARK_MAIN();
