// report.html (report_html.h): the page put together from its sections, with its style sheet
// and the plots' shared thinning; gauges.csv, gauges_filtered.csv and load_balance.csv read back.
#include "report/report_html.h"

#include <algorithm>
#include <exception>
#include <sstream>

#include "atomic_file.h"
#include "report/html_parts.h"
#include "report/report_html_sections.h"

namespace sph {

namespace report_html {

LinePlot time_plot(const std::string& title, const std::string& y_label,
                   std::vector<PlotSeries> series) {
    LinePlot plot;
    plot.title = title;
    plot.x_label = "t [s]";
    plot.y_label = y_label;
    plot.x_from_zero = true;
    plot.thinning = Thinning::kMinMax;
    plot.max_points =
        std::max(kPlotPoints / std::max<std::size_t>(1, series.size()), kLeastLinePoints);
    plot.series = std::move(series);
    return plot;
}

std::string plot_figure(const LinePlot& plot, const std::string& caption) {
    std::size_t longest = 0;
    for (const PlotSeries& s : plot.series)
        longest = std::max(longest, std::min(s.x.size(), s.y.size()));
    std::string text = caption + ".";
    if (longest > plot.max_points) {
        text += " Thinned for drawing: each line keeps at most " + std::to_string(plot.max_points) +
                " of its " + std::to_string(longest) +
                " points, the lowest and highest of each bucket of rows.";
    }
    return html_figure(svg_line_plot(plot), text);
}

}  // namespace report_html

namespace {

using report_html::ReadBack;

// Plots side by side where the window is wide; every picture scales with it. No fonts are
// fetched: the browser's own sans-serif.
constexpr const char* kStyle =
    R"(body{font-family:sans-serif;color:#222;margin:1.5em auto;max-width:1700px;padding:0 1em}
h1{font-size:1.6em;margin-bottom:.2em}
h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:1.8em}
nav a{margin-right:1.2em}
.plots{display:flex;flex-wrap:wrap;gap:12px}
figure{margin:0 0 12px 0;flex:1 1 560px;max-width:820px}
figure svg{display:block;width:100%;height:auto;border:1px solid #ddd}
figcaption{font-size:.85em;color:#555;margin-top:.3em}
.tables{display:flex;flex-wrap:wrap;gap:0 2em;align-items:flex-start}
table{border-collapse:collapse;margin:.8em 0;font-size:.9em}
caption{text-align:left;font-weight:bold;padding:.3em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;vertical-align:top}
thead th{background:#f0f0f0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.note{color:#555;font-style:italic}
.failed,.error{color:#b00000}
)";

template <class Contents, class Reader>
ReadBack<Contents> read_back(const std::string& path, Reader read) {
    ReadBack<Contents> file;
    if (path.empty()) return file;
    try {
        file.contents = read(path);
    } catch (const std::exception& e) {
        file.error = e.what();
    }
    return file;
}

std::string summary(const RunReport& r) {
    std::ostringstream text;
    text << r.status << ": " << r.particles << " particles to t = " << html_number(r.simulated_time)
         << " s in " << r.iterations << " iterations; " << html_number(r.loop_seconds)
         << " s of time loop at " << html_number(r.kips()) << " kips on " << r.device << " ("
         << r.backend << ").";
    std::string html =
        html_paragraph(text.str(), r.status == "completed" ? "status" : "status failed");
    if (!r.error.empty()) html += html_paragraph(r.error, "error");
    return html;
}

std::string navigation() {
    return "<nav><a href=\"#instruments\">Instruments</a><a href=\"#loads\">Loads</a>"
           "<a href=\"#time\">Time</a><a href=\"#balancing\">Load balancing</a>"
           "<a href=\"#settings\">Settings</a></nav>\n";
}

}  // namespace

std::string report_html_text(const RunReport& report, const ReportHtmlSources& sources) {
    const auto gauges = read_back<GaugeTable>(sources.gauges_csv, read_gauge_table);
    const auto filtered = read_back<GaugeTable>(sources.filtered_csv, read_gauge_table);
    const auto history = read_back<BalanceHistory>(sources.balance_csv, read_balance_history);
    const std::string title = report.problem + ": run report";
    std::ostringstream page;
    page << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>"
         << html_escape(title) << "</title>\n<style>\n"
         << kStyle << "</style>\n</head>\n<body>\n"
         << "<h1>" << html_escape(title) << "</h1>\n"
         << summary(report) << navigation()
         << html_paragraph(
                "The figures in full are in run_report.json beside this page "
                "(docs/run-report.md), the series in gauges.csv.",
                "note")
         << report_html::instruments_section(gauges, filtered, sources)
         << report_html::loads_section(gauges, sources) << report_html::time_section(report)
         << report_html::balancing_section(report, history)
         << report_html::settings_section(report, sources) << "</body>\n</html>\n";
    return page.str();
}

void write_report_html(const RunReport& report, const ReportHtmlSources& sources,
                       const std::string& path) {
    write_text_file_atomically(path, report_html_text(report, sources));
}

}  // namespace sph
