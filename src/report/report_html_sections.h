// The sections of report.html (report_html.h), each a <section> with its heading, that
// report_html.cpp puts together; and what they share. Internal to src/report/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/balance_history.h"
#include "report/gauge_table.h"
#include "report/report_html.h"
#include "report/svg_plot.h"

namespace sph::report_html {

// A file read back: its contents, or none and why (empty: there was no such file).
template <class Contents>
struct ReadBack {
    std::optional<Contents> contents;
    std::string error;
};

// Every gauges.csv column plotted over time, by kind, with each one's figures.
std::string instruments_section(const ReadBack<GaugeTable>& gauges,
                                const ReadBack<GaugeTable>& filtered,
                                const ReportHtmlSources& sources);
// The wall panels' forces on one plot and their moments on another, with their peaks.
std::string loads_section(const ReadBack<GaugeTable>& gauges, const ReportHtmlSources& sources);
// The wall time, and per device each stage's share of the time loop (bars and a table).
std::string time_section(const RunReport& report);
// The balancer's counts, each device's slices and particles, and load_balance.csv's history.
std::string balancing_section(const RunReport& report, const ReadBack<BalanceHistory>& history);
// The run (what the report says of it), its options and its physics, as tables.
std::string settings_section(const RunReport& report, const ReportHtmlSources& sources);

// A plot of `series` over simulated time, its lines thinned to the page's budget (kPlotPoints
// between them, min/max-preserving).
LinePlot time_plot(const std::string& title, const std::string& y_label,
                   std::vector<PlotSeries> series);
// A figure of `plot` whose caption is `caption` and, where a line was thinned, says so.
std::string plot_figure(const LinePlot& plot, const std::string& caption);

}  // namespace sph::report_html
