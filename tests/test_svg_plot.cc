// The SVG scatter plot (cli/svg_plot.h): markers where the axes put them, zero rates on a log
// axis marked as such, names escaped, and bad input refused.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
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
