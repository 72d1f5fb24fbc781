// Stacked horizontal bars as a self-contained SVG 1.1 document, written by hand as svg_plot.h's
// line plots are: report.html's time breakdown, a bar per device and a segment per stage.
#pragma once

#include <string>
#include <vector>

namespace sph {

struct StackedBars {
    std::string title, value_label;           // above the chart; under the value axis
    std::vector<std::string> bars;            // each bar's label, top to bottom
    std::vector<std::string> parts;           // the segments' names, in stacking and legend order
    std::vector<std::vector<double>> values;  // [bar][part]; a negative or non-finite value, or
                                              // a missing one, is drawn as 0
};

// 800 wide, as tall as its bars and legend need: bar labels to the left, the value axis from 0
// on nice_ticks (svg_plot.h) below the bars, the legend under it in rows of three. Each segment
// has its part's colour (the palette's ten, then two more) and a <title> (shown on hovering) with
// its name and value. Throws std::invalid_argument when `values` has not one row per bar.
std::string svg_stacked_bars(const StackedBars& chart);

}  // namespace sph
