// Scatter plots as SVG: text a browser renders with real fonts, a few kilobytes, no graphics
// library. Several panels share one x axis and one legend, so every point is a numbered
// marker and its name is written once, in the legend, where no label can overlap another.
// Markers of close points do not cover each other either: one that would moves aside and is
// tied to its point by a line (cli/marker_layout.h).
#pragma once

#include <string>
#include <vector>

namespace seen::cli {

struct SvgPanel {
  std::string y_label;
  bool log_y = false;
  std::vector<double> y;  // one value per point; on a log axis 0 is drawn at the axis floor,
                          // as a hollow marker, and the legend says the value is 0
};

struct SvgPlot {
  std::string title, x_label;
  bool log_x = false;
  std::vector<double> x;            // one value per point, shared by every panel
  std::vector<std::string> labels;  // one name per point, shown in the legend
  std::vector<SvgPanel> panels;     // side by side
};

// The document. Throws Error(Code::kInvalidArgument) when the vectors disagree in length, a
// value is not finite, or a value on a log axis is negative (or, on the x axis, 0).
std::string RenderSvg(const SvgPlot& plot);

// Writes RenderSvg(plot) to path; Error(Code::kIo, "<path>: ...") if it cannot.
void WriteSvg(const std::string& path, const SvgPlot& plot);

}  // namespace seen::cli
