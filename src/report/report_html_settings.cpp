// report.html's settings (report_html_sections.h): the run as the report describes it, the
// options it was given, and the settings that fix its physics.
#include <optional>
#include <sstream>

#include "report/html_parts.h"
#include "report/report_html_sections.h"

namespace sph::report_html {

namespace {

HtmlTable run_table(const RunReport& r) {
    HtmlTable t;
    t.caption = "The run";
    t.head = {"", "value"};
    t.rows = {{"status", r.status}};
    if (!r.error.empty()) t.rows.push_back({"error", r.error});
    t.rows.push_back({"problem", r.problem});
    t.rows.push_back({"back end", r.backend});
    t.rows.push_back({"devices", r.device});
    for (std::size_t d = 0; d < r.devices.size(); ++d)
        t.rows.push_back({"device " + std::to_string(d), r.devices[d].description});
    t.rows.push_back({"particles", std::to_string(r.particles) + " (" +
                                       std::to_string(r.fluid_particles) + " fluid, " +
                                       std::to_string(r.boundary_particles) + " boundary)"});
    t.rows.push_back({"particles removed", std::to_string(r.removed_particles)});
    t.rows.push_back({"dp, h", html_number(r.dp) + " m, " + html_number(r.h) + " m"});
    t.rows.push_back({"c0", html_number(r.c0) + " m/s"});
    t.rows.push_back({"iterations", std::to_string(r.iterations)});
    t.rows.push_back({"simulated time", html_number(r.simulated_time) + " s"});
    t.rows.push_back({"neighbour search", r.neighbour_search});
    if (r.max_neighbours > 0) {
        t.rows.push_back(
            {"neighbours (most seen / room)",
             std::to_string(r.largest_neighbour_count) + " / " + std::to_string(r.max_neighbours)});
    }
    t.rows.push_back({"list rebuilds (early)",
                      std::to_string(r.rebuilds) + " (" + std::to_string(r.early_rebuilds) + ")"});
    t.rows.push_back({"output frames", std::to_string(r.output_frames)});
    t.rows.push_back({"checkpoints written", std::to_string(r.checkpoints_written)});
    t.rows.push_back({"restarts before this run", std::to_string(r.restarts)});
    if (!r.last_checkpoint.empty()) t.rows.push_back({"last checkpoint", r.last_checkpoint});
    if (!r.trace_file.empty()) t.rows.push_back({"trace", r.trace_file});
    return t;
}

// The physics settings, numbers as short as they print (the report holds them to the last bit).
HtmlTable physics_table(const RunReport& r) {
    HtmlTable t;
    t.caption = "Physics (the settings a restart must find as they were)";
    t.head = {"setting", "value"};
    for (const auto& [name, value] : r.physics) {
        const std::optional<double> number = setting_number(value);
        t.rows.push_back({name, number ? html_number(*number) : value});
    }
    return t;
}

HtmlTable options_table(const ReportHtmlSources& sources) {
    HtmlTable t;
    t.caption = "Options";
    t.head = {"option", "value"};
    for (const auto& [name, value] : sources.options) t.rows.push_back({name, value});
    return t;
}

}  // namespace

std::string settings_section(const RunReport& r, const ReportHtmlSources& sources) {
    std::ostringstream out;
    out << "<section id=\"settings\">\n<h2>Settings</h2>\n<div class=\"tables\">\n"
        << html_table(run_table(r));
    if (!sources.options.empty()) out << html_table(options_table(sources));
    if (!r.physics.empty()) out << html_table(physics_table(r));
    out << "</div>\n</section>\n";
    return out.str();
}

}  // namespace sph::report_html
