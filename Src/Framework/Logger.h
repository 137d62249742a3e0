#pragma once
// The Logger thread: writes the representations a scenario lists, every frame, to a log file
// (Tools/BinaryIO's chunked, CRC-checked format with a type table). The motion thread only copies the
// representations into a tap's preallocated ring; serialization and disk I/O happen here. A full ring drops
// the frame and counts it.
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

private:
  struct Session
  {
    std::shared_ptr<Tap> tap;
    std::unique_ptr<binaryio::LogWriter> writer;
    std::string path;
  };

  void threadMain();
  /// Writes what the tap holds, counting each frame in `frames` as it is handed to the writer.
  void drain(Session& session, std::size_t& frames);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::unique_ptr<Session> session_; ///< guarded by mutex_; the logger thread writes it
  std::shared_ptr<Tap> attachedTap_; ///< guarded by mutex_; the tap the motion thread feeds
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
