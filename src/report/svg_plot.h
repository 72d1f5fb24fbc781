// A line plot written as a self-contained SVG 1.1 document, by hand: the reports must come out
// wherever the simulator runs, so no plotting library. Used by the tree report, one plot per
// instrument, and by report.html; nothing in it knows about scenarios or gauges.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace sph {

// One line of a plot, with its legend entry.
struct PlotSeries {
    std::string label;         // its legend text
    std::vector<double> x, y;  // as many of each; a point whose x or y is not finite breaks the
                               // line there (a run of one point becomes a dot)
    std::string colour;        // "#rrggbb"; empty: black if emphasised, else the palette's next
    bool emphasised = false;   // wider, and drawn over the others: the reference they are read
                               // against
    double marker = std::numeric_limits<double>::quiet_NaN();  // x of a dashed vertical line in
                                                               // its colour; NaN: none
};

// How a series longer than a plot's max_points is thinned.
enum class Thinning {
    kEveryKth,  // every k-th point and the last: smooth series (the tree report's)
    kMinMax,    // each bucket's lowest and highest (series_thinning.h): peaks kept (report.html's)
};

struct LinePlot {
    std::string title, x_label, y_label;
    std::vector<PlotSeries> series;  // in legend order; drawn last to first, emphasised ones last
    bool x_from_zero = false;        // the x axis takes in 0 (time axes of runs that start there)
    std::size_t max_points = 2000;   // more points in a series are thinned, so that a long run
                                     // does not make a huge file
    Thinning thinning = Thinning::kEveryKth;
};

// 800 x 400, the legend to the right of the plot area; each axis on nice_ticks of its finite
// points (and, for x, its markers).
std::string svg_line_plot(const LinePlot& plot);

// The ticks of an axis that covers [lo, hi]: whole steps of 1, 2 or 5 x 10^k, from a multiple of
// the step at or below lo to one at or above hi; the finest such step that needs at most six
// steps, else a step of 10^(k+1), which can need seven (four to eight ticks). lo == hi (or lo >
// hi) gets a range around lo.
std::vector<double> nice_ticks(double lo, double hi);

// The i-th colour of the palette series take in turn (ten, then again from the first); for
// callers that keep one colour per thing across several plots.
std::string palette_colour(std::size_t i);

// Numbers as the SVG drawings write them: labels "%.6g" (as the reports print their numbers),
// coordinates to a hundredth of a pixel.
std::string svg_number(double v);
std::string svg_coord(double v);

}  // namespace sph
