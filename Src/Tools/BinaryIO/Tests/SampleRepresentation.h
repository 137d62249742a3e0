#pragma once
// A representation-like struct for the log tests: fixed scalars, a variable-length array and text, all
// derived from the frame number so that a reader can check every field independently of the writer.

#include <boost/serialization/string.hpp>
#include <boost/serialization/vector.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace nao::binaryio::test
{
struct JointSample
{
  std::uint32_t frameNumber = 0;
  double timestamp = 0.0;         ///< s
  std::vector<float> jointAngles; ///< rad
  std::string note;

  template<class Archive>
  void serialize(Archive& archive, unsigned int /*version*/)
  {
    archive& frameNumber& timestamp& jointAngles& note;
  }
  bool operator==(const JointSample&) const = default;
};

inline JointSample makeJointSample(std::uint32_t frameNumber)
{
  JointSample sample;
  sample.frameNumber = frameNumber;
  sample.timestamp = frameNumber * 0.012;
  sample.jointAngles.resize(1 + frameNumber % 25);
  for (std::size_t joint = 0; joint < sample.jointAngles.size(); ++joint)
    sample.jointAngles[joint] = static_cast<float>(frameNumber) * 0.001f + static_cast<float>(joint);
  sample.note = "frame " + std::to_string(frameNumber);
  return sample;
}
} // namespace nao::binaryio::test
