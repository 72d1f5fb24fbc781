// report.html's instruments and loads (report_html_sections.h): gauges.csv's columns plotted
// over time, a section per kind, and the wall panels' forces and moments drawn together.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>

#include "report/html_parts.h"
#include "report/report_html_sections.h"

namespace sph::report_html {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A kind's section of the page and its plots' axis, in the order of gauges.csv's columns.
struct KindSection {
    std::optional<ColumnKind> kind;  // none: columns the run did not describe
    const char* title;
    const char* axis;
};
const KindSection kSections[] = {
    {ColumnKind::kWaterHeight, "Water heights", "water height [m]"},
    {ColumnKind::kProbePressure, "Probe pressures", "pressure [Pa]"},
    {ColumnKind::kWallPressure, "Wall sensors", "pressure on the wall [Pa]"},
    {ColumnKind::kPanelForce, "Wall panels: forces", "force [N]"},
    {ColumnKind::kPanelMoment, "Wall panels: moments", "moment [N m]"},
    {ColumnKind::kSurfaceForce, "Surface panels", "force [N]"},
    {ColumnKind::kFront, "Surge front", "front position [m]"},
    {std::nullopt, "Other columns", "value"},
};

std::optional<ColumnKind> kind_of(const std::string& column, const ReportHtmlSources& sources) {
    for (const InstrumentColumn& c : sources.columns)
        if (c.name == column) return c.kind;
    return std::nullopt;
}

std::vector<int> columns_of(const GaugeTable& g, const ReportHtmlSources& sources,
                            const std::vector<std::optional<ColumnKind>>& kinds) {
    std::vector<int> columns;
    for (std::size_t c = 0; c < g.columns.size(); ++c) {
        const std::optional<ColumnKind> kind = kind_of(g.columns[c], sources);
        if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) columns.push_back(int(c));
    }
    return columns;
}

PlotSeries series_of(const GaugeTable& g, int column, const std::string& label) {
    PlotSeries s;
    s.label = label;
    s.x = g.times;
    s.y = g.values[column];
    return s;
}

// A column's largest and smallest value and when, and its last; NaN rows left out.
struct Figures {
    double max = kNaN, time_of_max = kNaN, min = kNaN, time_of_min = kNaN, last = kNaN;
};

Figures figures_of(const GaugeTable& g, int column) {
    Figures f;
    const std::vector<double>& values = g.values[column];
    for (std::size_t r = 0; r < values.size(); ++r) {
        const double v = values[r];
        if (std::isnan(v)) continue;
        if (std::isnan(f.max) || v > f.max) f.max = v, f.time_of_max = g.times[r];
        if (std::isnan(f.min) || v < f.min) f.min = v, f.time_of_min = g.times[r];
        f.last = v;
    }
    return f;
}

HtmlTable figures_table(const GaugeTable& g, const std::vector<int>& columns) {
    HtmlTable table;
    table.head = {"column", "max", "t of max [s]", "min", "t of min [s]", "last"};
    for (int c : columns) {
        const Figures f = figures_of(g, c);
        table.rows.push_back({g.columns[c], html_number(f.max), html_number(f.time_of_max),
                              html_number(f.min), html_number(f.time_of_min), html_number(f.last)});
    }
    return table;
}

// One column's plot: its series, and the low-passed one over it where there is one.
std::string column_figure(const GaugeTable& g, int column, const GaugeTable* filtered,
                          const char* axis) {
    const std::string& name = g.columns[column];
    std::vector<PlotSeries> series{series_of(g, column, name)};
    const int low_passed = filtered ? filtered->column(name) : -1;
    if (low_passed >= 0) series.push_back(series_of(*filtered, low_passed, name + " low-passed"));
    return plot_figure(time_plot(name, axis, std::move(series)),
                       name + ": " + axis + " over simulated time");
}

std::string gauges_intro(const GaugeTable& g, const ReadBack<GaugeTable>& filtered) {
    std::ostringstream text;
    text << "gauges.csv: " << g.times.size() << " rows";
    if (!g.times.empty()) {
        text << " from t = " << html_number(g.times.front()) << " s to "
             << html_number(g.times.back()) << " s";
    }
    text << ", " << g.columns.size() << " columns, each plotted over simulated time below, with "
         << "its largest, smallest and last value in the section's table (of every row).";
    if (filtered.contents) {
        text << " The series of gauges_filtered.csv (--gauge-filter) are drawn over them as "
                "\"low-passed\".";
    } else if (!filtered.error.empty()) {
        text << " gauges_filtered.csv could not be read: " << filtered.error << ".";
    }
    text << " A plot keeps at most " << kPlotPoints << " points between its lines (at least "
         << kLeastLinePoints << " a line): a longer series is thinned for drawing, its rows taken "
         << "in buckets and each bucket's lowest and highest value kept, so that peaks stay; "
         << "such a plot's caption says so.";
    return text.str();
}

std::string missing_gauges(const ReadBack<GaugeTable>& gauges, const ReportHtmlSources& sources) {
    if (!gauges.error.empty())
        return html_paragraph("gauges.csv could not be read: " + gauges.error, "note");
    return html_paragraph(
        sources.no_gauges_note.empty() ? "No gauges.csv was written." : sources.no_gauges_note,
        "note");
}

}  // namespace

std::string instruments_section(const ReadBack<GaugeTable>& gauges,
                                const ReadBack<GaugeTable>& filtered,
                                const ReportHtmlSources& sources) {
    std::ostringstream out;
    out << "<section id=\"instruments\">\n<h2>Instruments over time</h2>\n";
    if (!gauges.contents) {
        out << missing_gauges(gauges, sources) << "</section>\n";
        return out.str();
    }
    const GaugeTable& g = *gauges.contents;
    out << html_paragraph(gauges_intro(g, filtered));
    const GaugeTable* low_passed = filtered.contents ? &*filtered.contents : nullptr;
    for (const KindSection& section : kSections) {
        const std::vector<int> columns = columns_of(g, sources, {section.kind});
        if (columns.empty()) continue;
        out << "<h3>" << html_escape(section.title) << "</h3>\n<div class=\"plots\">\n";
        for (int c : columns) out << column_figure(g, c, low_passed, section.axis);
        out << "</div>\n" << html_table(figures_table(g, columns));
    }
    out << "</section>\n";
    return out.str();
}

std::string loads_section(const ReadBack<GaugeTable>& gauges, const ReportHtmlSources& sources) {
    std::ostringstream out;
    out << "<section id=\"loads\">\n<h2>Loads on the walls</h2>\n";
    if (!gauges.contents) {
        out << missing_gauges(gauges, sources) << "</section>\n";
        return out.str();
    }
    const GaugeTable& g = *gauges.contents;
    const std::vector<int> forces =
        columns_of(g, sources, {ColumnKind::kPanelForce, ColumnKind::kSurfaceForce});
    const std::vector<int> moments = columns_of(g, sources, {ColumnKind::kPanelMoment});
    if (forces.empty() && moments.empty()) {
        out << html_paragraph(
                   "This run has no wall panels (--wall-panel, --wall-moment and "
                   "--wall-surface add them).",
                   "note")
            << "</section>\n";
        return out.str();
    }
    out << html_paragraph(
               "The wall panels' forces on one plot and their moments on another, "
               "to compare them; positive where the water pushes on the wall.")
        << "<div class=\"plots\">\n";
    const auto group = [&](const std::vector<int>& columns, const char* title, const char* axis) {
        if (columns.empty()) return;
        std::vector<PlotSeries> series;
        for (int c : columns) series.push_back(series_of(g, c, g.columns[c]));
        out << plot_figure(time_plot(title, axis, std::move(series)),
                           std::string(title) + " over simulated time");
    };
    group(forces, "Forces on the wall panels", "force [N]");
    group(moments, "Moments about the panels' edges", "moment [N m]");
    std::vector<int> loads = forces;
    loads.insert(loads.end(), moments.begin(), moments.end());
    HtmlTable peaks = figures_table(g, loads);
    peaks.caption = "Peak loads (forces in N, moments in N m)";
    out << "</div>\n" << html_table(peaks) << "</section>\n";
    return out.str();
}

}  // namespace sph::report_html
