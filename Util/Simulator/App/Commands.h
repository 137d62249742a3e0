#pragma once
// The Simulator's commands that read what ensembles wrote (report), the do-no-harm matrix, the fault
// matrix, the Stack of Tasks' scenarios and the fall evaluations; each can write its tables into Docs/Results/.
#include "Util/Simulator/Run/FaultMatrix.h"
#include "Util/Simulator/Run/HarmMatrix.h"
#include <cstdint>
#include <string>
#include <vector>

namespace nao::simcli
{
/// `report`: an ensemble's table and figure, or one run's table and plots, again; with `figure`, one PNG comparing
/// the folders' bands.
int report(const std::vector<std::string>& folders, const std::vector<std::string>& labels,
           const std::string& figure, const std::string& title);
/// `matrix`: every plant variant × the safety stages, an ensemble each; the harm table into <output>/matrix.md and,
/// if given, `markdown`, headed by `command`.
int runMatrix(HarmMatrixOptions options, const std::vector<std::string>& variants,
              const std::string& configDirectory, const std::string& output, const std::string& markdown,
              const std::string& command);
/// `faults`: every sensor fault (or those of options.faults) × stand, stepping, sit, a push and a press, against the
/// robot code; the table into <output>/faults.md and, if given, `markdown`, headed by `command`.
int runFaults(FaultMatrixOptions options, const std::string& configDirectory, const std::string& output,
              const std::string& markdown, const std::string& command);
/// `tasks`: each scenario on robots seed .. seed + robots - 1, judged (TaskSpaceEvaluation.h); the tables into
/// <output>/tasks.md and, if given, `markdown`, headed by `command`.
int runTasks(const std::vector<std::string>& scenarios, std::uint64_t seed, int robots,
             const std::string& configDirectory, const std::string& output, const std::string& markdown,
             const std::string& command);
/// `falls`: InertialDataFilter and FallDownStateDetector against the simulator's truth on every seed; the tables into
/// <output>/falls.md and, if given, `markdown`, headed by `command`.
int runFalls(const std::vector<std::uint64_t>& seeds, const std::string& configDirectory,
             const std::string& output, const std::string& markdown, const std::string& command);
/// `fallprotection`: pushed falls from 8 directions with and without FallProtectionProvider on every seed; the
/// tables into <output>/fallprotection.md and, if given, `markdown`, headed by `command`.
int runFallProtection(const std::vector<std::uint64_t>& seeds, const std::string& configDirectory,
                      const std::string& output, const std::string& markdown, const std::string& command);
/// The tables `subcommand` writes (its --markdown file's), as they look without results: their titles and columns
/// (`--parse-only`, by which a test checks Docs/Results/'s files against their commands). Empty: it writes none.
std::string tablesWithoutResults(const std::string& subcommand, const std::vector<double>& horizons);
} // namespace nao::simcli
