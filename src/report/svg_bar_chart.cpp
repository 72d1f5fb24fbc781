// The hand-written SVG stacked bar chart (svg_bar_chart.h). Coordinates are printed to 0.01 px,
// as svg_plot.cpp prints them, so that the same figures always give the same bytes.
#include "report/svg_bar_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "report/svg_plot.h"
#include "xml_escape.h"

namespace sph {

namespace {

// The bars' area, across the picture; bar labels go to its left.
constexpr double kLeft = 90, kRight = 770, kTop = 40;
constexpr double kBarHeight = 24, kBarPitch = 36;
constexpr double kLegendColumn = 250, kLegendRow = 18;
constexpr int kLegendColumns = 3;

// The palette's ten colours, then two lighter ones: a bar of the time breakdown has twelve parts,
// and no two of them may look alike.
std::string part_colour(std::size_t part) {
    static const char* const kMore[] = {"#ffbb78", "#c7c7c7"};
    return part < 10 ? palette_colour(part) : kMore[(part - 10) % 2];
}

// A value as drawn: what cannot be a length is none.
double drawn(const std::vector<double>& row, std::size_t part) {
    const double v = part < row.size() ? row[part] : 0.0;
    return std::isfinite(v) && v > 0.0 ? v : 0.0;
}

double longest_bar(const StackedBars& chart) {
    double longest = 0.0;
    for (const std::vector<double>& row : chart.values) {
        double total = 0.0;
        for (std::size_t p = 0; p < chart.parts.size(); ++p) total += drawn(row, p);
        longest = std::max(longest, total);
    }
    return longest;
}

void svg_bars(std::ostream& out, const StackedBars& chart, double scale) {
    for (std::size_t b = 0; b < chart.bars.size(); ++b) {
        const double y = kTop + b * kBarPitch;
        out << "<text x=\"" << kLeft - 8 << "\" y=\"" << svg_coord(y + kBarHeight / 2)
            << "\" dy=\"4\" text-anchor=\"end\">" << xml_attribute_escape(chart.bars[b])
            << "</text>\n";
        double x = kLeft;
        for (std::size_t p = 0; p < chart.parts.size(); ++p) {
            const double v = drawn(chart.values[b], p);
            if (v <= 0.0) continue;
            out << "<rect x=\"" << svg_coord(x) << "\" y=\"" << svg_coord(y) << "\" width=\""
                << svg_coord(v * scale) << "\" height=\"" << kBarHeight << "\" fill=\""
                << part_colour(p) << "\"><title>" << xml_attribute_escape(chart.parts[p]) << ": "
                << svg_number(chart.values[b][p]) << "</title></rect>\n";
            x += v * scale;
        }
    }
}

// The value axis under the bars, from 0, and its grid lines across them.
void svg_value_axis(std::ostream& out, const StackedBars& chart, const std::vector<double>& ticks,
                    double scale) {
    const double axis = kTop + chart.bars.size() * kBarPitch;
    out << "<line x1=\"" << kLeft << "\" y1=\"" << svg_coord(axis) << "\" x2=\"" << kRight
        << "\" y2=\"" << svg_coord(axis) << "\" stroke=\"#444\"/>\n";
    for (double t : ticks) {
        const std::string x = svg_coord(kLeft + t * scale);
        out << "<line x1=\"" << x << "\" y1=\"" << svg_coord(kTop - 4) << "\" x2=\"" << x
            << "\" y2=\"" << svg_coord(axis + 5) << "\" stroke=\"#ddd\"/>\n<text x=\"" << x
            << "\" y=\"" << svg_coord(axis + 20) << "\" text-anchor=\"middle\">" << svg_number(t)
            << "</text>\n";
    }
    out << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << svg_coord(axis + 42)
        << "\" text-anchor=\"middle\">" << xml_attribute_escape(chart.value_label) << "</text>\n";
}

void svg_legend(std::ostream& out, const StackedBars& chart, double top) {
    for (std::size_t p = 0; p < chart.parts.size(); ++p) {
        const double x = 20 + (p % kLegendColumns) * kLegendColumn;
        const double y = top + (p / kLegendColumns) * kLegendRow;
        out << "<rect x=\"" << svg_coord(x) << "\" y=\"" << svg_coord(y - 9) << "\" width=\"12\" "
            << "height=\"12\" fill=\"" << part_colour(p) << "\"/>\n<text x=\"" << svg_coord(x + 18)
            << "\" y=\"" << svg_coord(y) << "\" dy=\"1\">" << xml_attribute_escape(chart.parts[p])
            << "</text>\n";
    }
}

}  // namespace

std::string svg_stacked_bars(const StackedBars& chart) {
    if (chart.values.size() != chart.bars.size()) {
        throw std::invalid_argument("svg_stacked_bars: " + std::to_string(chart.values.size()) +
                                    " rows of values for " + std::to_string(chart.bars.size()) +
                                    " bars");
    }
    const double longest = longest_bar(chart);
    const std::vector<double> ticks = nice_ticks(0.0, longest > 0.0 ? longest : 1.0);
    const double scale = (kRight - kLeft) / ticks.back();
    const std::size_t legend_rows = (chart.parts.size() + kLegendColumns - 1) / kLegendColumns;
    const double legend_top = kTop + chart.bars.size() * kBarPitch + 62;
    const double height = legend_top + legend_rows * kLegendRow + 10;
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"800\" height=\""
        << svg_coord(height) << "\" viewBox=\"0 0 800 " << svg_coord(height)
        << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"800\" height=\""
        << svg_coord(height) << "\" fill=\"white\"/>\n<text x=\"" << (kLeft + kRight) / 2
        << "\" y=\"24\" text-anchor=\"middle\" font-weight=\"bold\">"
        << xml_attribute_escape(chart.title) << "</text>\n";
    svg_value_axis(out, chart, ticks, scale);  // its grid lines under the bars
    svg_bars(out, chart, scale);
    svg_legend(out, chart, legend_top);
    out << "</svg>\n";
    return out.str();
}

}  // namespace sph
