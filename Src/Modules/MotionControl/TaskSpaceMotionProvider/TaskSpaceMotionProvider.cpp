// TaskSpaceMotionProvider: the Stack of Tasks as a motion source (TaskSpaceMotionProvider.h, README.md of this
// folder): start-up and the frame; the levels are written in TaskSpaceMotionLevels.cpp.
#include "Modules/MotionControl/TaskSpaceMotionProvider/TaskSpaceMotionState.h"

#include <algorithm>
#include <cmath>

namespace nao
{
using namespace taskspace;

TaskSpaceMotionProvider::TaskSpaceMotionProvider(const ModuleContext& context)
    : Module(context),
      state_(std::make_unique<State>(loaded<RobotDescription>(), loaded<SelfCollisionShapes>(),
                                     loaded<ScenarioTargets>()))
{
}

TaskSpaceMotionProvider::~TaskSpaceMotionProvider() = default;

void TaskSpaceMotionProvider::update(MotionJointRequest& request, EnergySavingRequest& energySaving)
{
  energySaving = {};
  State& s = *state_;
  const TaskSpaceMotionParameters& p = params();
  if (!s.started)
  {
    // Start from where the joints are, so that starting never makes the robot jump.
    for (std::size_t j = 0; j < numOfJoints; ++j)
      s.q[static_cast<Eigen::Index>(j)] =
          std::isfinite(get<JointSensorData>().angles[j])
              ? std::clamp<double>(get<JointSensorData>().angles[j], s.limits[j].lower, s.limits[j].upper)
              : 0.5 * (s.limits[j].lower + s.limits[j].upper);
    s.start = s.q;
    s.updateKinematics();
    s.footPosition = taskstack::relativePosition(s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(),
                                                 s.leftSole, s.scratch, s.jacobian);
    s.footOrientation = taskstack::relativeOrientation(s.model, s.data, s.rightSole, s.leftSole, s.scratch,
                                                       s.rotationJacobian);
    s.startCom = taskstack::relativeCenterOfMass(s.model, s.data, s.leftSole, s.scratch, s.jacobian);
    s.startCom.z() = 0.0;
    s.started = true;
  }
  else
    s.updateKinematics();
  s.foot = taskstack::relativePosition(s.model, s.data, s.rightSole, Eigen::Vector3d::Zero(), s.leftSole,
                                       s.scratch, s.jacobian);
  s.time = s.frames++ * frameTime;
  s.applySchedule(s.time);

  // The targets first: they decide who supports the robot, which the levels above depend on.
  writeTargets(p);
  writeBalance(p);
  writeTop(p);
  writeStiffness(p);
  s.posture.clear();
  s.errorN = s.q - s.start;
  s.posture.addEquality(s.identity, s.errorN, p.postureGain);

  const auto solve = [&]
  {
    s.solver.clear(s.n);
    for (const LevelRows* level : {&s.joints, &s.top, &s.balance, &s.targets, &s.stiffnessRows, &s.posture})
      level->addTo(s.solver);
    return s.solver.solve() == HqpStatus::optimal && s.solver.solution().allFinite();
  };
  bool solved = solve();
  if (!solved && s.stiffnessRows.equalities() > 0)
  {
    // The stiffness level is a preference: where its rows leave the damped cascade's last QP at a degenerate
    // vertex (a false "infeasible"), the frame goes on without it.
    ++framesWithoutStiffness_;
    s.stiffnessRows.clear();
    solved = solve();
  }
  if (solved)
  {
    s.velocity = s.solver.solution();
    s.q += frameTime * s.velocity;
    for (std::size_t k = 0; k < levelCount; ++k)
      levelViolations_[k] = s.solver.slackNorms()[k];
  }
  else
  {
    ++failedFrames_; // hold: the request stays where it was
    s.velocity.setZero();
  }

  for (std::size_t j = 0; j < numOfJoints; ++j)
  {
    request.angles[j] = static_cast<float>(s.q[static_cast<Eigen::Index>(j)]);
    const bool hand = jointAt(j) == Joint::LHand || jointAt(j) == Joint::RHand;
    request.stiffnesses[j] = hand ? 0.f : p.stiffness;
  }
}

MAKE_MODULE(TaskSpaceMotionProvider);
} // namespace nao
