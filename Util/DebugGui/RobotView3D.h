#pragma once
// The dockable 3D view: MuJoCo's renderer draws RobotScene into its offscreen framebuffer in an OpenGL context of
// this view's own (QOpenGLContext on a QOffscreenSurface); the pixels are read back into a QImage that the widget
// paints with QPainter.
//
// Why not a QOpenGLWidget: MuJoCo binds its own framebuffers and leaves GL state behind, while a QOpenGLWidget
// renders into an FBO of Qt's that MuJoCo's window buffer (framebuffer 0) cannot target, and shares its context
// with Qt's compositing. A private context keeps the two apart, and the frame is an ordinary QImage that
// QWidget::grab(), the GUI's --screenshot and the tests see without any GL read-back path of Qt's. The copy
// costs one glReadPixels of the view's size per drawn frame (at most 30 a second, only when the pose changed).
//
// The pose: JointSensorData.angles, InertialData.angles (else InertialSensorData.angles), LimbStiffness,
// JointThermalState and SensorHealth from the SeriesStore (the debug
// channel's latest samples, or a log's frame at the timeline). Without OpenGL (Qt's offscreen platform, no
// display) the view shows why and the rest of the GUI works as before.
#include "Util/DebugGui/PoseFromStore.h"
#include "Util/DebugGui/RobotScene.h"

#include <QColor>
#include <QImage>
#include <QWidget>
#include <array>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <utility>
#include <vector>

class QCheckBox;
class QLabel;
class QOffscreenSurface;
class QOpenGLContext;
class QTimer;

namespace nao::gui
{
class RobotLink;
class SeriesStore;

/// The horizontal world direction (unit x, y) of a mouse drag of (dx, dy) pixels (Qt's y down) in a view whose
/// camera looks from `azimuthDegrees` (MuJoCo's free camera: it looks along (cos a, sin a) on the ground): right on
/// the screen is right of the camera, up on the screen is away from it. Zero for a drag of no length.
std::array<double, 2> dragDirection(double azimuthDegrees, double dx, double dy);

class RobotView3D : public QWidget
{
public:
  RobotView3D(const SeriesStore& store, std::filesystem::path configDir, std::string robot,
              QWidget* parent = nullptr);
  ~RobotView3D() override;
  /// Room for a standing robot and its overlays: the dock area gives the view this much before the tree takes the rest.
  QSize sizeHint() const override { return {400, 400}; }

  /// Subscribes what the view draws from, those the robot provides (representation -> provider, as the list
  /// reply names them); called once per new connection.
  void subscribe(RobotLink& link, const std::map<std::string, std::string>& providers);
  /// The representations the source has (a log's): an overlay whose representation is missing is disabled and
  /// switched off, its tooltip `whyNot` (LimbStiffness), `whyNoTemperature` (JointThermalState) or `whyNoHealth`
  /// (SensorHealth; empty: a reason that fits any source). The sensor health overlay, on by default, is switched on
  /// again when its representation comes back.
  void setAvailable(const std::set<std::string>& representations, const QString& whyNot,
                    const QString& whyNoTemperature = {}, const QString& whyNoHealth = {});
  /// The overlay's check box (enabled, tooltip), for tests.
  QCheckBox* overlayBox(Overlay overlay) const { return boxes_[static_cast<std::size_t>(overlay)]; }

  /// Takes the pose from the store and renders it now (the view's timer does this when the store changed and
  /// the view is visible). False, with error(), when the model or OpenGL is not available.
  bool refresh();
  /// Renders an explicit pose (what refresh() does after reading the store).
  bool render(const RobotPose& pose);

  void setOverlay(Overlay overlay, bool on);
  bool overlay(Overlay overlay) const { return overlays_[static_cast<std::size_t>(overlay)]; }
  /// Camera: degrees of azimuth and elevation to turn, a distance factor (< 1 zooms in). The mouse does the same.
  void orbit(double azimuthDegrees, double elevationDegrees);
  void zoom(double factor);
  double azimuth() const { return azimuth_; } ///< degrees, the camera's (kept without OpenGL too)
  /// Ctrl-drag: `push` gets the drag's world direction (dragDirection) when the button is released after at least
  /// minimumDrag pixels; --sim pushes the simulated robot that way (MainWindow). No handler: Ctrl-drag orbits.
  void setDragPush(std::function<void(double x, double y)> push) { dragPush_ = std::move(push); }
  void dragPush(double dx, double dy);             ///< what a Ctrl-drag of (dx, dy) pixels does, for tests
  inline static constexpr double minimumDrag = 10; ///< px

  const QImage& image() const { return image_; }
  const QString& error() const { return error_; }
  /// FallDownState's label drawn over the image (fallStateLabel(); empty: none).
  const QString& fallLabel() const { return fallLabel_; }
  /// The simulator's truth under it (truthLabel(); empty: no truth), light blue: the true robot is the solid one.
  const QString& truthLabel() const { return truthLabel_; }
  /// The distrusted sensors drawn under it while the sensor health overlay is on (distrustedSensorLines()).
  const std::vector<std::pair<QString, QColor>>& healthLines() const { return healthLines_; }
  RobotScene* scene() { return scene_.get(); }
  std::uint64_t framesDrawn() const { return framesDrawn_; }

private:
  class Canvas;
  bool initialise();
  void releaseGl();

  const SeriesStore& store_;
  std::filesystem::path configDir_;
  std::string robot_;
  std::unique_ptr<RobotScene> scene_;
  std::array<bool, numOfOverlays> overlays_{false, true, true, true, false, false, false, true};
  std::array<QCheckBox*, numOfOverlays> boxes_{};
  Canvas* canvas_;
  QTimer* timer_;
  QImage image_;
  QString error_;
  QString fallLabel_, truthLabel_;
  std::vector<std::pair<QString, QColor>> healthLines_;
  bool initialised_ = false, dirty_ = true;
  double azimuth_ = 210; ///< degrees: from the front left, x (the robot's forward) points at the viewer
  std::function<void(double, double)> dragPush_;
  std::uint64_t storeVersion_ = ~std::uint64_t{0}, framesDrawn_ = 0;
  // OpenGL and MuJoCo's rendering state (opaque here: the header stays free of GL).
  struct Gl;
  std::unique_ptr<Gl> gl_;
};
} // namespace nao::gui
