// The SVG scatter plot (cli/svg_plot.h): markers where the axes put them, apart from each
// other when points crowd, zero rates on a log axis marked as such, names escaped, and bad
// input refused.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include "cli/svg_plot.h"
#include "core/error.h"

namespace seen::cli {
namespace {

// The cx of every marker, in document order (panel by panel, point by point).
std::vector<double> MarkerXs(const std::string& svg) {
  std::vector<double> xs;
  const std::regex point(R"re(class="point"[^>]*><circle cx="([0-9.]+)")re");
  for (std::sregex_iterator it(svg.begin(), svg.end(), point), end; it != end; ++it) {
    xs.push_back(std::stod((*it)[1]));
  }
  return xs;
}

struct Marker {
  double x, y, r;
};

Marker FromMatch(const std::smatch& m) { return {std::stod(m[2]), std::stod(m[3]), std::stod(m[4])}; }

// Every numbered marker of the document, panel by panel, each with its point's exact spot:
// the dot a moved marker's line leads to, else the marker's own centre.
std::vector<std::vector<std::pair<Marker, Marker>>> Panels(const std::string& svg) {
  std::vector<std::vector<std::pair<Marker, Marker>>> panels;
  const std::regex marker(R"re(<g class="point" data-index="([0-9]+)"[^>]*><circle cx="([-0-9.e]+)" cy="([-0-9.e]+)" r="([0-9.]+)")re");
  const std::regex dot(R"re(<circle data-index="([0-9]+)" cx="([-0-9.e]+)" cy="([-0-9.e]+)" r="([0-9.]+)")re");
  const std::sregex_iterator end;
  // A panel runs from its opening tag to the next one's (the last one to the end).
  for (size_t at = svg.find("<g class=\"panel\""); at != std::string::npos;) {
    const size_t next = svg.find("<g class=\"panel\"", at + 1);
    const std::string text = svg.substr(at, next == std::string::npos ? std::string::npos : next - at);
    at = next;
    std::map<std::string, Marker> dots;
    for (std::sregex_iterator it(text.begin(), text.end(), dot); it != end; ++it) dots[(*it)[1]] = FromMatch(*it);
    panels.emplace_back();
    for (std::sregex_iterator it(text.begin(), text.end(), marker); it != end; ++it) {
      const auto moved = dots.find((*it)[1]);
      panels.back().emplace_back(FromMatch(*it), moved == dots.end() ? FromMatch(*it) : moved->second);
    }
  }
  return panels;
}

bool BoxesIntersect(const Marker& a, const Marker& b) {
  return std::fabs(a.x - b.x) < a.r + b.r && std::fabs(a.y - b.y) < a.r + b.r;
}

SvgPlot ThreePoints() {
  return {"title", "bytes", true, {10, 100, 1000}, {"a", "b & <c>", "d"},
          {{"rate", true, {0.01, 0.001, 0}}, {"recall", false, {1, 0.5, 0}}}};
}

TEST(SvgPlot, LogAxisPutsTheGeometricMiddleInTheMiddle) {
  const auto xs = MarkerXs(RenderSvg(ThreePoints()));
  ASSERT_EQ(xs.size(), 6u);  // three points in each of two panels
  for (size_t panel = 0; panel < 2; ++panel) {
    const double* x = &xs[3 * panel];
    EXPECT_LT(x[0], x[1]);
    EXPECT_NEAR(x[1] - x[0], x[2] - x[1], 0.01) << "10, 100, 1000 are evenly spaced on a log axis";
  }
}

// The designs of `seen simulate exposure` (bytes per user, rate, recall): before markers were
// placed, 3 and 6, 4 and 7 covered each other in the rate panel, and 4 and 7, 5 and 6 in the
// recall panel. Ten more points on one spot crowd it past any nudge.
TEST(SvgPlot, MarkersOfClosePointsDoNotOverlapAndPointAtTheirPoints) {
  SvgPlot plot{"exposure", "bytes per user", true,
               {4000, 500, 1000, 500, 921, 1021, 529},
               {"queue", "single", "master/slave", "chain", "seen 2%", "seen 1%", "seen at chain memory"},
               {{"rate", true, {0, 0.563, 0.0076, 0.0923, 0.0172, 0.0081, 0.0892}},
                {"recall", false, {1, 1, 0.72, 0.9115, 1, 1, 0.9146}}}};
  for (int i = 0; i < 10; ++i) {
    plot.x.push_back(700);
    plot.labels.push_back("crowd");
    plot.panels[0].y.push_back(0.03);
    plot.panels[1].y.push_back(0.95);
  }
  const auto panels = Panels(RenderSvg(plot));
  ASSERT_EQ(panels.size(), 2u);
  for (size_t p = 0; p < panels.size(); ++p) {
    const auto& markers = panels[p];
    ASSERT_EQ(markers.size(), plot.x.size());
    for (size_t i = 0; i < markers.size(); ++i) {
      for (size_t j = i + 1; j < markers.size(); ++j) {
        EXPECT_FALSE(BoxesIntersect(markers[i].first, markers[j].first))
            << "panel " << p << ": markers " << i + 1 << " and " << j + 1 << " overlap";
      }
    }
  }
  // Where a point is does not move: the ten points of one spot keep that spot (the dot at the
  // end of a moved marker's line), while their markers spread out.
  for (const auto& markers : panels) {
    for (size_t i = 8; i < markers.size(); ++i) {
      EXPECT_EQ(markers[i].second.x, markers[7].second.x);
      EXPECT_EQ(markers[i].second.y, markers[7].second.y);
    }
  }
}

TEST(SvgPlot, AZeroRateOnALogAxisIsHollowAndNamedInTheLegend) {
  const std::string svg = RenderSvg(ThreePoints());
  EXPECT_NE(svg.find(R"(data-value="0"><circle cx)"), std::string::npos);
  EXPECT_NE(svg.find("fill=\"white\" fill-opacity=\"0.8\" stroke=\"#2ca02c\""), std::string::npos) << "point 3 hollow";
  EXPECT_NE(svg.find("rate 0, recall 0 (hollow: exactly 0"), std::string::npos);
  EXPECT_NE(svg.find("rate 0.01, recall 1</text>"), std::string::npos) << "a has no zero";
  EXPECT_NE(svg.find("b &amp; &lt;c&gt;"), std::string::npos);
}

TEST(SvgPlot, RefusesMismatchedOrImpossibleValues) {
  SvgPlot short_panel = ThreePoints();
  short_panel.panels[1].y.pop_back();
  EXPECT_THROW(RenderSvg(short_panel), Error);
  SvgPlot negative = ThreePoints();
  negative.panels[0].y[0] = -1;
  EXPECT_THROW(RenderSvg(negative), Error);
  SvgPlot zero_x = ThreePoints();
  zero_x.x[0] = 0;
  EXPECT_THROW(RenderSvg(zero_x), Error);
  SvgPlot nan = ThreePoints();
  nan.panels[1].y[2] = std::nan("");
  EXPECT_THROW(RenderSvg(nan), Error);
}

}  // namespace
}  // namespace seen::cli
