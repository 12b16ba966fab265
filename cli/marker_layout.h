// Where the numbered markers of a scatter plot go. Close points would draw their markers on
// top of each other and hide their numbers, so a marker that would overlap an earlier one
// moves to the nearest free spot around its point (the plot ties it back with a line).
#pragma once

#include <vector>

namespace seen::cli {

struct Spot {
  double x, y;
};

// A rectangle in pixels, y growing downwards as in SVG.
struct Bounds {
  double left, top, right, bottom;
};

// One spot per point, in the points' order: the point itself if a marker of `radius` there
// overlaps no earlier marker's square, else the nearest free spot on rings around the point,
// kept inside `bounds`. A marker for which no spot tried is free (a panel crowded past its
// room) stays on its point.
std::vector<Spot> PlaceMarkers(const std::vector<Spot>& points, double radius, const Bounds& bounds);

}  // namespace seen::cli
