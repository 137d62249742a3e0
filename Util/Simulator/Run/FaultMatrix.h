#pragma once
// The fault matrix: every sensor fault of Config/Sim/faults.toml against the robot code. Per fault and
// robot (seed): the stand, stepping and sit scenarios with the fault from its onset on, a push that fells the stand
// and a deliberate chest-button press, each after the onset; and the same five runs without a fault as the baseline.
// Every run is a `Simulator run` of its own (the robot code in that process, its log kept until it is read), `jobs`
// at a time, in <output>/<fault or baseline>/<run>/robot-<seed>/.
//
// The judge (Util/Simulator/README.md, "Sensor faults"): a sensor fault changes no physics, so in the runs without
// events a robot whose baseline stands has nothing to be protected from: every protective action after the onset is
// false — a protective fall (FallDownState enters falling, or FallProtection.protectedFalls grows), a sit-down
// (SitDown leaves passThrough), a lowered limit (smart stiffness takes more stiffness off a joint than on the same
// robot without the fault, by more than stiffnessMargin, averaged from 1 s after the onset to the end), "lifted"
// (FallDownState lifted) — and so is a fall (the simulator's truth: the upper body touches the floor). And real
// events must still be acted on: the push's fall detected (entry into falling) before its impact, the press sitting
// the robot down, but where the fault is of the very reading the event is made of (the press under a chest-button
// fault).
#include "Representations/Infrastructure/Joints.h"
#include "Representations/MotionControl/SitDown.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace nao
{
/// The runs of one fault (or the baseline) and robot.
NAO_ENUM(FaultRun, std::uint8_t,
         stand,    ///< Config/Scenarios/stand.toml
         stepping, ///< stepping.toml
         sit,      ///< sit.toml
         push,     ///< the stand, pushed forward as fallfront.toml pushes (45 N for 0.1 s) after the onset
         press,    ///< the stand, its chest button pressed for 0.2 s after the onset
);
inline constexpr std::size_t plainRuns = 3; ///< stand, stepping, sit: the runs without events

struct FaultMatrixOptions
{
  std::filesystem::path simulator; ///< the Simulator executable
  std::filesystem::path config;    ///< Config/
  std::filesystem::path output;    ///< config/ (the scenarios as run) and <fault>/<run>/robot-<seed>/ go here
  std::vector<std::string> faults; ///< names of Sim/faults.toml
  int robots = 4;
  std::uint64_t seed = 1;        ///< robot i: seed + i
  int jobs = 0;                  ///< processes at a time; 0: one per core
  double onset = 10.0;           ///< s: the fault begins (the stand is held from 1.5 s, the sit from 5.5 s)
  double plainSeconds = 25.0;    ///< s a run without events lasts: judged from the onset to its end
  double eventDelay = 2.0;       ///< s after the onset the push or the press comes
  double eventSeconds = 4.0;     ///< s the push and press runs go on after it (a fall lands within 1 s)
  double stiffnessMargin = 0.05; ///< of the maximum torque: see FaultMatrixResult::stiffnessMargin
  bool keepLogs = false;         ///< keep every run's log (about 1 MB each); else each is removed once read
  std::function<bool()> stopRequested;
};

/// What one run's log and the simulator's truth say, from the onset on (times in s of the run, −1: never).
struct RunFindings
{
  std::uint64_t seed = 0;
  double fell = -1;           ///< the upper body's first floor contact after the posture is held (truth)
  double protectiveFall = -1; ///< FallDownState entered falling, or FallProtection.protectedFalls grew
  double sitDown = -1;        ///< SitDown left passThrough
  SitDownReason sitDownReason = SitDownReason::none;
  double lifted = -1; ///< FallDownState lifted
  /// Per joint, the stiffness smart stiffness took off its input (CollisionFreeJointRequest − StiffnessJointRequest),
  /// mean from 1 s after the onset to the end: its cut alone, so that a sit-down or a protective fall before it,
  /// judged on their own, does not count again.
  std::array<double, numOfJoints> stiffnessTaken{};
  std::array<double, numOfJoints> stiffness{}; ///< StiffnessJointRequest's mean over the same frames
  double event = -1;                           ///< the push or the press
  double impact = -1;          ///< the upper body's first floor contact from the push on (truth)
  double detection = -1;       ///< the first entry into falling from the push on, before the impact
  double sittingDown = -1;     ///< the first entry into sittingDown by the chest button from the press on
  bool sittingAtEvent = false; ///< SitDown was not in passThrough when the press came
  /// Frames the robot's logger dropped (it falls behind on a loaded machine and never blocks the motion thread): a
  /// state that lasted only those frames is not seen.
  std::uint64_t droppedFrames = 0;
};

/// Reads one run's folder (summary.csv, the CSV of its truth, the robot's log) from `onset` on; `event`: the push's
/// or the press's time (−1: none).
RunFindings readRunFindings(const std::filesystem::path& folder, double onset, double event);

/// One robot under one fault in one run without events, judged against its baseline run.
struct PlainVerdict
{
  std::uint64_t seed = 0;
  bool judged = true; ///< false: the baseline itself fell (nothing to compare with)
  bool fell = false;  ///< fell where its baseline stood
  bool protectiveFall = false, sitDown = false, loweredLimit = false, lifted = false;
  std::vector<std::string>
      details; ///< "protective fall 0.05 s after the onset", "lowered limit LKneePitch ..."
  bool acted() const { return fell || protectiveFall || sitDown || loweredLimit || lifted; }
};

NAO_ENUM(EventOutcome, std::uint8_t,
         worked,         ///< detected before the impact / sat the robot down
         missed,         ///< the fall came undetected / the press did nothing
         noFall,         ///< the push did not fell the robot (its baseline fell)
         fellBefore,     ///< the robot lay before the event came
         alreadySitting, ///< the press came while the robot sat or sat down
         baselineFailed, ///< the event did not work on the same robot without the fault: not judged
);

struct EventVerdict
{
  std::uint64_t seed = 0;
  EventOutcome outcome = EventOutcome::missed;
  double lead = -1; ///< s: push: impact − detection; press: sit-down − press
};

/// One fault (empty: the baseline) over all robots.
struct FaultRow
{
  std::string fault;
  std::array<std::vector<PlainVerdict>, plainRuns> plain; ///< per run without events (stand, stepping, sit)
  std::vector<EventVerdict> push, press;
  std::uint64_t droppedFrames = 0;              ///< by the robots' loggers, in all of this fault's runs
  bool pushExempt = false, pressExempt = false; ///< the fault is of the reading the event is made of
};

struct FaultMatrixResult
{
  std::vector<FaultRow> rows; ///< the baseline first, then the faults in their order
  int robots = 0;
  double onset = 0, plainSeconds = 0, eventDelay = 0, eventSeconds = 0;
  /// Of the maximum torque, on a joint's mean cut. A run is deterministic (lock-step, every noise seeded): without the
  /// fault the same robot repeats frame for frame, so any difference is the fault's. Smart stiffness gives a joint
  /// 1.5 × its static torque + a floor of 0.1 for what the static model leaves out; half that floor taken on top of
  /// what the same robot gets without the fault leaves the joint half the reserve the module keeps for itself.
  double stiffnessMargin = 0;
};

/// Runs every fault and the baseline; progress gets the fraction done.
FaultMatrixResult runFaultMatrix(const FaultMatrixOptions& options,
                                 const std::function<void(double)>& progress);

/// Judges one fault's findings against the baseline's (same run and seed, in the same order).
FaultRow judgeFault(const std::string& fault, bool pushExempt, bool pressExempt,
                    const std::array<std::vector<RunFindings>, 5>& withFault,
                    const std::array<std::vector<RunFindings>, 5>& baseline, double onset,
                    double stiffnessMargin);

/// Markdown: headed by `command`, the rules, the table (fault × run: robots with each protective action; the push's
/// fall detected and its lead; the press), then every protective action.
std::string faultMatrixTable(const FaultMatrixResult& matrix, const std::string& command);

/// What the short form asserts, cell by cell: "gyroStuck5 × stand: protective fall on 2 of 2 robots", ... (empty:
/// every cell passes).
std::vector<std::string> faultMatrixFailures(const FaultMatrixResult& matrix);
} // namespace nao
