#include "Util/DebugGui/RobotView3D.h"

#include "Util/DebugGui/HealthDisplay.h"
#include "Util/DebugGui/RobotLink.h"
#include "Util/DebugGui/SeriesStore.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QPainter>
#include <QTimer>
#include <QVBoxLayout>
#include <QWheelEvent>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace nao::gui
{
namespace
{
/// The model has no sky: MuJoCo leaves black above the floor's far edge, a black band over the scene. Each column's
/// black rows above its first drawn pixel take that pixel's colour (the floor's, near its edge).
void fillSky(QImage& image)
{
  for (int x = 0; x < image.width(); ++x)
  {
    int y = 0;
    while (y < image.height() && image.pixelColor(x, y) == Qt::black)
      ++y;
    if (y == 0 || y == image.height()) continue;
    const QColor floor = image.pixelColor(x, y);
    for (int above = 0; above < y; ++above)
      image.setPixelColor(x, above, floor);
  }
}
} // namespace

namespace
{
/// MuJoCo reports a failure of its renderer (no OpenGL 1.5, no framebuffer objects) through mju_error, which by
/// default exits the process; while the context is made, it throws instead.
[[noreturn]] void throwMujocoError(const char* message)
{
  throw std::runtime_error(message);
}
} // namespace

struct RobotView3D::Gl
{
  QOffscreenSurface surface;
  QOpenGLContext context;
  mjvScene scene;
  mjvCamera camera;
  mjrContext renderer;
  bool sceneMade = false, rendererMade = false;
  std::vector<unsigned char> pixels;
};

/// Paints the last frame and turns the mouse into camera moves: drag to orbit, wheel to zoom.
class RobotView3D::Canvas : public QWidget
{
public:
  explicit Canvas(RobotView3D& view) : view_(view)
  {
    setObjectName("canvas");
    setMinimumSize(200, 200);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  }

protected:
  void paintEvent(QPaintEvent*) override
  {
    QPainter painter(this);
    painter.fillRect(rect(), Qt::black);
    if (!view_.image_.isNull()) painter.drawImage(rect(), view_.image_);
    // The top left corner: FallDownState, then each distrusted sensor in its colour, on one dark box.
    std::vector<std::pair<QString, QColor>> lines;
    if (!view_.fallLabel_.isEmpty()) lines.emplace_back(view_.fallLabel_, Qt::white);
    if (!view_.truthLabel_.isEmpty()) lines.emplace_back(view_.truthLabel_, QColor(150, 200, 255));
    lines.insert(lines.end(), view_.healthLines_.begin(), view_.healthLines_.end());
    if (!lines.empty() && view_.error_.isEmpty())
    {
      const int height = painter.fontMetrics().height();
      int width = 0;
      for (const auto& [text, colour] : lines)
        width = std::max(width, painter.fontMetrics().horizontalAdvance(text));
      painter.fillRect(QRect(8, 8, width + 8, height * static_cast<int>(lines.size()) + 4),
                       QColor(0, 0, 0, 160));
      for (std::size_t i = 0; i < lines.size(); ++i)
      {
        painter.setPen(lines[i].second);
        painter.drawText(QRect(12, 10 + height * static_cast<int>(i), width, height),
                         Qt::AlignLeft | Qt::AlignVCenter, lines[i].first);
      }
    }
    if (!view_.error_.isEmpty())
    {
      painter.setPen(Qt::white);
      painter.drawText(rect().adjusted(8, 8, -8, -8), Qt::AlignCenter | Qt::TextWordWrap,
                       "3D view unavailable: " + view_.error_);
    }
  }
  void resizeEvent(QResizeEvent*) override { view_.dirty_ = true; }
  void mousePressEvent(QMouseEvent* event) override
  {
    last_ = pressed_ = event->position();
    pushing_ = view_.dragPush_ && (event->modifiers() & Qt::ControlModifier);
  }
  void mouseMoveEvent(QMouseEvent* event) override
  {
    const QPointF delta = event->position() - last_;
    last_ = event->position();
    if (!pushing_) view_.orbit(-0.4 * delta.x(), -0.4 * delta.y());
  }
  void mouseReleaseEvent(QMouseEvent* event) override
  {
    const QPointF drag = event->position() - pressed_;
    if (std::exchange(pushing_, false)) view_.dragPush(drag.x(), drag.y());
  }
  void wheelEvent(QWheelEvent* event) override { view_.zoom(std::pow(0.999, event->angleDelta().y())); }

private:
  RobotView3D& view_;
  QPointF last_, pressed_;
  bool pushing_ = false; ///< a Ctrl-drag: a push on release, no orbit
};

RobotView3D::RobotView3D(const SeriesStore& store, std::filesystem::path configDir, std::string robot,
                         QWidget* parent)
    : QWidget(parent), store_(store), configDir_(std::move(configDir)), robot_(std::move(robot)),
      canvas_(new Canvas(*this)), timer_(new QTimer(this))
{
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // Three overlays a row: the view stays narrow enough to leave the plot half the window.
  auto* rows = new QGridLayout;
  for (std::size_t i = 0; i < numOfOverlays; ++i)
  {
    boxes_[i] = new QCheckBox(overlayNames[i]);
    boxes_[i]->setChecked(overlays_[i]);
    connect(boxes_[i], &QCheckBox::toggled, [this, i](bool on) { setOverlay(static_cast<Overlay>(i), on); });
    rows->addWidget(boxes_[i], static_cast<int>(i / 3), static_cast<int>(i % 3));
  }
  rows->setColumnStretch(3, 1);
  layout->addLayout(rows);
  layout->addWidget(canvas_, 1);
  // At most 30 frames a second (15 with a software renderer), and only when the store or the camera changed and the
  // view can be seen.
  connect(timer_, &QTimer::timeout,
          [this]
          {
            if (!isVisible() || !error_.isEmpty() || (!dirty_ && store_.version() == storeVersion_)) return;
            refresh();
          });
  timer_->start(33);
}

RobotView3D::~RobotView3D()
{
  releaseGl();
}

void RobotView3D::releaseGl()
{
  if (!gl_) return;
  if (gl_->context.isValid()) gl_->context.makeCurrent(&gl_->surface);
  if (gl_->rendererMade) mjr_freeContext(&gl_->renderer);
  if (gl_->sceneMade) mjv_freeScene(&gl_->scene);
  gl_->context.doneCurrent();
  gl_.reset();
}

void RobotView3D::subscribe(RobotLink& link, const std::map<std::string, std::string>& providers)
{
  std::set<std::string> available;
  const auto provided = [&](const char* representation)
  {
    const auto provider = providers.find(representation);
    return provider != providers.end() && !provider->second.empty();
  };
  // The torso's tilt: the filtered one where the robot runs InertialDataFilter, else LoLA's (one of them: a client's
  // subscriptions are bounded, DebugServer::maxSubscriptionsPerClient).
  const char* tilt = provided("InertialData") ? "InertialData" : "InertialSensorData";
  for (const char* representation :
       {"JointSensorData", tilt, "FallDownState", "LimbStiffness", "JointThermalState"})
    if (provided(representation))
    {
      link.retain(representation);
      available.insert(representation);
    }
  if (provided("SensorHealth"))
  {
    link.retain("SensorHealth", sensorHealthRateHz);
    available.insert("SensorHealth");
  }
  setAvailable(
      available,
      "the robot's module graph has no LimbStiffness (its scenario runs no "
      "LimbStiffnessProvider: Config/Scenarios/)",
      "the robot's module graph has no JointThermalState (JointThermalStateProvider is on by default; its "
      "scenario's [Motion] sets JointThermalState = \"none\": Config/Scenarios/)",
      "the robot's module graph has no SensorHealth (SensorHealthProvider is in the default graph; its "
      "scenario's [Motion] leaves it out: Config/Scenarios/)");
}

void RobotView3D::setAvailable(const std::set<std::string>& representations, const QString& whyNot,
                               const QString& whyNoTemperature, const QString& whyNoHealth)
{
  // The stiffness ellipsoids are LimbStiffness's, the temperature and the time left JointThermalState's; the other
  // overlays come from the robot description and the pose.
  const QString whyNoThermal = whyNoTemperature.isEmpty()
                                   ? QString("this source has no JointThermalState (a log holds it when its "
                                             "scenario's [Log] representations name it)")
                                   : whyNoTemperature;
  const QString whyNoSensorHealth =
      whyNoHealth.isEmpty()
          ? QString("this source has no SensorHealth (a log holds it when its scenario's [Log] "
                    "representations name it)")
          : whyNoHealth;
  for (const auto& [overlay, representation, why] :
       {std::tuple{Overlay::stiffness, "LimbStiffness", whyNot},
        std::tuple{Overlay::temperature, "JointThermalState", whyNoThermal},
        std::tuple{Overlay::timeLeft, "JointThermalState", whyNoThermal},
        std::tuple{Overlay::sensorHealth, "SensorHealth", whyNoSensorHealth}})
  {
    QCheckBox* box = boxes_[static_cast<std::size_t>(overlay)];
    const bool available = representations.contains(representation);
    // A distrusted sensor should be seen without asking: the overlay is on again when a source has SensorHealth.
    if (overlay == Overlay::sensorHealth && available && !box->isEnabled()) setOverlay(overlay, true);
    box->setEnabled(available);
    box->setToolTip(available ? QString() : why);
    if (!available) setOverlay(overlay, false);
  }
}

bool RobotView3D::initialise()
{
  if (initialised_) return error_.isEmpty();
  initialised_ = true;
  try
  {
    scene_ = std::make_unique<RobotScene>(configDir_, robot_);
  }
  catch (const std::exception& error)
  {
    error_ = QString("the robot model: ") + error.what();
    return false;
  }
  gl_ = std::make_unique<Gl>();
  QSurfaceFormat format;
  format.setRenderableType(QSurfaceFormat::OpenGL);
  format.setProfile(
      QSurfaceFormat::CompatibilityProfile); // MuJoCo 2.2 draws with the fixed-function pipeline
  gl_->surface.setFormat(format);
  gl_->surface.create();
  gl_->context.setFormat(format);
  if (!gl_->surface.isValid() || !gl_->context.create() || !gl_->context.makeCurrent(&gl_->surface))
  {
    error_ = "no OpenGL context (platform '" + QGuiApplication::platformName() +
             "'; the 3D view needs a display with OpenGL, e.g. Xvfb with Mesa)";
    gl_.reset();
    return false;
  }
  // Mesa's software renderer (Xvfb, a machine without a GPU) takes ~11 ms for a 640 x 500 frame here, and four
  // times that with multisampling: there, no anti-aliasing and at most 15 frames a second.
  const QString renderer =
      QString::fromLatin1(reinterpret_cast<const char*>(gl_->context.functions()->glGetString(GL_RENDERER)));
  const bool software = renderer.contains("llvmpipe") || renderer.contains("softpipe") ||
                        renderer.contains("swrast", Qt::CaseInsensitive);
  scene_->setOffscreenSamples(software ? 0 : 4);
  timer_->setInterval(software ? 66 : 33);
  mjv_defaultScene(&gl_->scene);
  mjv_makeScene(&scene_->model(), &gl_->scene, 2000);
  gl_->sceneMade = true;
  mjv_defaultCamera(&gl_->camera);
  gl_->camera.type = mjCAMERA_FREE;
  gl_->camera.azimuth = azimuth_;
  gl_->camera.elevation = -20;
  gl_->camera.distance = 1.2;
  mjr_defaultContext(&gl_->renderer);
  void (*previous)(const char*) = mju_user_error;
  mju_user_error = throwMujocoError;
  try
  {
    mjr_makeContext(&scene_->model(), &gl_->renderer, mjFONTSCALE_100);
    gl_->rendererMade = true;
    mju_user_error = previous;
  }
  catch (const std::exception& error)
  {
    mju_user_error = previous;
    error_ = QString("MuJoCo's renderer: ") + error.what();
    releaseGl();
    return false;
  }
  mjr_setBuffer(mjFB_OFFSCREEN, &gl_->renderer);
  if (gl_->renderer.currentBuffer != mjFB_OFFSCREEN)
  {
    error_ = "MuJoCo's renderer has no offscreen framebuffer";
    releaseGl();
    return false;
  }
  gl_->context.doneCurrent();
  return true;
}

bool RobotView3D::refresh()
{
  storeVersion_ = store_.version();
  fallLabel_ = QString::fromStdString(fallStateLabel(store_));
  truthLabel_ = QString::fromStdString(gui::truthLabel(store_));
  healthLines_ = overlay(Overlay::sensorHealth) ? distrustedSensorLines(store_)
                                                : std::vector<std::pair<QString, QColor>>{};
  return render(poseFromStore(store_));
}

bool RobotView3D::render(const RobotPose& pose)
{
  dirty_ = false;
  if (!initialise())
  {
    canvas_->update();
    return false;
  }
  scene_->setPose(pose);
  if (!gl_->context.makeCurrent(&gl_->surface))
  {
    error_ = "the OpenGL context was lost";
    canvas_->update();
    return false;
  }
  const mjrRect viewport{0, 0, std::clamp(canvas_->width(), 64, gl_->renderer.offWidth),
                         std::clamp(canvas_->height(), 64, gl_->renderer.offHeight)};
  scene_->draw(gl_->scene, gl_->camera, overlays_);
  mjr_setBuffer(mjFB_OFFSCREEN, &gl_->renderer);
  mjr_render(viewport, &gl_->scene, &gl_->renderer);
  gl_->pixels.resize(static_cast<std::size_t>(3 * viewport.width * viewport.height));
  mjr_readPixels(gl_->pixels.data(), nullptr, viewport, &gl_->renderer);
  gl_->context.doneCurrent();
  // OpenGL's rows run bottom-up.
  image_ = QImage(viewport.width, viewport.height, QImage::Format_RGB888);
  for (int y = 0; y < viewport.height; ++y)
    std::copy_n(gl_->pixels.data() +
                    static_cast<std::ptrdiff_t>(3 * viewport.width * (viewport.height - 1 - y)),
                3 * viewport.width, image_.scanLine(y));
  fillSky(image_);
  ++framesDrawn_;
  canvas_->update();
  return true;
}

void RobotView3D::setOverlay(Overlay overlay, bool on)
{
  const std::size_t i = static_cast<std::size_t>(overlay);
  overlays_[i] = on;
  if (boxes_[i]->isChecked() != on) boxes_[i]->setChecked(on);
  dirty_ = true;
}

std::array<double, 2> dragDirection(double azimuthDegrees, double dx, double dy)
{
  const double azimuth = azimuthDegrees * std::numbers::pi / 180;
  const double forward[2] = {std::cos(azimuth), std::sin(azimuth)}; // away from the camera, on the ground
  const double right[2] = {forward[1], -forward[0]};                // forward × up
  const double x = dx * right[0] - dy * forward[0], y = dx * right[1] - dy * forward[1];
  const double length = std::hypot(x, y);
  return length > 0 ? std::array<double, 2>{x / length, y / length} : std::array<double, 2>{0, 0};
}

void RobotView3D::dragPush(double dx, double dy)
{
  if (!dragPush_ || std::hypot(dx, dy) < minimumDrag) return;
  const auto [x, y] = dragDirection(azimuth_, dx, dy);
  dragPush_(x, y);
}

void RobotView3D::orbit(double azimuthDegrees, double elevationDegrees)
{
  azimuth_ += azimuthDegrees;
  if (!gl_) return;
  gl_->camera.azimuth = azimuth_;
  gl_->camera.elevation = std::clamp(gl_->camera.elevation + elevationDegrees, -89.0, 89.0);
  dirty_ = true;
}

void RobotView3D::zoom(double factor)
{
  if (!gl_) return;
  gl_->camera.distance = std::clamp(gl_->camera.distance * factor, 0.2, 10.0);
  dirty_ = true;
}
} // namespace nao::gui
