// The hand-written SVG line plot (svg_plot.h): axes with nice ticks, one polyline per run of
// finite points, dashed markers and a legend. Coordinates are printed to 0.01 px so that the same
// data always give the same bytes.
#include "report/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <sstream>

#include "report/series_thinning.h"
#include "xml_escape.h"

namespace sph {

namespace {

// The plot area inside the 800 x 400 picture; the legend goes to its right.
constexpr double kLeft = 80, kRight = 630, kTop = 40, kBottom = 340;
constexpr const char* kEmphasisedColour = "#000000";
constexpr double kStrokeWidth = 1.5, kEmphasisedStrokeWidth = 2.5;

// An axis from lo to hi, a tick every `step`.
struct Axis {
    double lo = 0, hi = 1, step = 0.2;
    double along(double v) const { return (v - lo) / (hi - lo); }
};

// The finest step of 1, 2 or 5 x 10^k (k from a sixth of the range) that needs at most six whole
// steps, else 10^(k+1); the range widened to whole steps.
Axis nice_axis(double lo, double hi) {
    if (!(hi > lo)) {  // one value (or none): a range around it
        const double pad = 0.5 * std::max(1.0, std::fabs(lo));
        lo -= pad;
        hi += pad;
    }
    const double magnitude = std::pow(10.0, std::floor(std::log10((hi - lo) / 6.0)));
    Axis axis;
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        axis = {std::floor(lo / (m * magnitude)) * m * magnitude,
                std::ceil(hi / (m * magnitude)) * m * magnitude, m * magnitude};
        if ((axis.hi - axis.lo) / axis.step < 6.5) break;
    }
    return axis;
}

std::vector<double> ticks_of(const Axis& a) {
    std::vector<double> ticks;
    const int n = int(std::lround((a.hi - a.lo) / a.step));
    for (int i = 0; i <= n; ++i) {
        const double v = a.lo + i * a.step;
        ticks.push_back(std::fabs(v) < 1e-9 * a.step ? 0.0 : v);  // no "-0" or "1e-17"
    }
    return ticks;
}

// A series as drawn: thinned, its colour and width settled.
struct Line {
    const PlotSeries* series = nullptr;
    std::vector<double> x, y;
    std::string colour;
    double width = kStrokeWidth;
};

// Thinned as the plot asks, so that no line has more than about max_points: every k-th point
// and the last, or each bucket's extremes (series_thinning.h).
Line line_of(const PlotSeries& s, std::size_t max_points, Thinning thinning) {
    Line line;
    line.series = &s;
    line.width = s.emphasised ? kEmphasisedStrokeWidth : kStrokeWidth;
    if (thinning == Thinning::kMinMax) {
        SeriesPoints kept = min_max_thinned(s.x, s.y, max_points);
        line.x = std::move(kept.x);
        line.y = std::move(kept.y);
        return line;
    }
    const std::size_t n = std::min(s.x.size(), s.y.size());
    const std::size_t most = std::max<std::size_t>(1, max_points);
    const std::size_t k = std::max<std::size_t>(1, (n + most - 1) / most);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % k != 0 && i + 1 != n) continue;
        line.x.push_back(s.x[i]);
        line.y.push_back(s.y[i]);
    }
    return line;
}

std::vector<Line> lines_of(const LinePlot& plot) {
    std::vector<Line> lines;
    std::size_t next_colour = 0;
    for (const PlotSeries& s : plot.series) {
        Line line = line_of(s, plot.max_points, plot.thinning);
        line.colour = !s.colour.empty() ? s.colour
                      : s.emphasised    ? kEmphasisedColour
                                        : palette_colour(next_colour++);
        lines.push_back(std::move(line));
    }
    return lines;
}

struct Frame {
    Axis x, y;
    double px(double v) const { return kLeft + x.along(v) * (kRight - kLeft); }
    double py(double v) const { return kBottom - y.along(v) * (kBottom - kTop); }
};

Frame frame_of(const LinePlot& plot, const std::vector<Line>& lines) {
    const double inf = std::numeric_limits<double>::infinity();
    double x0 = plot.x_from_zero ? 0.0 : inf, x1 = plot.x_from_zero ? 0.0 : -inf;
    double y0 = inf, y1 = -inf;
    for (const Line& line : lines) {
        for (std::size_t i = 0; i < line.x.size(); ++i) {
            if (!std::isfinite(line.x[i])) continue;
            x0 = std::min(x0, line.x[i]);
            x1 = std::max(x1, line.x[i]);
            if (!std::isfinite(line.y[i])) continue;
            y0 = std::min(y0, line.y[i]);
            y1 = std::max(y1, line.y[i]);
        }
        if (std::isfinite(line.series->marker)) {
            x0 = std::min(x0, line.series->marker);
            x1 = std::max(x1, line.series->marker);
        }
    }
    if (x0 > x1) x0 = x1 = 0.0;  // nothing to draw: an empty plot around 0
    if (y0 > y1) y0 = y1 = 0.0;
    return {nice_axis(x0, x1), nice_axis(y0, y1)};
}

void svg_axes(std::ostream& out, const Frame& f, const LinePlot& plot) {
    for (double t : ticks_of(f.x)) {
        const std::string x = svg_coord(f.px(t));
        out << "<line x1=\"" << x << "\" y1=\"" << kBottom << "\" x2=\"" << x << "\" y2=\""
            << kBottom + 5 << "\" stroke=\"#444\"/>\n<text x=\"" << x << "\" y=\"" << kBottom + 20
            << "\" text-anchor=\"middle\">" << svg_number(t) << "</text>\n";
    }
    for (double v : ticks_of(f.y)) {
        const std::string y = svg_coord(f.py(v));
        out << "<line x1=\"" << kLeft - 5 << "\" y1=\"" << y << "\" x2=\"" << kRight << "\" y2=\""
            << y << "\" stroke=\"#ddd\"/>\n<text x=\"" << kLeft - 8 << "\" y=\"" << y
            << "\" dy=\"4\" text-anchor=\"end\">" << svg_number(v) << "</text>\n";
    }
    // The frame over the grid lines.
    out << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kRight - kLeft
        << "\" height=\"" << kBottom - kTop << "\" fill=\"none\" stroke=\"#444\"/>\n";
    const double middle_y = (kTop + kBottom) / 2;
    out << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"" << kBottom + 45
        << "\" text-anchor=\"middle\">" << xml_attribute_escape(plot.x_label) << "</text>\n"
        << "<text x=\"18\" y=\"" << middle_y
        << "\" text-anchor=\"middle\" transform=\"rotate(-90 18 " << middle_y << ")\">"
        << xml_attribute_escape(plot.y_label) << "</text>\n"
        << "<text x=\"" << (kLeft + kRight) / 2 << "\" y=\"24\" text-anchor=\"middle\" "
        << "font-weight=\"bold\">" << xml_attribute_escape(plot.title) << "</text>\n";
}

void svg_marker(std::ostream& out, const Frame& f, const Line& line) {
    if (!std::isfinite(line.series->marker)) return;
    const std::string x = svg_coord(f.px(line.series->marker));
    out << "<line x1=\"" << x << "\" y1=\"" << kTop << "\" x2=\"" << x << "\" y2=\"" << kBottom
        << "\" stroke=\"" << line.colour << "\" stroke-dasharray=\"5 4\"/>\n";
}

// Each run of finite points becomes one polyline (a lone point, a dot).
void svg_line(std::ostream& out, const Frame& f, const Line& line) {
    std::vector<std::string> run;
    const auto flush = [&] {
        if (run.size() == 1) {
            const std::size_t comma = run[0].find(',');
            out << "<circle cx=\"" << run[0].substr(0, comma) << "\" cy=\""
                << run[0].substr(comma + 1) << "\" r=\"2\" fill=\"" << line.colour << "\"/>\n";
        } else if (run.size() > 1) {
            out << "<polyline fill=\"none\" stroke=\"" << line.colour << "\" stroke-width=\""
                << line.width << "\" points=\"";
            for (std::size_t i = 0; i < run.size(); ++i) out << (i ? " " : "") << run[i];
            out << "\"/>\n";
        }
        run.clear();
    };
    for (std::size_t i = 0; i < line.x.size(); ++i) {
        if (std::isfinite(line.x[i]) && std::isfinite(line.y[i])) {
            run.push_back(svg_coord(f.px(line.x[i])) + "," + svg_coord(f.py(line.y[i])));
        } else {
            flush();
        }
    }
    flush();
}

void svg_legend(std::ostream& out, const std::vector<Line>& lines) {
    double y = kTop + 10;
    for (const Line& line : lines) {
        out << "<line x1=\"" << kRight + 12 << "\" y1=\"" << y << "\" x2=\"" << kRight + 32
            << "\" y2=\"" << y << "\" stroke=\"" << line.colour << "\" stroke-width=\""
            << line.width << "\"/>\n<text x=\"" << kRight + 38 << "\" y=\"" << y << "\" dy=\"4\">"
            << xml_attribute_escape(line.series->label) << "</text>\n";
        y += 18;
    }
}

}  // namespace

std::string svg_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.6g", v);
    return text;
}

std::string svg_coord(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%.2f", v);
    return text;
}

std::string svg_line_plot(const LinePlot& plot) {
    const std::vector<Line> lines = lines_of(plot);
    const Frame f = frame_of(plot, lines);
    std::ostringstream out;
    out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"800\" "
           "height=\"400\" viewBox=\"0 0 800 400\" font-family=\"sans-serif\" font-size=\"12\">\n"
        << "<rect width=\"800\" height=\"400\" fill=\"white\"/>\n";
    svg_axes(out, f, plot);
    for (const Line& line : lines) svg_marker(out, f, line);
    // Last to first, so that the first listed lies on top, and the emphasised over all of them.
    for (bool emphasised : {false, true}) {
        for (auto it = lines.rbegin(); it != lines.rend(); ++it)
            if (it->series->emphasised == emphasised) svg_line(out, f, *it);
    }
    svg_legend(out, lines);
    out << "</svg>\n";
    return out.str();
}

std::vector<double> nice_ticks(double lo, double hi) {
    return ticks_of(nice_axis(lo, hi));
}

std::string palette_colour(std::size_t i) {
    static const char* const kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                           "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};
    return kPalette[i % (sizeof kPalette / sizeof kPalette[0])];
}

}  // namespace sph
