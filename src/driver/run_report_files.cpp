// report.html's sources from the run's options and instruments (run_report_files.h).
#include "driver/run_report_files.h"

#include <exception>
#include <filesystem>
#include <sstream>

#include "instruments/gauges.h"

namespace sph {

namespace {

std::string text_of(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

ColumnKind wall_kind(const WallSensor& w) {
    if (w.surface()) return ColumnKind::kSurfaceForce;
    if (w.moment()) return ColumnKind::kPanelMoment;
    return w.panel() ? ColumnKind::kPanelForce : ColumnKind::kWallPressure;
}

}  // namespace

std::vector<InstrumentColumn> instrument_column_kinds(const Instruments& in) {
    std::vector<InstrumentColumn> columns;
    for (const Gauge& g : in.gauges) columns.push_back({g.name, ColumnKind::kWaterHeight});
    for (const Probe& p : in.probes) columns.push_back({p.name, ColumnKind::kProbePressure});
    for (const WallSensor& w : in.walls) columns.push_back({w.name, wall_kind(w)});
    const std::vector<std::string> names = instrument_columns(in);
    if (in.front) columns.push_back({names.back(), ColumnKind::kFront});
    return columns;
}

std::vector<std::pair<std::string, std::string>> option_settings(const RunOptions& o) {
    const char* balancing = o.balancing == RunOptions::Balancing::kOn    ? "on"
                            : o.balancing == RunOptions::Balancing::kOff ? "off"
                                                                         : "auto";
    std::vector<std::pair<std::string, std::string>> settings{
        {"--backend", to_string(o.backend)},
        {"--t-end", text_of(o.t_end) + " s"},
        {"--output-dir", o.output_dir},
        {"--output-every", text_of(o.output_every) + " s"},
        {"output", !o.write_output  ? "none (--no-output)"
                   : o.write_frames ? "frames and gauges"
                                    : "gauges only (--no-frames)"},
        {"--gauge-every", text_of(o.gauge_every) + " s"},
        {"--gauge-average", o.gauge_average ? "on" : "off"},
        {"--gauge-filter", o.gauge_filter_hz > 0.0 ? text_of(o.gauge_filter_hz) + " Hz" : "off"},
        {"--gauge-reading", o.gauge_reading == GaugeReading::kWetted ? "wetted" : "surface"},
        {"--lb", balancing},
        {"--lb-threshold", text_of(o.lb_threshold)},
        {"--threads", o.threads > 0 ? std::to_string(o.threads) : "OpenMP's default"},
        {"--out-of-domain", o.remove_out_of_domain ? "remove" : "stop"}};
    if (o.checkpoint_every > 0.0)
        settings.push_back({"--checkpoint-every", text_of(o.checkpoint_every) + " s"});
    if (o.checkpoint_wall_seconds > 0.0) {
        settings.push_back(
            {"--checkpoint-every (wall)", text_of(o.checkpoint_wall_seconds) + " s of wall time"});
    }
    if (!o.restart_from.empty()) settings.push_back({"--restart", o.restart_from});
    if (!o.branches_file.empty()) settings.push_back({"--branches", o.branches_file});
    if (!o.scenario.empty()) settings.push_back({"--scenario", o.scenario});
    if (o.device_memory_limit > 0)
        settings.push_back({"--device-memory-limit", std::to_string(o.device_memory_limit) + " B"});
    return settings;
}

ReportHtmlSources report_html_sources(const RunOptions& o, const Instruments& instruments,
                                      const std::string& balance_log) {
    ReportHtmlSources sources;
    if (!o.write_output) {
        sources.no_gauges_note = "No gauges.csv: the run was made with --no-output.";
    } else if (instruments.empty()) {
        sources.no_gauges_note =
            "No gauges.csv: the run had no instruments (--no-instruments, or a problem without "
            "them; --gauge, --probe, --wall-sensor and the --wall-panel options add them).";
    } else {
        sources.gauges_csv = o.output_dir + "/gauges.csv";
        if (o.gauge_filter_hz > 0.0) sources.filtered_csv = o.output_dir + "/gauges_filtered.csv";
    }
    sources.balance_csv = balance_log;
    sources.columns = instrument_column_kinds(instruments);
    sources.options = option_settings(o);
    return sources;
}

void write_report_html_or_warn(const RunReport& report, const ReportHtmlSources& sources,
                               const std::string& output_dir, std::ostream& log) {
    const std::string path = output_dir + "/report.html";
    try {
        write_report_html(report, sources, path);
    } catch (const std::exception& e) {
        // A page an earlier run left there must not pass for this one's.
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        log << "warning: " << path << " not written: " << e.what()
            << " (run_report.json and the run's series are whole)\n";
    }
}

}  // namespace sph
