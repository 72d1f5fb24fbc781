// The hand-written SVG line plot, through its API: the ticks (whole steps of 1, 2 or 5 x 10^k that
// cover the data, checked over a sweep of ranges), where points land, NaN breaking a line, the
// thinning of long series (every k-th point, or each bucket's extremes: series_thinning.h),
// colours and drawing order, and that the document is well formed XML with its text escaped.
// Also the stacked bar chart (svg_bar_chart.h): segments to scale, well formed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "report/series_thinning.h"
#include "report/svg_bar_chart.h"
#include "report/svg_plot.h"

namespace sph {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int count(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// The value of each `attribute="..."` in document order.
std::vector<std::string> attributes(const std::string& svg, const std::string& attribute) {
    std::vector<std::string> values;
    const std::string key = " " + attribute + "=\"";
    for (std::size_t at = svg.find(key); at != std::string::npos; at = svg.find(key, at + 1)) {
        const std::size_t from = at + key.size();
        values.push_back(svg.substr(from, svg.find('"', from) - from));
    }
    return values;
}

// Empty when the text is well-formed XML of elements, attributes and character data (what this
// writer produces): tags nested and closed, attribute values quoted, no bare '<' or '&' outside
// an entity; else what is wrong, and where.
std::string xml_problem(const std::string& xml) {
    std::vector<std::string> open;
    const auto entity_ok = [&](std::size_t at) {
        for (const char* e : {"&amp;", "&lt;", "&gt;", "&quot;"})
            if (xml.compare(at, std::string(e).size(), e) == 0) return true;
        return false;
    };
    for (std::size_t i = 0; i < xml.size();) {
        if (xml[i] == '&' && !entity_ok(i)) return "bare & at " + std::to_string(i);
        if (xml[i] == '>') return "stray > at " + std::to_string(i);
        if (xml[i] != '<') {
            ++i;
            continue;
        }
        const bool closing = xml.compare(i, 2, "</") == 0;
        std::size_t j = i + (closing ? 2 : 1);
        const std::size_t name_end = xml.find_first_of(" />", j);
        if (name_end == std::string::npos || name_end == j)
            return "no name at " + std::to_string(i);
        const std::string name = xml.substr(j, name_end - j);
        for (j = name_end; j < xml.size() && xml[j] != '>';) {
            if (xml[j] == '"') {
                const std::size_t close = xml.find('"', j + 1);
                if (close == std::string::npos) return "unclosed quote at " + std::to_string(j);
                for (std::size_t k = j + 1; k < close; ++k) {
                    if (xml[k] == '<') return "< in attribute at " + std::to_string(k);
                    if (xml[k] == '&' && !entity_ok(k)) return "bare & at " + std::to_string(k);
                }
                j = close + 1;
            } else {
                ++j;
            }
        }
        if (j == xml.size()) return "unclosed tag at " + std::to_string(i);
        if (closing) {
            if (open.empty() || open.back() != name) return "</" + name + "> does not match";
            open.pop_back();
        } else if (xml[j - 1] != '/') {
            open.push_back(name);
        }
        i = j + 1;
        if (open.empty() && xml.find_first_not_of('\n', i) != std::string::npos)
            return "text after the root element";
    }
    return open.empty() ? "" : "<" + open.back() + "> never closed";
}

PlotSeries series(const std::string& label, std::vector<double> x, std::vector<double> y) {
    PlotSeries s;
    s.label = label;
    s.x = std::move(x);
    s.y = std::move(y);
    return s;
}

TEST(NiceTicks, KnownRanges) {
    const auto expect_ticks = [](double lo, double hi, const std::vector<double>& expected) {
        const std::vector<double> ticks = nice_ticks(lo, hi);
        ASSERT_EQ(ticks.size(), expected.size()) << lo << " " << hi;
        for (std::size_t i = 0; i < ticks.size(); ++i)
            EXPECT_NEAR(ticks[i], expected[i], 1e-12 * std::fabs(expected.back()))
                << lo << " " << hi;
    };
    expect_ticks(0, 2, {0, 0.5, 1, 1.5, 2});
    expect_ticks(0, 1, {0, 0.2, 0.4, 0.6, 0.8, 1});
    expect_ticks(-0.3, 0.7, {-0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8});
    expect_ticks(1234.5, 5234.5, {1000, 2000, 3000, 4000, 5000, 6000});
    expect_ticks(3, 3, {1.5, 2, 2.5, 3, 3.5, 4, 4.5});  // one value: half its size either side
    expect_ticks(0, 0, {-0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6});
    expect_ticks(0, 7, {0, 2, 4, 6, 8});  // not seven steps of 1
    // A step of 10^(k+1) where 5 x 10^k would need seven steps: seven with it, eight ticks.
    expect_ticks(0.5, 60.4, {0, 10, 20, 30, 40, 50, 60, 70});
}

// -0.15 + 3 x 0.05 is 2.8e-17 in doubles: the tick must still read "0".
TEST(NiceTicks, ZeroIsExactlyZero) {
    const std::vector<double> ticks = nice_ticks(-0.11, 0.013);
    ASSERT_EQ(ticks.size(), 5u);
    EXPECT_EQ(ticks[3], 0.0);
    EXPECT_FALSE(std::signbit(ticks[3]));
}

TEST(NiceTicks, WholeStepsCoverTheRangeOverASweep) {
    std::mt19937_64 random(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int trial = 0; trial < 20000; ++trial) {
        const double scale = std::pow(10.0, std::floor(8 * unit(random)));
        const double lo = 10 * scale * unit(random);
        const double hi = lo + 10 * scale * std::fabs(unit(random)) + 1e-3 * scale;
        const std::vector<double> ticks = nice_ticks(lo, hi);
        ASSERT_GE(ticks.size(), 4u) << lo << " " << hi;
        ASSERT_LE(ticks.size(), 8u) << lo << " " << hi;
        EXPECT_LE(ticks.front(), lo);
        EXPECT_GE(ticks.back(), hi);
        const double step = ticks[1] - ticks[0];
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        EXPECT_TRUE(std::fabs(mantissa - 1) < 1e-6 || std::fabs(mantissa - 2) < 1e-6 ||
                    std::fabs(mantissa - 5) < 1e-6)
            << step;
        for (std::size_t i = 0; i < ticks.size(); ++i) {
            EXPECT_NEAR(ticks[i], ticks[0] + i * step, 1e-9 * step);
            EXPECT_NEAR(ticks[i] / step, std::round(ticks[i] / step), 1e-6);  // a whole step
        }
    }
}

TEST(SvgLinePlot, PointsLandOnTheTicksAndLabelsAreTheTicks) {
    LinePlot plot;
    plot.series.push_back(series("s", {0, 1}, {0, 2}));
    const std::string svg = svg_line_plot(plot);
    // x from 0 to 1 across the plot area (80 to 630), y from 0 to 2 up it (340 to 40).
    EXPECT_EQ(attributes(svg, "points"), std::vector<std::string>{"80.00,340.00 630.00,40.00"});
    // x ticks 0, 0.2, ..., 1; y ticks 0, 0.5, ..., 2.
    for (const char* label :
         {">0.2</text>", ">0.8</text>", ">0.5</text>", ">1.5</text>", ">2</text>"})
        EXPECT_EQ(count(svg, label), 1) << label;
    EXPECT_EQ(count(svg, ">0</text>"), 2);
    EXPECT_EQ(count(svg, ">1</text>"), 2);
    EXPECT_EQ(count(svg, "</text>"), 6 + 5 + 3 + 1);  // ticks, axis labels and title, legend
}

TEST(SvgLinePlot, NanBreaksTheLineAndALonePointIsADot) {
    LinePlot plot;
    plot.series.push_back(series("two pieces", {0, 1, 2, 3, 4}, {1, 2, kNaN, 4, 3}));
    plot.series.push_back(series("dot and piece", {0, 1, 2, 3}, {1, kNaN, 2, 3}));
    plot.series.push_back(series("inf breaks too", {0, 1, 2}, {1, INFINITY, 2}));
    plot.series.push_back(series("nothing", {0, 1}, {kNaN, kNaN}));
    const std::string svg = svg_line_plot(plot);
    EXPECT_EQ(count(svg, "<polyline"), 3);
    EXPECT_EQ(count(svg, "<circle"), 3);
    // "dot and piece"'s lone first point, (0, 1), at the bottom left corner.
    EXPECT_NE(svg.find("<circle cx=\"80.00\" cy=\"340.00\" r=\"2\" fill=\"" + palette_colour(1)),
              std::string::npos);
    EXPECT_EQ(count(svg, ">nothing</text>"), 1);  // still in the legend
    // Nothing infinite reaches the y axis: it spans the finite values 1 to 4.
    EXPECT_EQ(count(svg, ">4</text>"), 2);  // an x tick and a y tick
    EXPECT_EQ(xml_problem(svg), "");
}

TEST(SvgLinePlot, LongSeriesAreThinnedToEveryKthPointAndTheLast) {
    LinePlot plot;
    PlotSeries s;
    for (int i = 0; i <= 10000; ++i) {
        s.x.push_back(i * 1e-3);
        s.y.push_back(i == 10000 ? 2.0 : 1.0);
    }
    plot.series.push_back(s);
    // 10001 points, at most 2000: every 6th (0, 6, ..., 9996) and the last.
    const std::vector<std::string> points = attributes(svg_line_plot(plot), "points");
    ASSERT_EQ(points.size(), 1u);
    EXPECT_EQ(count(points[0], ","), 1667 + 1);
    EXPECT_EQ(points[0].substr(points[0].rfind(' ') + 1), "630.00,40.00");  // the last, (10, 2)

    plot.max_points = 20000;
    EXPECT_EQ(count(attributes(svg_line_plot(plot), "points").at(0), ","), 10001);
}

TEST(SvgLinePlot, EmphasisedSeriesIsBlackWideAndDrawnOverTheOthers) {
    LinePlot plot;
    PlotSeries base = series("base", {0, 1}, {0, 1});
    base.emphasised = true;
    plot.series.push_back(base);
    plot.series.push_back(series("a", {0, 1}, {1, 0}));
    PlotSeries b = series("b", {0, 1}, {0.5, 0.5});
    b.colour = "#123456";
    b.marker = 0.5;
    plot.series.push_back(b);
    plot.series.push_back(series("c", {0, 1}, {0.2, 0.2}));
    const std::string svg = svg_line_plot(plot);
    // Drawn last to first, the emphasised one over all; the palette skips colours given.
    const std::vector<std::string> lines = {
        "<polyline fill=\"none\" stroke=\"" + palette_colour(1) + "\" stroke-width=\"1.5\"",
        "<polyline fill=\"none\" stroke=\"#123456\" stroke-width=\"1.5\"",
        "<polyline fill=\"none\" stroke=\"" + palette_colour(0) + "\" stroke-width=\"1.5\"",
        "<polyline fill=\"none\" stroke=\"#000000\" stroke-width=\"2.5\""};
    std::size_t at = 0;
    for (const std::string& line : lines) {
        const std::size_t next = svg.find(line);
        ASSERT_NE(next, std::string::npos) << line;
        EXPECT_GT(next, at) << line;
        at = next;
    }
    EXPECT_EQ(count(svg, "<polyline"), 4);
    // The legend in the order given, in the same styles.
    EXPECT_LT(svg.find(">base</text>"), svg.find(">a</text>"));
    EXPECT_LT(svg.find(">a</text>"), svg.find(">b</text>"));
    EXPECT_EQ(count(svg, "stroke=\"#000000\" stroke-width=\"2.5\""), 2);
    // b's marker: one dashed line in its colour, across the middle of the plot area.
    EXPECT_EQ(count(svg, "stroke-dasharray"), 1);
    EXPECT_NE(svg.find("<line x1=\"355.00\" y1=\"40\" x2=\"355.00\" y2=\"340\" stroke=\"#123456\" "
                       "stroke-dasharray=\"5 4\"/>"),
              std::string::npos);
}

TEST(SvgLinePlot, XAxisTakesInZeroAndMarkersWhenAsked) {
    LinePlot plot;
    plot.series.push_back(series("late", {3, 4}, {1, 2}));
    EXPECT_EQ(attributes(svg_line_plot(plot), "points").at(0), "80.00,340.00 630.00,40.00");
    plot.x_from_zero = true;
    EXPECT_EQ(count(svg_line_plot(plot), ">0</text>"), 1);  // 0 to 4: x ticks 0, 1, ..., 4
    plot.x_from_zero = false;
    plot.series[0].marker = 6;  // beyond the points: the axis reaches it
    EXPECT_EQ(count(svg_line_plot(plot), ">6</text>"), 1);
}

TEST(SvgLinePlot, WellFormedWithItsTextEscaped) {
    LinePlot plot;
    plot.title = "p<1> & \"q\"";
    plot.x_label = "t [s]";
    plot.y_label = "a&b";
    plot.series.push_back(series("<base>", {0, 0.5, 1}, {1, 3, 2}));
    plot.series.push_back(series("x & y", {0.5}, {2}));
    const std::string svg = svg_line_plot(plot);
    ASSERT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\"", 0), 0u);
    EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
    EXPECT_EQ(xml_problem(svg), "");
    EXPECT_NE(svg.find(">p&lt;1&gt; &amp; &quot;q&quot;</text>"), std::string::npos);
    EXPECT_NE(svg.find(">a&amp;b</text>"), std::string::npos);
    EXPECT_NE(svg.find(">t [s]</text>"), std::string::npos);
    EXPECT_NE(svg.find(">&lt;base&gt;</text>"), std::string::npos);
    // The checker itself catches what it is there for.
    EXPECT_NE(xml_problem("<svg><text>a</svg>"), "");
    EXPECT_NE(xml_problem("<svg><text>a & b</text></svg>"), "");
    EXPECT_NE(xml_problem("<svg x=\"<\"/>"), "");
}

TEST(SvgLinePlot, NoSeriesGivesAnEmptyFrameAroundZero) {
    const std::string svg = svg_line_plot(LinePlot{});
    EXPECT_EQ(xml_problem(svg), "");
    EXPECT_EQ(count(svg, "<polyline"), 0);
    EXPECT_EQ(count(svg, "<circle"), 0);
    EXPECT_EQ(count(svg, ">-0.6</text>"), 2);  // the lowest tick of both axes
    EXPECT_EQ(count(svg, ">0.6</text>"), 2);
}

// 100,000 rows with one spike and one dip: both stay, the first and last rows too, in order.
TEST(MinMaxThinning, KeepsEachBucketsExtremesInOrder) {
    std::vector<double> x, y;
    for (int i = 0; i < 100000; ++i) {
        x.push_back(i);
        y.push_back(i == 54321 ? 10.0 : i == 7777 ? -10.0 : std::sin(i * 1e-3));
    }
    const SeriesPoints kept = min_max_thinned(x, y, 1000);
    ASSERT_EQ(kept.x.size(), kept.y.size());
    EXPECT_LE(kept.x.size(), 1000u);
    EXPECT_GE(kept.x.size(), 900u);
    EXPECT_EQ(kept.x.front(), 0.0);
    EXPECT_EQ(kept.x.back(), 99999.0);
    for (std::size_t i = 1; i < kept.x.size(); ++i) ASSERT_LT(kept.x[i - 1], kept.x[i]) << i;
    const auto at = [&](double where) {
        for (std::size_t i = 0; i < kept.x.size(); ++i)
            if (kept.x[i] == where) return kept.y[i];
        return kNaN;
    };
    EXPECT_EQ(at(54321), 10.0);
    EXPECT_EQ(at(7777), -10.0);
    // A short series comes back whole.
    const SeriesPoints whole = min_max_thinned({0, 1, 2}, {3, kNaN, 5}, 1000);
    EXPECT_EQ(whole.x, (std::vector<double>{0, 1, 2}));
    EXPECT_TRUE(std::isnan(whole.y[1]));
}

TEST(MinMaxThinning, AGapStaysAGap) {
    std::vector<double> x, y;
    for (int i = 0; i < 10000; ++i) {
        x.push_back(i);
        y.push_back(i >= 5000 && i < 5003 ? kNaN : 1.0);
    }
    const SeriesPoints kept = min_max_thinned(x, y, 100);
    int gaps = 0;
    for (double v : kept.y) gaps += std::isnan(v);
    EXPECT_EQ(gaps, 1);
    LinePlot plot;
    PlotSeries s = series("gap", x, y);
    plot.series.push_back(s);
    plot.max_points = 100;
    plot.thinning = Thinning::kMinMax;
    EXPECT_EQ(count(svg_line_plot(plot), "<polyline"), 2);  // either side of the gap
}

TEST(SvgStackedBars, SegmentsToScaleAndWellFormed) {
    StackedBars chart;
    chart.title = "time <per> device";
    chart.value_label = "wall time [s]";
    chart.bars = {"device 0", "device 1"};
    chart.parts = {"a", "b & c", "d"};
    chart.values = {{1, 2, 3}, {6, 0, -1}};  // the longest bar, 6: ticks 0 to 6
    const std::string svg = svg_stacked_bars(chart);
    EXPECT_EQ(xml_problem(svg), "");
    // 680 px for 6 s: 113.33 px a second; a zero or negative segment is not drawn.
    const std::vector<std::string> widths = attributes(svg, "width");
    for (const char* w : {"113.33", "226.67", "340.00", "680.00"})
        EXPECT_EQ(std::count(widths.begin(), widths.end(), w), 1) << w;
    EXPECT_EQ(count(svg, "<title>"), 4);
    EXPECT_EQ(count(svg, "<title>b &amp; c: 2</title>"), 1);
    EXPECT_EQ(count(svg, ">time &lt;per&gt; device</text>"), 1);
    EXPECT_EQ(count(svg, ">6</text>"), 1);  // the axis's last tick
    chart.values.pop_back();
    EXPECT_THROW(svg_stacked_bars(chart), std::invalid_argument);
}

}  // namespace
}  // namespace sph
