// Scatter plots as PNG files, drawn with the built-in font (cli/font.h) and written by the
// built-in encoder (cli/png.h): the CLI needs no graphics library.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace seen::cli {

struct PlotPoint {
  double x, y;
  std::string label;  // drawn beside the marker; may be empty
};

struct PlotSpec {
  std::string title, x_label, y_label;  // each may be empty
  bool log_x = false, log_y = true;
  int width = 900, height = 600;  // pixels, each 200..8192
};

// Writes a PNG scatter plot to path: a framed plot area with ticks and tick labels (powers of
// ten on log axes, round 1-2-5 steps on linear ones), each point a filled marker in its own
// colour (PointColor) with its label beside it, the title on top and the axis labels. Throws
// Error(Code::kInvalidArgument) for a size out of range, a non-finite coordinate or a value
// <= 0 on a log axis, and Error(Code::kIo, "<path>: ...") if the file cannot be written.
void WriteScatterPng(const std::string& path, const PlotSpec& spec,
                     const std::vector<PlotPoint>& points);

// The colour of the marker of points[index], as 0xRRGGBB; colours repeat every 10 points.
uint32_t PointColor(size_t index);

struct Pixel {
  int x, y;  // from the top-left corner of the image
};

// The centre of the marker of points[index] in the image WriteScatterPng draws for the same
// spec and points. Throws as WriteScatterPng does for bad input.
Pixel PointPixel(const PlotSpec& spec, const std::vector<PlotPoint>& points, size_t index);

}  // namespace seen::cli
