// FieldDescription on the debug channel: its doc survives Boost's binary archive, and a message from a robot built
// before FieldDescription had a doc (class version 0) still loads, with an empty doc.
#include "Framework/DebugMessages.h"
#include "Tools/BinaryIO/BoundedArchive.h"
#include <cmath>
#include <gtest/gtest.h>
#include <limits>

using namespace nao;

namespace
{
/// FieldDescription as it was at class version 0: no doc.
struct FieldDescriptionVersion0
{
  std::string path, type, unit;
  double min = 0, max = 0;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& path& type& unit& min& max;
  }
};

/// debug::Parameters as a version-0 robot sent it.
struct ParametersVersion0
{
  std::string module, toml;
  std::vector<FieldDescriptionVersion0> fields;

  template<class Archive>
  void serialize(Archive& ar, const unsigned)
  {
    ar& module& toml& fields;
  }
};

debug::Parameters documentedParameters()
{
  debug::Parameters parameters;
  parameters.module = "StandPoseProvider";
  parameters.toml = "transitionTime = 1000\n";
  parameters.fields.push_back({"transitionTime", "float", "ms", 0.0, 60000.0, "time to reach the pose"});
  parameters.fields.push_back({"enabled", "bool", "", std::numeric_limits<double>::quiet_NaN(),
                               std::numeric_limits<double>::quiet_NaN(), ""});
  return parameters;
}
} // namespace

TEST(FieldDescription, TheDocSurvivesTheBinaryArchive)
{
  const debug::Parameters sent = documentedParameters();
  std::vector<char> bytes;
  binaryio::serializeAppend(bytes, sent);
  const auto received = binaryio::deserialize<debug::Parameters>(bytes);
  ASSERT_EQ(received.fields.size(), 2u);
  EXPECT_EQ(received.fields[0].path, "transitionTime");
  EXPECT_EQ(received.fields[0].unit, "ms");
  EXPECT_EQ(received.fields[0].max, 60000.0);
  EXPECT_EQ(received.fields[0].doc, "time to reach the pose");
  EXPECT_EQ(received.fields[1].doc, "");
  EXPECT_TRUE(std::isnan(received.fields[1].min));
}

TEST(FieldDescription, AVersion0MessageStillLoadsWithoutDoc)
{
  ParametersVersion0 old;
  old.module = "StandPoseProvider";
  old.toml = "transitionTime = 1000\n";
  old.fields.push_back({"transitionTime", "float", "ms", 0.0, 60000.0});
  old.fields.push_back({"angles.LHand", "float", "deg", -180.0, 180.0});
  std::vector<char> bytes;
  binaryio::serializeAppend(bytes, old);
  const auto received =
      binaryio::deserialize<debug::Parameters>(bytes); // throws on leftover or missing bytes
  EXPECT_EQ(received.module, "StandPoseProvider");
  EXPECT_EQ(received.toml, "transitionTime = 1000\n");
  ASSERT_EQ(received.fields.size(), 2u);
  EXPECT_EQ(received.fields[1].path, "angles.LHand");
  EXPECT_EQ(received.fields[1].unit, "deg");
  EXPECT_EQ(received.fields[1].min, -180.0);
  EXPECT_EQ(received.fields[0].doc, "");
  EXPECT_EQ(received.fields[1].doc, "");
}
