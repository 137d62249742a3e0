#pragma once
// --sim's ground truth: what the simulator knows and no robot measures, sent on its control channel after `truth
// <hz>` (`Simulator serve --control`, Util/Simulator/App/README.md) as lines
//   truth: frame N torso x y z roll pitch yaw soles left right angles <25> windings <25>
// (N the robot's FrameInfo.frameNumber of the packet that carried that state; m, rad (roll and pitch as LoLA's
// angles, yaw about z), N of ground force on each sole, rad of each joint in LoLA order, °C of each winding). The GUI
// keeps them as the store's pseudo-representation "truth" (truth.torso.pitch, truth.angles.LKneePitch, ...), so that
// a plot shows a truth leaf beside the estimate, and their difference as "error" (estimateErrors): estimate − truth of
// each pair in estimatePairs.
#include "Util/DebugGui/SeriesStore.h"
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace nao::gui
{
inline constexpr const char* truthRepresentation = "truth";
inline constexpr const char* errorRepresentation = "error";

/// The fields of "truth", with their units (code units: m, rad, N, °C).
std::vector<FieldDescription> truthFields();
/// The sample of one truth line (the text after "truth: "); nothing when it is no complete truth line (the GUI
/// ignores it: a simulator of another version).
std::optional<Sample> truthSample(std::string_view line);

/// An estimate and the truth it estimates, as store leaves ("InertialData.angles[1]", "truth.torso.pitch"); `error`
/// is the error's leaf below "error".
struct EstimatePair
{
  std::string estimate, truth, error;
};
/// The pairs the GUI knows: the IMU's roll and pitch (InertialData, LoLA's InertialSensorData), each joint's measured
/// angle and its temperature estimate (JointThermalState) against the winding.
const std::vector<EstimatePair>& estimatePairs();
/// The fields of "error" (one per pair, the truth's unit).
std::vector<FieldDescription> errorFields();
/// estimate − truth of every pair whose estimate the store has, at `truth`'s frame and time (the latest estimate:
/// the debug channel's samples of the same frame arrive within a frame of the simulator's line); nothing when none.
std::optional<Sample> estimateErrors(const SeriesStore& store, const Sample& truth);
/// The truth leaf that `estimate` ("Repr.leaf") is paired with, or "" (the plot's "error against truth" action).
std::string errorLeafOf(const std::string& estimate);
} // namespace nao::gui
