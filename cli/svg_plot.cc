#include "cli/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/marker_layout.h"
#include "core/error.h"

namespace seen::cli {
namespace {

constexpr double kPanelWidth = 440, kPanelHeight = 300;
constexpr double kLeft = 78, kRight = 24, kTop = 56, kBottom = 54, kLegendLine = 20;
constexpr double kMarker = 8;  // a numbered marker's radius
constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

// One axis: the range it shows, its ticks, and where a value lands along `length` pixels.
struct Axis {
  bool log;
  double lo, hi;  // in log10 units on a log axis
  std::vector<double> ticks;

  Axis(const std::vector<double>& values, bool log_scale) : log(log_scale) {
    std::vector<double> shown;
    for (double v : values) {
      if (!log || v > 0) shown.push_back(log ? std::log10(v) : v);
    }
    if (shown.empty()) shown = {0.0, 1.0};
    lo = *std::min_element(shown.begin(), shown.end());
    hi = *std::max_element(shown.begin(), shown.end());
    if (log) {
      lo = std::floor(lo);
      hi = std::max(std::ceil(hi), lo + 1);
      for (double t = lo; t <= hi; ++t) ticks.push_back(t);
      return;
    }
    lo = std::min(lo, 0.0);
    if (hi <= lo) hi = lo + 1;
    // A round step (1, 2 or 5 times a power of ten) giving about five ticks.
    const double raw = (hi - lo) / 5, power = std::pow(10, std::floor(std::log10(raw)));
    const double step = power * (raw <= power ? 1 : raw <= 2 * power ? 2 : raw <= 5 * power ? 5 : 10);
    hi = std::ceil(hi / step - 1e-9) * step;
    for (double t = lo; t <= hi + step / 2; t += step) ticks.push_back(t);
  }
  // The fraction of the axis length where v lands; a 0 on a log axis lands at its floor.
  double At(double v) const {
    const double u = log ? (v > 0 ? std::log10(v) : lo) : v;
    return (u - lo) / (hi - lo);
  }
  std::string TickLabel(double t) const { return Number(log ? std::pow(10, t) : t); }
};

void Check(const SvgPlot& plot) {
  const size_t n = plot.x.size();
  bool ok = plot.labels.size() == n;
  for (double x : plot.x) ok = ok && std::isfinite(x) && (!plot.log_x || x > 0);
  for (const auto& panel : plot.panels) {
    ok = ok && panel.y.size() == n;
    for (double y : panel.y) ok = ok && std::isfinite(y) && (!panel.log_y || y >= 0);
  }
  if (!ok) {
    throw Error(Code::kInvalidArgument, "plot: every panel needs one finite value per point, "
                                        "x > 0 on a log x axis and y >= 0 on a log y axis");
  }
}

// For each marker moved off its point: a line from the marker's edge to a dot on the point.
// Drawn before (under) every marker, so that a dot never covers another marker's number.
void DrawLeaders(std::ostringstream& svg, const std::vector<Spot>& points, const std::vector<Spot>& markers) {
  svg << "<g class=\"leaders\">\n";
  for (size_t i = 0; i < points.size(); ++i) {
    const Spot &at = points[i], &marker = markers[i];
    const double dx = at.x - marker.x, dy = at.y - marker.y, distance = std::hypot(dx, dy);
    if (distance == 0) continue;
    const char* color = kColors[i % 10];
    svg << "<line x1=\"" << marker.x + dx / distance * kMarker << "\" y1=\"" << marker.y + dy / distance * kMarker
        << "\" x2=\"" << at.x << "\" y2=\"" << at.y << "\" stroke=\"" << color << "\"/><circle data-index=\"" << i + 1
        << "\" cx=\"" << at.x << "\" cy=\"" << at.y << "\" r=\"2.5\" fill=\"" << color << "\"/>\n";
  }
  svg << "</g>\n";
}

}  // namespace

std::string RenderSvg(const SvgPlot& plot) {
  Check(plot);
  const size_t n = plot.x.size();
  const double panel_span = kLeft + kPanelWidth + kRight;
  const double width = std::max(1.0, static_cast<double>(plot.panels.size())) * panel_span;
  const double legend_top = kTop + kPanelHeight + kBottom + 20;
  const double height = legend_top + kLegendLine * (static_cast<double>(n) + 1);
  const Axis x_axis(plot.x, plot.log_x);
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" font-family=\"sans-serif\" font-size=\"13\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << width / 2 << "\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">"
      << Escape(plot.title) << "</text>\n";
  std::vector<bool> zero_on_log(n, false);
  for (size_t p = 0; p < plot.panels.size(); ++p) {
    const SvgPanel& panel = plot.panels[p];
    const Axis y_axis(panel.y, panel.log_y);
    const double left = static_cast<double>(p) * panel_span + kLeft, bottom = kTop + kPanelHeight;
    auto px = [&](double x) { return left + x_axis.At(x) * kPanelWidth; };
    auto py = [&](double y) { return bottom - y_axis.At(y) * kPanelHeight; };
    svg << "<g class=\"panel\" data-y=\"" << Escape(panel.y_label) << "\">\n"
        << "<rect x=\"" << left << "\" y=\"" << kTop << "\" width=\"" << kPanelWidth << "\" height=\""
        << kPanelHeight << "\" fill=\"none\" stroke=\"#444\"/>\n";
    for (double t : x_axis.ticks) {
      const double x = left + x_axis.At(x_axis.log ? std::pow(10, t) : t) * kPanelWidth;
      svg << "<line x1=\"" << x << "\" y1=\"" << kTop << "\" x2=\"" << x << "\" y2=\"" << bottom
          << "\" stroke=\"#ddd\"/><text x=\"" << x << "\" y=\"" << bottom + 18
          << "\" text-anchor=\"middle\">" << x_axis.TickLabel(t) << "</text>\n";
    }
    for (double t : y_axis.ticks) {
      const double y = bottom - y_axis.At(y_axis.log ? std::pow(10, t) : t) * kPanelHeight;
      svg << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + kPanelWidth << "\" y2=\""
          << y << "\" stroke=\"#ddd\"/><text x=\"" << left - 6 << "\" y=\"" << y + 4
          << "\" text-anchor=\"end\">" << y_axis.TickLabel(t) << "</text>\n";
    }
    svg << "<text x=\"" << left + kPanelWidth / 2 << "\" y=\"" << bottom + 40
        << "\" text-anchor=\"middle\">" << Escape(plot.x_label) << (plot.log_x ? " (log)" : "")
        << "</text>\n<text transform=\"translate(" << left - 58 << "," << kTop + kPanelHeight / 2
        << ") rotate(-90)\" text-anchor=\"middle\">" << Escape(panel.y_label)
        << (panel.log_y ? " (log)" : "") << "</text>\n";
    std::vector<Spot> points;
    for (size_t i = 0; i < n; ++i) points.push_back({px(plot.x[i]), py(panel.y[i])});
    const std::vector<Spot> markers = PlaceMarkers(points, kMarker, {left, kTop, left + kPanelWidth, bottom});
    DrawLeaders(svg, points, markers);
    for (size_t i = 0; i < n; ++i) {
      const bool zero = panel.log_y && panel.y[i] == 0;
      zero_on_log[i] = zero_on_log[i] || zero;
      const char* color = kColors[i % 10];
      svg << "<g class=\"point\" data-index=\"" << i + 1 << "\" data-value=\"" << Number(panel.y[i])
          << "\"><circle cx=\"" << markers[i].x << "\" cy=\"" << markers[i].y << "\" r=\"" << kMarker
          << "\" fill=\"" << (zero ? "white" : color) << "\" fill-opacity=\"0.8\" stroke=\"" << color
          << "\" stroke-width=\"2\"/><text x=\"" << markers[i].x << "\" y=\"" << markers[i].y + 4
          << "\" text-anchor=\"middle\" font-size=\"10\" fill=\"" << (zero ? color : "white") << "\">" << i + 1
          << "</text></g>\n";
    }
    svg << "</g>\n";
  }
  svg << "<g class=\"legend\">\n";
  for (size_t i = 0; i < n; ++i) {
    const double y = legend_top + kLegendLine * static_cast<double>(i);
    svg << "<circle cx=\"" << kLeft << "\" cy=\"" << y - 4 << "\" r=\"" << kMarker << "\" fill=\"" << kColors[i % 10]
        << "\"/><text x=\"" << kLeft << "\" y=\"" << y << "\" text-anchor=\"middle\" font-size=\"10\" "
        << "fill=\"white\">" << i + 1 << "</text><text x=\"" << kLeft + 16 << "\" y=\"" << y << "\">"
        << Escape(plot.labels[i]) << "</text><text x=\"" << kLeft + 250 << "\" y=\"" << y
        << "\" fill=\"#444\">" << Escape(plot.x_label) << " " << Number(plot.x[i]);
    // The values too, exact where the plot shows them only roughly.
    for (const auto& panel : plot.panels) svg << ", " << Escape(panel.y_label) << " " << Number(panel.y[i]);
    svg << (zero_on_log[i] ? " (hollow: exactly 0, drawn at the axis floor)" : "") << "</text>\n";
  }
  svg << "</g>\n</svg>\n";
  return svg.str();
}

void WriteSvg(const std::string& path, const SvgPlot& plot) {
  const std::string document = RenderSvg(plot);
  std::ofstream out(path, std::ios::binary);
  out << document;
  out.close();
  if (!out) throw Error(Code::kIo, path + ": cannot write the plot");
}

}  // namespace seen::cli
