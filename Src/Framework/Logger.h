#pragma once
// The Logger thread: writes the representations a scenario lists, every frame, to a log file
// (Tools/BinaryIO's chunked, CRC-checked format with a type table). The motion thread only copies the
// representations into a tap's preallocated ring; serialization and disk I/O happen here. A full ring drops
// the frame and counts it. A log starts with the module graph and every module's parameters, and records each
// live parameter edit with the frame it is in force from (Framework/LogMetadata.h).
#include "Framework/Controller.h"
#include "Tools/BinaryIO/LogFormat.h"
#include <condition_variable>
#include <mutex>
#include <thread>

namespace nao
{
struct LogStatus
{
  bool active = false;
  std::string path;
  std::uint64_t framesWritten = 0;
  std::uint64_t framesDropped = 0; ///< motion frames the logger could not take (ring full)
  std::uint64_t bytesWritten = 0;
  std::string lastError;
};

class Logger
{
public:
  /// ringFrames: motion frames buffered between the motion thread and the disk (1024 = 12 s at 83 Hz;
  /// lock-step simulation produces frames far faster than real time and needs the room).
  explicit Logger(std::size_t ringFrames = 1024);
  ~Logger();

  /// Opens `path` and starts recording `representations` (names). Called on the controller's thread. Returns
  /// an error text (unknown representation, file not writable), empty on success.
  std::string start(Controller& controller, const std::filesystem::path& path,
                    const std::vector<std::string>& representations);
  /// Stops recording: the motion thread lets go of the tap, the frames still buffered are written, the file
  /// closed.
  void stop(Controller& controller);
  /// Called on the controller's thread (often): a log whose writing failed (disk full) gives its tap back to the
  /// motion thread here, and the failure is returned once ("" otherwise), so the robot says so at once.
  std::string releaseFailed(Controller& controller);
  LogStatus status() const;
  /// Called on the controller's thread after a live edit changed `module`'s parameters: the log records the
  /// module's whole parameter table (TOML, file units) before the first frame the motion thread copied after
  /// the edit. Nothing happens without an active log.
  void noteParameters(const std::string& module, std::string toml);
  /// Called on the controller's thread (the debug channel's `annotate`): the log records `text` as a note
  /// annotation at the first frame the motion thread copies after the call (LogMetadata.h). False without an
  /// active log.
  bool noteText(std::string text);

private:
  /// A live parameter edit, or a note (module empty, toml its text).
  struct ParameterEdit
  {
    std::string module, toml;
    std::uint64_t fromRecord = 0; ///< the tap's records copied when the edit was made
  };
  struct Session
  {
    std::shared_ptr<Tap> tap;
    std::unique_ptr<binaryio::LogWriter> writer;
    std::string path;
    std::vector<ParameterEdit> edits; ///< logger thread: taken from pendingEdits_, not yet written
    std::uint64_t recordsRead = 0;    ///< records taken from the tap
    std::uint32_t lastFrameNumber = 0;
  };

  void threadMain();
  /// Writes what the tap holds, counting each frame in `frames` as it is handed to the writer.
  void drain(Session& session, std::size_t& frames);
  /// Writes the edits made before the next record was copied (all of them: `all`) as in force from `frame`.
  void writeEdits(Session& session, std::uint32_t frame, bool all);
  /// Writes the frames still buffered and the edits, the dropped count, and closes the file.
  void finish(Session& session, std::size_t& frames);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::unique_ptr<Session> session_;        ///< guarded by mutex_; the logger thread writes it
  std::shared_ptr<Tap> attachedTap_;        ///< guarded by mutex_; the tap the motion thread feeds
  std::vector<ParameterEdit> pendingEdits_; ///< guarded by mutex_; edits the logger thread has not taken
  bool failed_ = false; ///< guarded by mutex_; the session ended on an error, its tap not yet given back
  bool stopThread_ = false;
  bool closeRequested_ = false;
  LogStatus status_;
  binaryio::FrameChunkBuilder builder_;
  std::vector<char> scratch_;
  std::size_t ringFrames_;
  std::thread thread_;
};
} // namespace nao
