#pragma once
// What the views show: the time series of every numeric leaf received (or read from a log), the latest text of
// every leaf, and the field list (types and units) from the debug channel or the log's type table.
#include "Framework/LogMetadata.h"
#include "Framework/Representation.h"
#include "Util/DebugGui/RobotLink.h"
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace nao::gui
{
struct Series
{
  std::vector<double> time;  ///< s, FrameInfo time of the sample
  std::vector<double> value; ///< in the field's unit
  std::vector<std::uint32_t> frame;
};

class SeriesStore
{
public:
  /// At most this many samples per series are kept (live: 10 minutes at 83 Hz); older ones are dropped.
  void setCapacity(std::size_t samples) { capacity_ = samples; }

  /// Fields of every representation ("Repr" -> leaves), from the list reply or the representation table.
  void setFields(const std::string& representation, std::vector<FieldDescription> fields);
  const std::map<std::string, std::vector<FieldDescription>>& fields() const { return fields_; }
  /// The description of "Repr.leaf", or nullptr.
  const FieldDescription* field(const std::string& name) const;

  void add(const Sample& sample);
  /// Only the latest texts (log replay: the values at the timeline's frame).
  void setLatest(const Sample& sample);
  /// "Repr.leaf" -> series; empty series for fields never received.
  const Series& series(const std::string& name) const;
  /// The latest text of "Repr.leaf" ("" if none).
  std::string latest(const std::string& name) const;
  std::uint64_t version() const { return version_; }
  void clear();

private:
  std::map<std::string, std::vector<FieldDescription>> fields_;
  std::map<std::string, Series> series_;
  std::map<std::string, std::string> latest_;
  std::uint64_t version_ = 0;
  std::size_t capacity_ = 50000;
};

/// A whole log in memory for replay: every frame's samples, in order.
struct LoadedLog
{
  struct Frame
  {
    std::uint32_t number = 0;
    double time = 0; ///< s, FrameInfo time (0 if the log has none)
    std::vector<Sample> samples;
  };
  std::vector<Frame> frames;
  std::vector<std::string> warnings; ///< undecodable types, damaged chunks
  LogMetadata metadata;              ///< the module graph and parameters, if the log recorded them
};

/// Reads a log with LogReading's decoder (the same as LogTool). Throws std::runtime_error naming the file.
LoadedLog loadLog(const std::filesystem::path& path);
} // namespace nao::gui
