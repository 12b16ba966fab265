#include "cli/marker_layout.h"

#include <cmath>

namespace seen::cli {
namespace {

// Candidate spots per ring: 12 directions, 30 degrees apart, so that neighbours on the first
// ring are about half a marker apart and the nearest free spot is rarely missed.
constexpr int kDirections = 12;

bool Overlaps(const Spot& a, const Spot& b, double side) {
  return std::fabs(a.x - b.x) < side && std::fabs(a.y - b.y) < side;
}

bool Free(const Spot& spot, const std::vector<Spot>& placed, double side) {
  for (const Spot& other : placed) {
    if (Overlaps(spot, other, side)) return false;
  }
  return true;
}

bool Inside(const Spot& spot, const Bounds& b) {
  return spot.x >= b.left && spot.x <= b.right && spot.y >= b.top && spot.y <= b.bottom;
}

}  // namespace

std::vector<Spot> PlaceMarkers(const std::vector<Spot>& points, double radius, const Bounds& bounds) {
  // Squares one pixel wider than the marker on each side, so that outlines never touch.
  const double side = 2 * radius + 2;
  const double farthest = std::hypot(bounds.right - bounds.left, bounds.bottom - bounds.top);
  const double pi = std::acos(-1.0);
  std::vector<Spot> placed;
  for (const Spot& point : points) {
    Spot chosen = point;
    bool found = Free(point, placed, side);
    for (double distance = side; !found && distance <= farthest; distance += side) {
      for (int d = 0; d < kDirections && !found; ++d) {
        // Starting straight up, then alternating sides: the first spots tried are above.
        const double angle = -pi / 2 + (d % 2 == 0 ? 1 : -1) * ((d + 1) / 2) * (2 * pi / kDirections);
        const Spot candidate{point.x + distance * std::cos(angle), point.y + distance * std::sin(angle)};
        found = Inside(candidate, bounds) && Free(candidate, placed, side);
        if (found) chosen = candidate;
      }
    }
    placed.push_back(chosen);
  }
  return placed;
}

}  // namespace seen::cli
