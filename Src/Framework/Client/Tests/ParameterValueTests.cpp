// A parameter value as typed for `DebugClient set`: plain values pass as typed, a unit after the number is
// converted to the file's unit when both measure the same thing and refused otherwise, and a time below one
// motion frame typed without a unit is warned of.
#include "Framework/Client/ParameterValue.h"
#include <gtest/gtest.h>

using nao::debug::parameterValue;
using nao::debug::shortTimeWarning;

TEST(ParameterValue, APlainValueIsSentAsTyped)
{
  const auto value = parameterValue("500", "ms");
  EXPECT_EQ(value.text, "500");
  EXPECT_EQ(value.number, 500.0);
  EXPECT_TRUE(value.note.empty());
  EXPECT_TRUE(value.error.empty());
  EXPECT_FALSE(value.unitWritten);
  // Not numbers: the robot validates them (a boolean, an array, a string).
  for (const char* typed : {"true", "[1, 2]", "\"regular\""})
  {
    EXPECT_EQ(parameterValue(typed, "").text, typed);
    EXPECT_TRUE(parameterValue(typed, "").error.empty()) << typed;
  }
}

TEST(ParameterValue, AUnitAfterTheNumberIsConvertedToTheFilesUnit)
{
  const auto seconds = parameterValue("0.5s", "ms");
  EXPECT_EQ(seconds.text, "500");
  EXPECT_EQ(seconds.note, "0.5 s = 500 ms");
  EXPECT_TRUE(seconds.unitWritten);
  EXPECT_EQ(parameterValue("500 ms", "s").text, "0.5");
  EXPECT_EQ(parameterValue("30deg", "rad").text, "0.523598775598");
  EXPECT_EQ(parameterValue("1rad", "deg").text, "57.2957795131");
  EXPECT_EQ(parameterValue("30°", "deg").text, "30");
  EXPECT_EQ(parameterValue("1.2A", "mA").text, "1200");
  EXPECT_EQ(parameterValue("-2cm", "mm").text, "-20");
  EXPECT_EQ(parameterValue("90deg/s", "rad/s").text, "1.57079632679");
  // The file's own unit: no conversion, no note.
  const auto same = parameterValue("500ms", "ms");
  EXPECT_EQ(same.text, "500");
  EXPECT_TRUE(same.note.empty());
  EXPECT_TRUE(same.unitWritten);
}

TEST(ParameterValue, AUnitOfAnotherQuantityOrAnUnknownUnitIsRefused)
{
  EXPECT_EQ(parameterValue("30deg", "ms").error,
            "'30deg' is an angle, but this value is a time in ms: not converted");
  EXPECT_EQ(parameterValue("0.5s", "").error, "'0.5s': this value has no unit; write the number alone");
  const auto unknown = parameterValue("0.5sec", "ms");
  EXPECT_NE(unknown.error.find("unknown unit 'sec' (units: s, ms, ns, rad, deg"), std::string::npos)
      << unknown.error;
  EXPECT_NE(parameterValue("20°C", "mA").error.find("a temperature in °C"), std::string::npos);
}

TEST(ParameterValue, ATimeBelowOneFrameTypedWithoutAUnitIsWarnedOf)
{
  constexpr double frame = 0.012;
  const std::string warning =
      shortTimeWarning("StandPoseProvider.transitionTime", parameterValue("0.5", "ms"), "ms", frame);
  EXPECT_EQ(warning,
            "StandPoseProvider.transitionTime = 0.5 ms is shorter than one motion frame (12 ms): it acts "
            "as a jump within one frame. A value in another unit takes the unit after the number, e.g. "
            "0.5s");
  EXPECT_NE(shortTimeWarning("t", parameterValue("0.005", "s"), "s", frame).find("(0.012 s)"),
            std::string::npos);
  EXPECT_EQ(shortTimeWarning("t", parameterValue("12", "ms"), "ms", frame), "") << "one frame is enough";
  EXPECT_EQ(shortTimeWarning("t", parameterValue("0", "ms"), "ms", frame), "") << "0: no time at all";
  EXPECT_EQ(shortTimeWarning("t", parameterValue("5ms", "ms"), "ms", frame), "") << "the unit was written";
  EXPECT_EQ(shortTimeWarning("t", parameterValue("0.5", "deg"), "deg", frame), "") << "not a time";
}
