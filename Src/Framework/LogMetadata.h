#pragma once
// What a log records besides its frames: the module graph (the debug channel's `list` reply) and every module's
// parameters, as annotations (Tools/BinaryIO: UTF-8 text chunks). A reader that does not know them shows them as
// text, so old readers read new logs; a log without them (written before) simply has none.
//
// Module graph annotation, written once after the type table:
//   nao-log module-graph v1
//   scenario NAME
//   module NAME active|inactive          (one block per module of the binary)
//     requires NAME...                    (each list line only when the list is not empty)
//     uses NAME...
//     provides NAME...
//   representation NAME [PROVIDER]        (the rest of the line: a module, "Body", "Framework", "off", "off (pass-
//                                          through from X)"; none when the scenario does not mention it)
//   plan                                  (the rest of the text: the execution order, as ExecutionPlan::describe)
// Parameters annotation, one per module with parameters when the log starts, and one per live edit:
//   nao-log parameters v1 MODULE loaded   (the values the log started with)
//   nao-log parameters v1 MODULE from frame N
//   followed by the module's whole parameter table as TOML text in file units (what `get MODULE` gives).
// An edit is in force from frame N on: the first frame the logger wrote after the edit was made.
// Note annotation, one per debug-channel `annotate` request (a user's or the GUI's words about the run):
//   nao-log note v1 frame N
//   followed by the text; N is the first frame the logger wrote after the request.
#include "Framework/DebugMessages.h"
#include "Tools/BinaryIO/LogFormat.h"
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nao
{
class Controller;

inline constexpr std::string_view moduleGraphAnnotationHeader = "nao-log module-graph v1";
inline constexpr std::string_view parametersAnnotationHeader = "nao-log parameters v1";
inline constexpr std::string_view noteAnnotationHeader = "nao-log note v1";

/// The module graph as the debug channel's `list` reply gives it (modules of this binary, what each requires,
/// uses and provides, which are active, the providers and the execution order).
debug::ListReply describeModuleGraph(const Controller& controller);

std::string moduleGraphAnnotation(const debug::ListReply& graph);
/// nullopt: the text is not a module graph annotation. Throws std::runtime_error for one that does not parse.
std::optional<debug::ListReply> parseModuleGraphAnnotation(std::string_view text);

struct LoggedParameters
{
  std::string module;
  bool loaded = true;          ///< true: in force from the log's start; false: a live edit
  std::uint32_t fromFrame = 0; ///< a live edit is in force from this frame on
  std::string toml;            ///< the whole parameter table, file units
  bool operator==(const LoggedParameters&) const = default;
};

std::string parametersAnnotation(const LoggedParameters& parameters);
/// nullopt: the text is not a parameters annotation. Throws std::runtime_error for one that does not parse.
std::optional<LoggedParameters> parseParametersAnnotation(std::string_view text);

struct LoggedNote
{
  std::uint32_t frame = 0; ///< the first frame written after the request
  std::string text;
  bool operator==(const LoggedNote&) const = default;
};

std::string noteAnnotation(const LoggedNote& note);
/// nullopt: the text is not a note annotation. Throws std::runtime_error for one that does not parse.
std::optional<LoggedNote> parseNoteAnnotation(std::string_view text);

/// A log's module graph and parameters, gathered from its annotations.
struct LogMetadata
{
  std::optional<debug::ListReply> graph;
  std::vector<LoggedParameters> parameters; ///< in log order
  std::vector<std::string> errors;          ///< metadata annotations that did not parse

  static LogMetadata fromAnnotations(const std::vector<binaryio::LogAnnotation>& annotations);
  /// True for the annotations above (a tool lists the other annotations as text).
  static bool isMetadata(std::string_view annotation);
  bool hasParameters() const { return !parameters.empty(); }
  /// Each module's parameter TOML in force at `frame`: the last loaded or edited entry from that frame or earlier.
  std::map<std::string, std::string> parametersAt(std::uint32_t frame) const;
  /// The live edits (not the loaded values), in log order.
  std::vector<const LoggedParameters*> edits() const;
};
} // namespace nao
