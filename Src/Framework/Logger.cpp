#include "Framework/Logger.h"
#include "Framework/LogMetadata.h"
#include <algorithm>
#include <iterator>

namespace nao
{
Logger::Logger(std::size_t ringFrames) : ringFrames_(ringFrames), thread_([this] { threadMain(); }) {}

Logger::~Logger()
{
  {
    std::lock_guard lock(mutex_);
    stopThread_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::string Logger::start(Controller& controller, const std::filesystem::path& path,
                          const std::vector<std::string>& representations)
{
  releaseFailed(controller); // a log that failed never keeps the next one out
  if (status().active) return "a log is already being written to " + status().path;
  const auto& registry = RepresentationRegistry::instance();
  binaryio::TypeTable table;
  std::vector<RepresentationId> ids;
  for (const std::string& name : representations)
  {
    const int id = registry.find(name);
    if (id < 0) return "cannot log '" + name + "': not a representation of this binary";
    ids.push_back(static_cast<RepresentationId>(id));
    table.entries.push_back({static_cast<std::uint16_t>(id), name, registry.info(ids.back()).schema});
  }
  auto session = std::make_unique<Session>();
  try
  {
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
    // Chunks collect in the stream buffer and go to the OS after each drain (every 2 ms): one system call per
    // batch instead of per frame. A kill -9 loses at most that batch; the file stays readable up to its last
    // whole chunk.
    binaryio::ChunkWriterOptions writerOptions;
    writerOptions.flushEveryChunk = false;
    session->writer = std::make_unique<binaryio::LogWriter>(path, table, writerOptions);
    // What the log was recorded with: the module graph and every module's parameters as they are now (this
    // thread, before the logger thread sees the session; the motion thread is not involved).
    session->writer->writeAnnotation(moduleGraphAnnotation(describeModuleGraph(controller)));
    for (const ModuleInfo* module : ModuleRegistry::instance().modules())
    {
      if (!module->parameters) continue;
      std::string text;
      try
      {
        text = controller.parametersText(module->name);
      }
      catch (const std::exception& error)
      {
        text = std::string("# not available: ") + error.what() + "\n";
      }
      session->writer->writeAnnotation(parametersAnnotation({module->name, true, 0, std::move(text)}));
    }
  }
  catch (const std::exception& error)
  {
    const std::string message = "cannot write log " + path.string() + ": " + error.what();
    std::lock_guard lock(mutex_);
    status_ = {false, path.string(), 0, 0, 0, message};
    return message;
  }
  session->path = path.string();
  session->tap = controller.addTap(std::move(ids), 1, ringFrames_);
  if (!session->tap)
  {
    session->writer.reset();
    std::error_code ignored;
    std::filesystem::remove(path, ignored); // empty: nothing was recorded
    return "cannot log to " + path.string() + ": the motion thread already feeds " +
           std::to_string(MotionLoop::maxTaps) + " subscriptions and logs";
  }
  {
    std::lock_guard lock(mutex_);
    attachedTap_ = session->tap;
    session_ = std::move(session);
    closeRequested_ = false;
    failed_ = false;
    pendingEdits_.clear();
    status_ = {true, path.string(), 0, 0, 0, {}};
  }
  wake_.notify_all();
  return {};
}

void Logger::stop(Controller& controller)
{
  std::shared_ptr<Tap> tap;
  {
    std::lock_guard lock(mutex_);
    tap = std::move(attachedTap_);
  }
  if (!tap) return;
  controller.removeTap(tap);
  // Wait (at most 2 s: the motion thread answers within a frame) until the motion thread has let go of the
  // tap, so that every frame it put into the ring is written before the file closes.
  for (int i = 0; i < 400 && controller.tapAttached(tap.get()); ++i)
  {
    controller.service();
    if (controller.tapAttached(tap.get())) controller.waitForMotion(std::chrono::milliseconds(5));
  }
  std::unique_lock lock(mutex_);
  closeRequested_ = true;
  wake_.notify_all();
  wake_.wait(lock, [this] { return !session_; });
}

std::string Logger::releaseFailed(Controller& controller)
{
  std::shared_ptr<Tap> tap;
  std::string message;
  {
    std::lock_guard lock(mutex_);
    if (!failed_) return {};
    failed_ = false;
    tap = std::move(attachedTap_);
    message = "log " + status_.path + " failed after " + std::to_string(status_.framesWritten) +
              " frames: " + status_.lastError;
  }
  if (tap) controller.removeTap(tap);
  return message;
}

LogStatus Logger::status() const
{
  std::lock_guard lock(mutex_);
  return status_;
}

void Logger::noteParameters(const std::string& module, std::string toml)
{
  std::lock_guard lock(mutex_);
  if (!attachedTap_ || failed_) return;
  pendingEdits_.push_back({module, std::move(toml), attachedTap_->copied.load(std::memory_order_acquire)});
}

bool Logger::noteText(std::string text)
{
  std::lock_guard lock(mutex_);
  if (!attachedTap_ || failed_) return false;
  pendingEdits_.push_back({{}, std::move(text), attachedTap_->copied.load(std::memory_order_acquire)});
  return true;
}

void Logger::writeEdits(Session& session, std::uint32_t frame, bool all)
{
  std::size_t written = 0;
  for (const ParameterEdit& edit : session.edits)
  {
    if (!all && edit.fromRecord > session.recordsRead) break;
    session.writer->writeAnnotation(edit.module.empty()
                                        ? noteAnnotation({frame, edit.toml})
                                        : parametersAnnotation({edit.module, false, frame, edit.toml}));
    ++written;
  }
  session.edits.erase(session.edits.begin(), session.edits.begin() + static_cast<std::ptrdiff_t>(written));
}

void Logger::drain(Session& session, std::size_t& frames)
{
  const auto& registry = RepresentationRegistry::instance();
  while (TapRecord* record = session.tap->ring.beginRead())
  {
    if (!session.edits.empty()) writeEdits(session, record->frameNumber, false);
    builder_.begin(record->frameNumber);
    for (std::size_t i = 0; i < session.tap->ids.size(); ++i)
    {
      scratch_.clear();
      registry.info(session.tap->ids[i]).saveBinary(record->objects[i].get(), scratch_);
      builder_.addRecord(session.tap->ids[i], scratch_);
    }
    session.lastFrameNumber = record->frameNumber;
    session.tap->ring.commitRead();
    ++session.recordsRead;
    session.writer->writeFrame(builder_);
    ++frames;
  }
}

void Logger::finish(Session& session, std::size_t& frames)
{
  drain(session, frames);
  // Edits after the last frame: in force from the frame after it.
  writeEdits(session, session.lastFrameNumber + 1, true);
  // The log says itself how complete it is (LogTool info shows it).
  session.writer->writeAnnotation("motion frames dropped (logger fell behind): " +
                                  std::to_string(session.tap->dropped.load()));
  session.writer->close();
}

void Logger::threadMain()
{
  std::unique_lock lock(mutex_);
  while (!stopThread_)
  {
    wake_.wait_for(lock, std::chrono::milliseconds(2));
    if (!session_) continue;
    Session& session = *session_;
    const bool closing = closeRequested_ || stopThread_;
    std::move(pendingEdits_.begin(), pendingEdits_.end(), std::back_inserter(session.edits));
    pendingEdits_.clear();
    lock.unlock();
    std::size_t frames = 0;
    std::string error;
    try
    {
      if (closing)
        finish(session, frames);
      else
        drain(session, frames);
      if (!closing && frames) session.writer->flush();
    }
    catch (const std::exception& exception)
    {
      error = exception.what();
    }
    lock.lock();
    status_.framesWritten += frames;
    status_.framesDropped = session.tap->dropped.load();
    status_.bytesWritten = session.writer->bytesWritten();
    if (!error.empty()) status_.lastError = error;
    if (!error.empty() && !closing) failed_ = true; // its tap goes back on the controller's thread
    if (closing || !error.empty())
    {
      status_.active = false;
      session_.reset();
      wake_.notify_all();
    }
  }
  if (session_)
  {
    std::size_t frames = 0;
    std::move(pendingEdits_.begin(), pendingEdits_.end(), std::back_inserter(session_->edits));
    pendingEdits_.clear();
    finish(*session_, frames);
    session_.reset();
  }
}
} // namespace nao
