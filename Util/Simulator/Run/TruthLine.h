#pragma once
// The simulator's ground truth as one text line for serve --control's `truth <hz>` (SimulationControl.h): what no
// robot measures, for a GUI to draw beside the robot's own estimate (Util/DebugGui/SimulationTruth.h parses it).
//   frame N torso x y z roll pitch yaw soles left right angles <25> windings <25>
// N: the robot's FrameInfo.frameNumber of the packet that carried this state; m (world frame, torso origin); rad (roll
// and pitch as LoLA's angles: roll = atan2(R21, R22), pitch = asin(−R20); yaw = atan2(R10, R00)); N of ground force
// on the left and right sole; rad of each joint in LoLA order; °C of each joint's winding. Numbers with 6 digits.
#include "Util/Simulator/Physics/SimulatedRobot.h"
#include <cstdint>
#include <string>

namespace nao
{
std::string truthLine(std::uint64_t frame, const sim::SimulatedRobot& robot);
} // namespace nao
