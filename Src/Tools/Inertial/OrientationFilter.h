#pragma once
// The torso's orientation from a gyroscope and an accelerometer: an error-state Kalman filter on the orientation and
// the gyroscope's bias. The state is a unit quaternion q (body → world, world z up) and the bias b; the filter runs
// on the 6-vector error (δθ, δb) with q_true = q ⊗ Exp(δθ) (δθ in the body frame). The gyroscope drives the
// prediction; the accelerometer is a measurement of gravity, Rᵀ·(0, 0, g), whose noise grows with how far its norm
// is from g (the body accelerates, an impact) and that is left out when that is more than a gate; an up direction
// measured otherwise (a support sole's normal, SoleTilt.h) is a measurement of Rᵀ·(0, 0, 1). Yaw is
// unobservable: it is only integrated. Solà, "Quaternion kinematics for the error-state Kalman filter" (2017), §7,
// gives the equations. No allocation: fixed-size Eigen only.
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace nao::inertial
{
/// The noise the filter assumes, and its limits (the module's README says where each number comes from).
struct ImuNoise
{
  double gyroNoise = 0.005;        ///< rad/s, standard deviation of one gyroscope reading
  double gyroBiasDrift = 1e-4;     ///< rad/s/√s, random walk of the gyroscope's bias
  double accNoise = 0.1;           ///< m/s², standard deviation of the gravity measurement while still
  double accMotionNoise = 5.0;     ///< m/s² added per m/s² the accelerometer's norm is off g
  double accGate = 3.0;            ///< m/s²: a norm farther from g is no gravity measurement
  double gravity = 9.81;           ///< m/s²
  double initialTiltStdDev = 0.05; ///< rad, of roll and pitch after the start from the accelerometer
  double initialBiasStdDev = 0.02; ///< rad/s, of each bias component at the start
  double maxBias = 0.1;            ///< rad/s, the bias estimate is kept within ±this per axis
};

/// Roll (about x) and pitch (about y, forward positive) of a body → world rotation: atan2(R21, R22), asin(−R20).
Eigen::Vector2d rollPitch(const Eigen::Quaterniond& orientation);

/// The orientation with yaw 0 whose gravity is along the specific force `f` (body frame, +g in z when upright).
Eigen::Quaterniond tiltFromGravity(const Eigen::Vector3d& f);

class OrientationFilter
{
public:
  using Matrix6 = Eigen::Matrix<double, 6, 6>;

  /// Starts at the tilt the accelerometer gives (yaw 0), bias 0, with the noise's initial deviations.
  void reset(const Eigen::Vector3d& accelerometer, const ImuNoise& noise);
  bool initialised() const { return initialised_; }

  /// Integrates the gyroscope (rad/s, body frame) over dt s.
  void predict(const Eigen::Vector3d& gyro, double dt, const ImuNoise& noise);

  /// The accelerometer (m/s², specific force in the body frame) as a gravity measurement. False when its norm was
  /// more than the gate off g (nothing changed).
  bool correct(const Eigen::Vector3d& accelerometer, const ImuNoise& noise);

  /// A measurement of the world's up direction in the body frame (a unit vector, e.g. the normal of a sole flat on
  /// the floor turned into the body frame by the leg's kinematics), each axis with `deviation` (rad).
  void correctUp(const Eigen::Vector3d& up, double deviation, const ImuNoise& noise);
  /// The world's up direction in the body frame as the filter has it: Rᵀ·(0, 0, 1).
  Eigen::Vector3d up() const { return orientation_.conjugate() * Eigen::Vector3d::UnitZ(); }

  const Eigen::Quaterniond& orientation() const { return orientation_; }
  const Eigen::Vector3d& bias() const { return bias_; }
  const Matrix6& covariance() const { return covariance_; }
  Eigen::Vector2d angles() const { return rollPitch(orientation_); }
  /// rad, one standard deviation of roll and pitch (the error's covariance turned into the world frame).
  Eigen::Vector2d angleStdDevs() const;

private:
  /// The Kalman update for a measured direction against the expected one (both in the body frame, of the same
  /// length), each axis with `deviation`.
  void correctDirection(const Eigen::Vector3d& measured, const Eigen::Vector3d& expected, double deviation,
                        const ImuNoise& noise);

  Eigen::Quaterniond orientation_ = Eigen::Quaterniond::Identity();
  Eigen::Vector3d bias_ = Eigen::Vector3d::Zero();
  Matrix6 covariance_ = Matrix6::Identity();
  bool initialised_ = false;
};
} // namespace nao::inertial
