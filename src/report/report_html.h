// report.html: the run report with pictures, written beside run_report.json. One self-contained
// file (inline SVG and CSS, no script, font or link to fetch), so that it opens in any browser
// with no network: every instrument of gauges.csv plotted over time, the wall panels' loads
// together, the time breakdown per stage and device, the load balancing history, and the run's
// settings. docs/run-report.md says what it shows.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "report/run_report.h"

namespace sph {

// What a column of gauges.csv measures: the section of the page it is drawn in and its axis.
enum class ColumnKind {
    kWaterHeight,    // a gauge [m]
    kProbePressure,  // a probe in the water [Pa]
    kWallPressure,   // a wall sensor's disc [Pa]
    kPanelForce,     // a load panel [N]
    kPanelMoment,    // a moment panel [N m]
    kSurfaceForce,   // a surface panel [N]
    kFront,          // the surge front's position [m]
};

struct InstrumentColumn {
    std::string name;
    ColumnKind kind;
};

// What the page is drawn from besides the RunReport: the files the run wrote, what each gauge
// column measures, and the settings the report does not hold.
struct ReportHtmlSources {
    std::string gauges_csv;  // empty: none was written; `no_gauges_note` says why
    std::string no_gauges_note;
    std::string filtered_csv;  // gauges_filtered.csv, drawn over the series where it exists
    std::string balance_csv;   // load_balance.csv, where the run had a balancer; else empty
    std::vector<InstrumentColumn> columns;  // a gauges.csv column not listed is drawn as "other"
    std::vector<std::pair<std::string, std::string>> options;  // the run's options, name and value
};

// The most points a plot's lines keep between them (each at least kLeastLinePoints): a longer
// series is thinned keeping each bucket's lowest and highest value (series_thinning.h).
constexpr std::size_t kPlotPoints = 2000, kLeastLinePoints = 200;

// The page. A gauges.csv or load_balance.csv that cannot be read is named, with why, in its
// section, rather than failing the page.
std::string report_html_text(const RunReport& report, const ReportHtmlSources& sources);

// Written atomically (a temporary file renamed), as run_report.json is. Throws
// std::runtime_error naming the path when it cannot be written.
void write_report_html(const RunReport& report, const ReportHtmlSources& sources,
                       const std::string& path);

}  // namespace sph
