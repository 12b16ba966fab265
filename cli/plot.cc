#include "cli/plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

#include "cli/font.h"
#include "cli/png.h"
#include "core/error.h"

namespace seen::cli {
namespace {

constexpr int kMinSide = 200;
constexpr int kMaxSide = 8192;
constexpr int kMinPlotSide = 50;  // the framed area, after the margins and labels

constexpr uint32_t kInk = 0x202020;  // frame, ticks, titles
constexpr uint32_t kPointLabelInk = 0x505050;
constexpr uint32_t kGrid = 0xE8E8E8;
// Tableau 10: neighbours stay distinct and every colour reads on white.
constexpr uint32_t kPalette[] = {0x1F77B4, 0xFF7F0E, 0x2CA02C, 0xD62728, 0x9467BD,
                                 0x8C564B, 0xE377C2, 0x7F7F7F, 0xBCBD22, 0x17BECF};

constexpr int kTextScale = 2;
constexpr int kTitleScale = 3;
constexpr int kExponentScale = 1;
constexpr int kExponentRise = 4;  // pixels the exponent's top sits above the "10"'s
constexpr int kMargin = 12;
constexpr int kGap = 6;
constexpr int kTickLength = 6;
constexpr int kMinorTickLength = 3;
constexpr int kMarkerRadius = 5;
// Image pixels per tick interval at least, so tick labels do not crowd.
constexpr int kPixelsPerTickX = 100;
constexpr int kPixelsPerTickY = 60;
constexpr double kPadFraction = 0.04;  // of the tick range, so no marker sits on the frame

int TextWidth(const std::string& text, int scale) {
  return text.empty() ? 0 : (static_cast<int>(text.size()) * kGlyphAdvance - 1) * scale;
}

int TextHeight(int scale) { return kGlyphHeight * scale; }

class Canvas {
 public:
  Canvas(int width, int height)
      : width_(width), height_(height), rgb_(size_t{3} * width * height, 0xFF) {}
  const std::vector<uint8_t>& rgb() const { return rgb_; }

  // Fills [x, x + w) x [y, y + h), clipped to the image.
  void FillRect(int x, int y, int w, int h, uint32_t color) {
    const int x_end = std::min(x + w, width_), y_end = std::min(y + h, height_);
    for (int row = std::max(y, 0); row < y_end; ++row) {
      for (int col = std::max(x, 0); col < x_end; ++col) {
        uint8_t* pixel = &rgb_[3 * (static_cast<size_t>(row) * width_ + col)];
        pixel[0] = static_cast<uint8_t>(color >> 16);
        pixel[1] = static_cast<uint8_t>(color >> 8);
        pixel[2] = static_cast<uint8_t>(color);
      }
    }
  }

  void FillCircle(int cx, int cy, int radius, uint32_t color) {
    for (int dy = -radius; dy <= radius; ++dy) {
      // r * r + r rather than r * r rounds off the flat top and bottom rows.
      const int half = static_cast<int>(std::sqrt(radius * radius + radius - dy * dy));
      FillRect(cx - half, cy + dy, 2 * half + 1, 1, color);
    }
  }

  // Text with its top-left corner at (x, y), each font pixel a scale x scale square. Upward
  // text (the y axis label) is turned a quarter turn counter-clockwise and (x, y) is its
  // bottom-left corner.
  void Text(int x, int y, const std::string& text, int scale, uint32_t color, bool upward = false) {
    for (size_t i = 0; i < text.size(); ++i) {
      const uint8_t* rows = GlyphRows(text[i]);
      for (int row = 0; row < kGlyphHeight; ++row) {
        for (int col = 0; col < kGlyphWidth; ++col) {
          if ((rows[row] >> (kGlyphWidth - 1 - col) & 1) == 0) continue;
          const int along = (static_cast<int>(i) * kGlyphAdvance + col) * scale;
          const int across = row * scale;
          if (upward) {
            FillRect(x + across, y - along - scale, scale, scale, color);
          } else {
            FillRect(x + along, y + across, scale, scale, color);
          }
        }
      }
    }
  }

 private:
  int width_, height_;
  std::vector<uint8_t> rgb_;
};

// One axis in plot units: the value on a linear axis, its log10 on a log axis.
struct Axis {
  bool log = false;
  double lo = 0, hi = 1;            // the visible range
  std::vector<double> ticks;        // labelled
  std::vector<double> minor_ticks;  // log axes: 2..9 times each power of ten

  double ToUnits(double value) const { return log ? std::log10(value) : value; }
};

// Ticks at the smallest step of 1, 2 or 5 times a power of ten that leaves at most
// max_intervals between the first and last, which enclose [lo, hi].
Axis LinearAxis(double lo, double hi, int max_intervals) {
  if (lo == hi) {
    const double half = lo == 0 ? 1 : std::fabs(lo) / 2;
    lo -= half;
    hi += half;
  }
  // Intervals between the multiples of step that enclose [lo, hi].
  const auto intervals = [&](double step) { return std::ceil(hi / step) - std::floor(lo / step); };
  double step = std::pow(10, std::floor(std::log10((hi - lo) / max_intervals)));
  // 1, 2, 5, 10, 20, 50, ... times that power of ten.
  for (int i = 0; intervals(step) > max_intervals; ++i) step *= i % 3 == 1 ? 2.5 : 2;
  Axis axis;
  // Multiples of the step, not sums, so 0.1 * 3 prints as 0.3 at %.12g.
  const double first = std::floor(lo / step), last = std::ceil(hi / step);
  for (double k = first; k <= last; ++k) axis.ticks.push_back(k * step);
  axis.lo = first * step;
  axis.hi = last * step;
  return axis;
}

// Ticks at powers of ten enclosing [lo, hi] (in log10 units): every one, or every few when
// there are more than max_intervals decades.
Axis LogAxis(double lo, double hi, int max_intervals) {
  const double first = std::floor(lo);
  const double decades = std::max(1.0, std::ceil(hi) - first);
  const double step = std::ceil(decades / max_intervals);
  const double last = first + std::ceil(decades / step) * step;
  Axis axis;
  axis.log = true;
  for (double e = first; e <= last; e += step) axis.ticks.push_back(e);
  if (step == 1) {
    for (double e = first; e < last; ++e) {
      for (int m = 2; m <= 9; ++m) axis.minor_ticks.push_back(e + std::log10(m));
    }
  }
  axis.lo = first;
  axis.hi = last;
  return axis;
}

Axis MakeAxis(const std::vector<double>& values, bool log, int max_intervals) {
  double lo = 0, hi = 1;
  if (!values.empty()) {
    const auto [min, max] = std::minmax_element(values.begin(), values.end());
    lo = log ? std::log10(*min) : *min;
    hi = log ? std::log10(*max) : *max;
  }
  Axis axis = log ? LogAxis(lo, hi, max_intervals) : LinearAxis(lo, hi, max_intervals);
  const double pad = kPadFraction * (axis.hi - axis.lo);
  axis.lo -= pad;
  axis.hi += pad;
  return axis;
}

// "10" with a raised exponent on log axes, the value on linear ones.
struct TickLabel {
  std::string text, exponent;

  int width() const {
    return TextWidth(text, kTextScale) +
           (exponent.empty() ? 0 : kExponentScale + TextWidth(exponent, kExponentScale));
  }
  // (x, y) is the top-left corner of text; the exponent follows one of its pixels apart and
  // rises above it.
  void Draw(Canvas& canvas, int x, int y) const {
    canvas.Text(x, y, text, kTextScale, kInk);
    canvas.Text(x + TextWidth(text, kTextScale) + kExponentScale, y - kExponentRise, exponent,
                kExponentScale, kInk);
  }
};

TickLabel LabelOf(const Axis& axis, double tick) {
  char number[32];
  if (axis.log) {
    std::snprintf(number, sizeof number, "%ld", std::lround(tick));
    return {"10", number};
  }
  std::snprintf(number, sizeof number, "%.12g", tick);
  return {number, ""};
}

// The plot area's frame lines in pixels, and the axes that map into it.
struct Frame {
  Axis x, y;
  int left, top, right, bottom;

  int Column(double x_units) const {
    const double fraction = (x_units - x.lo) / (x.hi - x.lo);
    return left + static_cast<int>(std::lround(fraction * (right - left)));
  }
  int Row(double y_units) const {
    const double fraction = (y_units - y.lo) / (y.hi - y.lo);
    return bottom - static_cast<int>(std::lround(fraction * (bottom - top)));
  }
  Pixel Map(const PlotPoint& p) const { return {Column(x.ToUnits(p.x)), Row(y.ToUnits(p.y))}; }
};

void CheckInput(const PlotSpec& spec, const std::vector<PlotPoint>& points) {
  if (spec.width < kMinSide || spec.width > kMaxSide || spec.height < kMinSide ||
      spec.height > kMaxSide) {
    throw Error(Code::kInvalidArgument, "plot: " + std::to_string(spec.width) + "x" +
                                            std::to_string(spec.height) + " pixels, expected " +
                                            std::to_string(kMinSide) + ".." +
                                            std::to_string(kMaxSide) + " on each side");
  }
  for (const PlotPoint& p : points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      throw Error(Code::kInvalidArgument, "plot: point \"" + p.label + "\" is not finite");
    }
    if ((spec.log_x && p.x <= 0) || (spec.log_y && p.y <= 0)) {
      throw Error(Code::kInvalidArgument,
                  "plot: point \"" + p.label + "\" is not positive on a log axis");
    }
  }
}

Frame MakeFrame(const PlotSpec& spec, const std::vector<PlotPoint>& points) {
  CheckInput(spec, points);
  std::vector<double> xs, ys;
  for (const PlotPoint& p : points) {
    xs.push_back(p.x);
    ys.push_back(p.y);
  }
  Frame frame{MakeAxis(xs, spec.log_x, std::max(2, spec.width / kPixelsPerTickX)),
              MakeAxis(ys, spec.log_y, std::max(2, spec.height / kPixelsPerTickY)), 0, 0, 0, 0};

  int y_labels_width = 0, x_last_label_width = 0;
  for (double tick : frame.y.ticks) {
    y_labels_width = std::max(y_labels_width, LabelOf(frame.y, tick).width());
  }
  if (!frame.x.ticks.empty()) x_last_label_width = LabelOf(frame.x, frame.x.ticks.back()).width();
  const int text_height = TextHeight(kTextScale);
  const int exponent_room = frame.x.log ? kExponentRise : 0;

  frame.left = kMargin + (spec.y_label.empty() ? 0 : text_height + kGap) + y_labels_width + kGap +
               kTickLength;
  frame.right = spec.width - kMargin - x_last_label_width / 2;
  frame.top = kMargin + (spec.title.empty() ? text_height / 2 : TextHeight(kTitleScale) + 2 * kGap);
  frame.bottom = spec.height - kMargin - (spec.x_label.empty() ? 0 : text_height + kGap) -
                 text_height - exponent_room - kGap - kTickLength;
  if (frame.right - frame.left < kMinPlotSide || frame.bottom - frame.top < kMinPlotSide) {
    throw Error(Code::kInvalidArgument, "plot: too small for its tick labels");
  }
  return frame;
}

void DrawAxes(Canvas& canvas, const Frame& f) {
  const int text_top_below = f.bottom + kTickLength + kGap + (f.x.log ? kExponentRise : 0);
  for (double tick : f.x.ticks) {
    const int px = f.Column(tick);
    canvas.FillRect(px, f.top, 1, f.bottom - f.top, kGrid);
    canvas.FillRect(px, f.bottom, 1, kTickLength, kInk);
    const TickLabel label = LabelOf(f.x, tick);
    label.Draw(canvas, px - label.width() / 2, text_top_below);
  }
  for (double tick : f.y.ticks) {
    const int py = f.Row(tick);
    canvas.FillRect(f.left, py, f.right - f.left, 1, kGrid);
    canvas.FillRect(f.left - kTickLength, py, kTickLength, 1, kInk);
    const TickLabel label = LabelOf(f.y, tick);
    label.Draw(canvas, f.left - kTickLength - kGap - label.width(),
               py - kGlyphAscent * kTextScale / 2);
  }
  for (double tick : f.x.minor_ticks) {
    const int px = f.Column(tick);
    canvas.FillRect(px, f.bottom, 1, kMinorTickLength, kInk);
  }
  for (double tick : f.y.minor_ticks) {
    const int py = f.Row(tick);
    canvas.FillRect(f.left - kMinorTickLength, py, kMinorTickLength, 1, kInk);
  }
  canvas.FillRect(f.left, f.top, f.right - f.left + 1, 1, kInk);
  canvas.FillRect(f.left, f.bottom, f.right - f.left + 1, 1, kInk);
  canvas.FillRect(f.left, f.top, 1, f.bottom - f.top + 1, kInk);
  canvas.FillRect(f.right, f.top, 1, f.bottom - f.top + 1, kInk);
}

void DrawTitles(Canvas& canvas, const PlotSpec& spec, const Frame& f) {
  canvas.Text((spec.width - TextWidth(spec.title, kTitleScale)) / 2, kMargin, spec.title,
              kTitleScale, kInk);
  canvas.Text((f.left + f.right - TextWidth(spec.x_label, kTextScale)) / 2,
              spec.height - kMargin - TextHeight(kTextScale), spec.x_label, kTextScale, kInk);
  canvas.Text(kMargin, (f.top + f.bottom + TextWidth(spec.y_label, kTextScale)) / 2, spec.y_label,
              kTextScale, kInk, /*upward=*/true);
}

struct Box {
  int left, top, right, bottom;
  bool Overlaps(const Box& o) const {
    return left < o.right && o.left < right && top < o.bottom && o.top < bottom;
  }
};

void DrawPoints(Canvas& canvas, const Frame& f, const std::vector<PlotPoint>& points) {
  // Labels first, so none covers another point's marker. Each takes the first place that
  // clears the labels already drawn: right of its marker, left, above right, below right.
  std::vector<Box> taken;
  const int height = kGlyphAscent * kTextScale;
  for (const PlotPoint& p : points) {
    const Pixel at = f.Map(p);
    const int width = TextWidth(p.label, kTextScale);
    const int offset = kMarkerRadius + kGap;
    const int middle = at.y - height / 2;
    const Box places[] = {{at.x + offset, middle, at.x + offset + width, middle + height},
                          {at.x - offset - width, middle, at.x - offset, middle + height},
                          {at.x + offset, middle - height - kGap, at.x + offset + width, middle - kGap},
                          {at.x + offset, middle + height + kGap, at.x + offset + width, middle + 2 * height + kGap}};
    Box chosen = places[0];
    for (const Box& place : places) {
      const bool inside = place.left >= f.left && place.right < f.right;
      const bool clear = std::none_of(taken.begin(), taken.end(), [&](const Box& b) { return b.Overlaps(place); });
      if (inside && clear) {
        chosen = place;
        break;
      }
    }
    taken.push_back(chosen);
    canvas.Text(chosen.left, chosen.top, p.label, kTextScale, kPointLabelInk);
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const Pixel at = f.Map(points[i]);
    canvas.FillCircle(at.x, at.y, kMarkerRadius, PointColor(i));
  }
}

}  // namespace

uint32_t PointColor(size_t index) { return kPalette[index % std::size(kPalette)]; }

Pixel PointPixel(const PlotSpec& spec, const std::vector<PlotPoint>& points, size_t index) {
  if (index >= points.size()) {
    throw Error(Code::kInvalidArgument, "plot: point " + std::to_string(index) + " of " +
                                            std::to_string(points.size()));
  }
  return MakeFrame(spec, points).Map(points[index]);
}

void WriteScatterPng(const std::string& path, const PlotSpec& spec,
                     const std::vector<PlotPoint>& points) {
  const Frame frame = MakeFrame(spec, points);
  Canvas canvas(spec.width, spec.height);
  DrawAxes(canvas, frame);
  DrawTitles(canvas, spec, frame);
  DrawPoints(canvas, frame, points);
  WritePng(path, spec.width, spec.height, canvas.rgb());
}

}  // namespace seen::cli
