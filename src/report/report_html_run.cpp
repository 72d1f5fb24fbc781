// report.html's time breakdown and load balancing (report_html_sections.h): where each device's
// time loop went, stage by stage, and how the balancer moved the slices.
#include <sstream>
#include <utility>
#include <vector>

#include "report/html_parts.h"
#include "report/report_html_sections.h"
#include "report/svg_bar_chart.h"

namespace sph::report_html {

namespace {

// The parts of a device's time loop in stacking order: its stages, its waits, and the main
// thread's work that every device waits through; with "other" they make up this run's loop
// (docs/run-report.md: other_s).
std::vector<std::pair<const char*, double>> time_parts(const DeviceReport& d, const RunReport& r) {
    const KernelTimes& k = d.kernels;
    const WorkerStats& w = d.worker;
    return {{"BuildNeibs", k.build_neibs},
            {"Forces", k.forces},
            {"MinimumScan", k.minimum_scan},
            {"Euler", k.euler},
            {"dt minima wait", w.dt_wait_seconds},
            {"neighbour Euler wait", w.marker_wait_seconds},
            {"MPI edge forces", w.rank_forces_seconds},
            {"rebuild wait", w.rebuild_wait_seconds},
            {"migration", w.migration_seconds},
            {"output (main thread)", r.output_seconds},
            {"load balancing (main thread)", r.balance_seconds},
            {"other", d.other_seconds(r.own_loop_seconds(), r.output_seconds + r.balance_seconds)}};
}

std::string device_name(std::size_t d) {
    return "device " + std::to_string(d);
}

HtmlTable wall_time_table(const RunReport& r) {
    HtmlTable t;
    t.caption = "Wall time";
    t.head = {"", "seconds"};
    const double loop = r.own_loop_seconds();
    t.rows = {{"set-up (before the time loop)", html_number(r.setup_seconds) + " s"},
              {"time loop", html_number(r.loop_seconds) + " s"}};
    if (r.loop_seconds_before > 0.0)
        t.rows.push_back(
            {"of which the runs restarted from", html_number(r.loop_seconds_before) + " s"});
    t.rows.push_back({"of which output", seconds_and_share(r.output_seconds, loop)});
    t.rows.push_back({"of which load balancing", seconds_and_share(r.balance_seconds, loop)});
    t.rows.push_back({"of which checkpoints", seconds_and_share(r.checkpoint_seconds, loop)});
    t.rows.push_back(
        {"throughput", html_number(r.kips()) + " kips (" + html_number(r.mips()) + " mips)"});
    return t;
}

StackedBars time_bars(const RunReport& r) {
    StackedBars chart;
    chart.title = "Each device's time loop, stage by stage";
    chart.value_label = "wall time [s]";
    for (std::size_t d = 0; d < r.devices.size(); ++d) {
        chart.bars.push_back(device_name(d));
        chart.values.emplace_back();
        for (const auto& [name, seconds] : time_parts(r.devices[d], r)) {
            if (d == 0) chart.parts.push_back(name);
            chart.values.back().push_back(seconds);
        }
    }
    return chart;
}

HtmlTable time_table(const RunReport& r) {
    HtmlTable t;
    t.caption = "Seconds and share of this run's time loop, per device";
    t.head = {"stage"};
    for (std::size_t d = 0; d < r.devices.size(); ++d)
        t.head.push_back(device_name(d) + ": " + r.devices[d].description);
    const double loop = r.own_loop_seconds();
    std::vector<std::vector<std::pair<const char*, double>>> parts;  // [device][part]
    for (const DeviceReport& d : r.devices) parts.push_back(time_parts(d, r));
    for (std::size_t p = 0; p < parts.front().size(); ++p) {
        t.rows.push_back({parts.front()[p].first});
        for (const auto& device : parts)
            t.rows.back().push_back(seconds_and_share(device[p].second, loop));
    }
    // Parts of Forces, and the copies beside it: not stacked, they overlap what is.
    const auto row = [&](const char* name, double (*seconds)(const KernelTimes&)) {
        t.rows.push_back({name});
        for (const DeviceReport& d : r.devices)
            t.rows.back().push_back(seconds_and_share(seconds(d.kernels), loop));
    };
    row("Forces: edge stripes", [](const KernelTimes& k) { return k.forces_edges; });
    row("Forces: centre stripe", [](const KernelTimes& k) { return k.forces_centre; });
    row("Forces: boundary (mDBC)", [](const KernelTimes& k) { return k.boundary; });
    row("edge-force copies", [](const KernelTimes& k) { return k.exchange_copy; });
    row("of which hidden", [](const KernelTimes& k) { return k.exchange_hidden; });
    return t;
}

HtmlTable balance_table(const RunReport& r) {
    HtmlTable t;
    t.caption = "Each device's slices and particles";
    t.head = {"device",
              "slices at the end",
              "slices (fewest–most)",
              "particles (min / mean / max)",
              "migrated in",
              "Forces s / iteration"};
    for (std::size_t d = 0; d < r.devices.size(); ++d) {
        const DeviceReport& dev = r.devices[d];
        const WorkerStats& w = dev.worker;
        t.rows.push_back(
            {device_name(d),
             "[" + std::to_string(dev.first_slice) + ", " + std::to_string(dev.end_slice) + ")",
             std::to_string(w.slices_min) + "–" + std::to_string(w.slices_max),
             std::to_string(w.particles_min) + " / " + html_number(dev.particles_mean()) + " / " +
                 std::to_string(w.particles_max),
             std::to_string(w.particles_migrated_in),
             html_number(dev.forces_seconds_per_iteration())});
    }
    return t;
}

// A plot per quantity of the history, a line per device.
std::string history_figures(const BalanceHistory& h) {
    const auto figure = [&](const std::vector<std::vector<double>>& per_device, const char* title,
                            const char* axis) {
        std::vector<PlotSeries> series;
        for (int d = 0; d < h.devices; ++d) {
            PlotSeries s;
            s.label = device_name(std::size_t(d));
            s.x = h.times;
            s.y = per_device[std::size_t(d)];
            series.push_back(std::move(s));
        }
        return plot_figure(time_plot(title, axis, std::move(series)),
                           std::string(title) + " at each balancing decision");
    };
    return "<div class=\"plots\">\n" +
           figure(h.slices, "Slices per device", "slices owned from the decision on") +
           figure(h.forces_seconds, "Forces time per iteration (A_g)", "seconds") +
           figure(h.particles, "Particles per device", "particles") + "</div>\n";
}

std::string balance_counts(const RunReport& r) {
    const BalanceCounts& b = r.balancing;
    std::ostringstream text;
    text << (b.enabled ? "Load balancing on (--lb): "
                       : "Load balancing off (--lb off): the "
                         "balancer's figures were only logged; ")
         << b.decisions << " decisions, " << b.moves << " slice moves, " << b.dropped
         << " refused for room (this run's; the history below is load_balance.csv's, restarts "
            "included).";
    return text.str();
}

}  // namespace

std::string time_section(const RunReport& r) {
    std::ostringstream out;
    out << "<section id=\"time\">\n<h2>Where the time went</h2>\n"
        << html_table(wall_time_table(r));
    if (r.devices.empty()) {
        out << html_paragraph(
                   "No device reported its times (the run failed before they could "
                   "be gathered).",
                   "note")
            << "</section>\n";
        return out.str();
    }
    out << html_paragraph(
               "Each device's part of this run's time loop: its kernels, its waits for the "
               "others, migration, and the main thread's output and balancing, which every device "
               "waits through; \"other\" is the rest (launches, synchronisation, bookkeeping). "
               "Hover over a segment for its seconds.")
        << html_figure(svg_stacked_bars(time_bars(r)), "Time loop per device and stage")
        << html_table(time_table(r)) << "</section>\n";
    return out.str();
}

std::string balancing_section(const RunReport& r, const ReadBack<BalanceHistory>& history) {
    std::ostringstream out;
    out << "<section id=\"balancing\">\n<h2>Load balancing</h2>\n";
    if (r.devices.size() <= 1) {
        out << html_paragraph("One device: nothing to balance.", "note") << "</section>\n";
        return out.str();
    }
    out << html_paragraph(balance_counts(r)) << html_table(balance_table(r));
    if (!history.error.empty()) {
        out << html_paragraph("load_balance.csv could not be read: " + history.error, "note");
    } else if (!history.contents) {
        out << html_paragraph("No load_balance.csv: no history to plot.", "note");
    } else if (history.contents->decisions() == 0) {
        out << html_paragraph(
            "load_balance.csv holds no decision yet: the run ended before "
            "the balancer had timed a rebuild interval.",
            "note");
    } else {
        out << html_paragraph("load_balance.csv: " + std::to_string(history.contents->decisions()) +
                              " decisions; each device's slices from each decision on, its "
                              "Forces time per iteration and its particles when timed.")
            << history_figures(*history.contents);
    }
    out << "</section>\n";
    return out.str();
}

}  // namespace sph::report_html
