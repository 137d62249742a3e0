// B-Human's heat adjustment on versus off in the simulator, everything else equal, over a 10-minute stand;
// and a pick-up in the middle of a stand.
#include "Representations/Infrastructure/FrameInfo.h"
#include "Representations/MotionControl/EnergySaving.h"
#include "Util/LogTool/LogDecoder.h"
#include "Util/Simulator/Run/SimulationRun.h"
#include <cstdio>
#include <gtest/gtest.h>

using namespace nao;

namespace
{
SimulationOptions standOptions(const std::string& output)
{
  SimulationOptions options;
  options.configDirectory = NAO_CONFIG_DIR;
  options.scenario = "stand";
  options.minutes = 10.0;
  options.writeLog = false;
  options.outputDirectory = std::filesystem::temp_directory_path() / output;
  return options;
}

bool isLeg(std::size_t j)
{
  return isLegJoint(jointAt(j));
}
} // namespace

TEST(HeatAdjustment, TenMinuteStandOnVersusOff)
{
  const SimulationResult on = runSimulation(standOptions("nao-heat-on"));
  SimulationOptions offOptions = standOptions("nao-heat-off");
  offOptions.providerOverrides = {{"JointRequest", "off", {}}, {"EnergySaving", "off", {}}};
  const SimulationResult off = runSimulation(offOptions);
  std::printf("With heat adjustment:\n%s\nWithout:\n%s", summaryTable(on).c_str(), summaryTable(off).c_str());

  // With it the legs draw far less and nothing leaves status 0; the robot stands (the torso origin of the
  // stand posture is 315 mm up). B-Human's figures (every leg joint below 300 mA within 10 s, most below 50
  // mA) are not reached on this robot: the boards' own, finer angle and LoLA's calibration offsets leave
  // joints pushing while the request equals the reading (Util/Simulator/README.md, calibration table).
  double legCurrentOn = 0, legCurrentOff = 0;
  for (std::size_t j = 0; j < numOfJoints; ++j)
    if (isLeg(j))
    {
      legCurrentOn += on.joints[j].meanCurrent;
      legCurrentOff += off.joints[j].meanCurrent;
    }
  EXPECT_LT(legCurrentOn, 0.6 * legCurrentOff);
  for (std::size_t j = 0; j < numOfJoints; ++j)
    EXPECT_EQ(on.joints[j].maxStatus, 0) << jointNames[j];
  EXPECT_GT(on.minTorsoHeight, 0.28);
  EXPECT_LT(on.maxTorsoHeight, 0.34);

  // Without it: the knees (or ankles) stay above 1 A and heat up into status 1; the robot stands just the
  // same.
  double worstLegCurrent = 0;
  int hottestStatus = 0;
  for (Joint joint : {Joint::LKneePitch, Joint::RKneePitch, Joint::LAnklePitch, Joint::RAnklePitch})
  {
    worstLegCurrent = std::max(worstLegCurrent, off.joints[index(joint)].finalCurrent);
    hottestStatus = std::max(hottestStatus, off.joints[index(joint)].maxStatus);
  }
  EXPECT_GT(worstLegCurrent, 0.6);
  EXPECT_GE(hottestStatus, 1);
  EXPECT_GT(off.minTorsoHeight, 0.28);
}

TEST(HeatAdjustment, PickUpFadesTheOffsetsOutAndTheAdjustmentRestartsAfterPutDown)
{
  // lifted: standing, picked up at 10 s, put down at 40 s.
  SimulationOptions options;
  options.configDirectory = NAO_CONFIG_DIR;
  options.scenario = "lifted";
  options.minutes = 55.0 / 60.0;
  options.outputDirectory = std::filesystem::temp_directory_path() / "nao-heat-lifted";
  const SimulationResult result = runSimulation(options);

  struct Row
  {
    double time;
    EnergySaving saving;
  };
  std::vector<Row> rows;
  LogDecoder log(result.log);
  std::uint32_t frameNumber = 0;
  std::vector<DecodedRecord> records;
  while (log.next(frameNumber, records))
  {
    Row row{};
    bool haveTime = false, haveSaving = false;
    for (const auto& record : records)
      if (record.name == "FrameInfo" && record.object)
      {
        row.time = static_cast<const FrameInfo*>(record.object.get())->time;
        haveTime = true;
      }
      else if (record.name == "EnergySaving" && record.object)
      {
        row.saving = *static_cast<const EnergySaving*>(record.object.get());
        haveSaving = true;
      }
    if (haveTime && haveSaving) rows.push_back(row);
  }
  ASSERT_GT(rows.size(), 4000u);
  auto at = [&](double time) -> const EnergySaving&
  {
    for (const Row& row : rows)
      if (row.time >= time) return row.saving;
    return rows.back().saving;
  };
  auto largestOffset = [](const EnergySaving& saving)
  {
    float largest = 0;
    for (float offset : saving.offsets)
      largest = std::max(largest, std::abs(offset));
    return largest;
  };

  const EnergySaving& before = at(9.9);
  EXPECT_EQ(before.state, EnergySavingState::working);
  const float offsetBefore = largestOffset(before);
  ASSERT_GT(offsetBefore, 0.0005f) << "standing: the adjustment moved some request";

  // The feet leave the ground within the lift (0.5 s); from then on the offsets fade linearly to 0 over 3 s.
  double fadeStart = -1;
  for (const Row& row : rows)
    if (row.time > 10.0 && row.saving.state == EnergySavingState::resetState)
    {
      fadeStart = row.time;
      break;
    }
  ASSERT_GT(fadeStart, 10.0) << "picking the robot up starts the reset";
  EXPECT_LT(fadeStart, 11.0);
  EXPECT_EQ(at(fadeStart).lastResetReason, EnergySavingResetReason::contactChanged);
  EXPECT_NEAR(largestOffset(at(fadeStart + 1.5)), offsetBefore / 2, offsetBefore * 0.15)
      << "halfway through the fade";
  EXPECT_GT(largestOffset(at(fadeStart + 2.5)), 0.f) << "still fading: not a jump";
  EXPECT_EQ(largestOffset(at(fadeStart + 3.1)), 0.f) << "faded out after 3 s";
  EXPECT_NE(at(30.0).state, EnergySavingState::working) << "no adjustment while lifted";

  // Put down at 40 s (lowered for 0.5 s): the adjustment starts again.
  bool restarted = false;
  for (const Row& row : rows)
    restarted |= row.time > 40.0 && row.saving.state == EnergySavingState::working;
  EXPECT_TRUE(restarted);
}
