#pragma once
// Says on stderr, once per change, which sensor the robot distrusts and why, and when it trusts it again
// ("nao: 12.34 s: gyroscope suspect (disagrees)"): a tap copies SensorHealth out of the motion thread every frame, and
// the Debug thread compares each copy with the one before. Nothing when the scenario has no SensorHealth provider.
#include "Framework/Controller.h"
#include "Representations/Sensing/SensorHealth.h"
#include <cstdio>
#include <memory>

namespace nao
{
class SensorHealthReporter
{
public:
  static constexpr std::size_t ringFrames = 64; ///< 0.77 s of frames buffered for the Debug thread

  explicit SensorHealthReporter(Controller& controller, std::FILE* out = stderr);
  ~SensorHealthReporter();
  SensorHealthReporter(const SensorHealthReporter&) = delete;
  SensorHealthReporter& operator=(const SensorHealthReporter&) = delete;

  /// Prints a line for each sensor and joint whose state or fault changed in the frames copied since the last call.
  /// The Debug thread calls it.
  void poll();
  /// Lets go of the tap now (the destructor does otherwise).
  void detach();
  /// Lines printed since the start.
  std::size_t lines() const { return lines_; }

private:
  void report(double time, const char* name, const SensorCheck& now, const SensorCheck& before);

  Controller& controller_;
  std::FILE* out_;
  std::shared_ptr<Tap> tap_;
  SensorHealth last_; ///< every check valid: the start is reported only where it differs
  std::size_t lines_ = 0;
};
} // namespace nao
