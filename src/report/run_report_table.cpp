// The run report as the console prints it (print_report): the summary, the physics line, each
// device's times and counts in a column of its own, and the edge-force exchange.
#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>

#include "report/run_report.h"

namespace sph {

namespace {

// One row of the per-device table: a label, then one column per device.
template <class Value>
void device_row(std::ostream& out, const RunReport& r, const char* label, Value value) {
    out << "  " << std::left << std::setw(22) << label << std::right;
    for (const DeviceReport& d : r.devices) out << std::setw(14) << value(d);
    out << "\n";
}

std::string seconds_and_share(double seconds, double loop) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3f s %3.0f%%", seconds,
                  loop > 0 ? 100.0 * seconds / loop : 0.0);
    return text;
}

std::string fixed(double value, int precision) {
    std::ostringstream s;
    s << std::fixed << std::setprecision(precision) << value;
    return s.str();
}

// The physics settings on one line, numbers as short as they print, leaving out what the line
// above gives (problem, dp) and the bookkeeping of restarts (the cell grid, the set-up count).
void print_physics(const RunReport& r, std::ostream& out) {
    std::ostringstream line;
    for (const auto& [name, value] : r.physics) {
        if (name == "problem" || name == "dp" || name == "cell grid" ||
            name == "particles at set-up")
            continue;
        if (line.tellp() > 0) line << ", ";
        const std::optional<double> number = setting_number(value);
        line << name << " ";
        if (number) {
            line << *number;
        } else {
            line << value;
        }
    }
    if (line.tellp() > 0) out << "  physics       " << line.str() << "\n";
}

void print_summary(const RunReport& r, std::ostream& out) {
    out << "Run report (" << r.status << ")\n";
    if (!r.error.empty()) out << "  error: " << r.error << "\n";
    out << "  problem       " << r.problem << ", dp " << r.dp << " m, h " << r.h << " m, c0 "
        << r.c0 << " m/s\n";
    print_physics(r, out);
    out << "  backend       " << r.backend << " on " << r.device << "\n"
        << "  particles     " << r.particles << " (" << r.fluid_particles << " fluid, "
        << r.boundary_particles << " boundary)\n"
        << "  iterations    " << r.iterations << " to t = " << r.simulated_time << " s\n"
        << "  left domain   " << r.removed_particles
        << " particles removed (out of the domain, or fluid past its reach)\n";
    if (r.restarts > 0 || r.checkpoints_written > 0) {
        out << "  checkpoints   " << r.checkpoints_written << " written in " << r.checkpoint_seconds
            << " s" << (r.last_checkpoint.empty() ? "" : ", last " + r.last_checkpoint) << "; "
            << r.restarts << " restart(s) before this run\n";
    }
    out << std::fixed << std::setprecision(3) << "  wall time     " << r.setup_seconds
        << " s set-up + " << r.loop_seconds << " s time loop (" << r.output_seconds << " s output, "
        << r.balance_seconds << " s load balancing)\n"
        << "  throughput    " << std::setprecision(1) << r.kips()
        << " kips = " << std::setprecision(3) << r.mips() << " mips average";
    if (r.instantaneous.windows > 0) {
        out << "; per " << std::setprecision(1) << r.instantaneous.window_seconds
            << " s window: last " << r.instantaneous.last_kips << ", " << r.instantaneous.min_kips
            << " to " << r.instantaneous.max_kips << " kips";
    }
    out << "\n"
        << "  memory        " << std::setprecision(1) << r.device_bytes() / 1048576.0 << " MiB, "
        << r.bytes_per_particle() << " bytes/particle\n";
    if (r.max_neighbours > 0) {
        out << "  neighbours    at most " << r.largest_neighbour_count << " of " << r.max_neighbours
            << " list entries\n";
    } else {
        out << "  neighbours    found in the cells (no list)\n";
    }
    if (r.list_margin_intervals > 0) {
        out << "  list margin   the fastest particle moved at most " << std::setprecision(0)
            << 100.0 * r.list_margin_largest_share << " % of the " << std::setprecision(2)
            << 1000.0 * r.list_margin << " mm margin between rebuilds ("
            << r.list_margin_intervals_over << " of " << r.list_margin_intervals
            << " intervals over)\n";
    }
    if (r.rebuilds > 0) {
        out << "  rebuilds      " << r.rebuilds << ", " << r.early_rebuilds
            << " of them early for the list's margin\n";
    }
    if (!r.trace_file.empty()) out << "  trace         " << r.trace_file << "\n";
}

// Where each device's time loop went, each row in seconds and as a share of the loop: this
// run's own, after a restart (the times of the runs before it are not in the checkpoint).
void print_device_times(const RunReport& r, std::ostream& out) {
    const double loop = r.own_loop_seconds();
    const double main_thread = r.output_seconds + r.balance_seconds;
    using Seconds = std::function<double(const DeviceReport&)>;
    const std::pair<const char*, Seconds> rows[] = {
        {"BuildNeibs", [](const DeviceReport& d) { return d.kernels.build_neibs; }},
        {"Forces", [](const DeviceReport& d) { return d.kernels.forces; }},
        {"  edge stripes", [](const DeviceReport& d) { return d.kernels.forces_edges; }},
        {"  centre stripe", [](const DeviceReport& d) { return d.kernels.forces_centre; }},
        {"  mDBC walls", [](const DeviceReport& d) { return d.kernels.boundary; }},
        {"MinimumScan", [](const DeviceReport& d) { return d.kernels.minimum_scan; }},
        {"Euler", [](const DeviceReport& d) { return d.kernels.euler; }},
        {"dt reduction wait", [](const DeviceReport& d) { return d.worker.dt_wait_seconds; }},
        {"neighbour Euler wait",
         [](const DeviceReport& d) { return d.worker.marker_wait_seconds; }},
        {"rebuild wait", [](const DeviceReport& d) { return d.worker.rebuild_wait_seconds; }},
        {"MPI edge forces", [](const DeviceReport& d) { return d.worker.rank_forces_seconds; }},
        {"migration", [](const DeviceReport& d) { return d.worker.migration_seconds; }},
        {"balancing + output", [&](const DeviceReport&) { return main_thread; }},
        {"other", [&](const DeviceReport& d) { return d.other_seconds(loop, main_thread); }},
    };
    if (r.restarts > 0) {
        out << "  time loop per device (share of this run's " << std::fixed << std::setprecision(3)
            << loop << " s since its restart)\n";
    } else {
        out << "  time loop per device (share of the time loop)\n";
    }
    int column = 0;
    device_row(out, r, "",
               [&](const DeviceReport&) { return "device " + std::to_string(column++); });
    for (const auto& row : rows) {
        const auto& seconds = row.second;  // named, not a structured binding: lambdas capture it
        device_row(out, r, row.first,
                   [&](const DeviceReport& d) { return seconds_and_share(seconds(d), loop); });
    }
}

// Each device's particles, slices, traffic and memory.
void print_device_counts(const RunReport& r, std::ostream& out) {
    using Text = std::function<std::string(const DeviceReport&)>;
    const std::pair<const char*, Text> rows[] = {
        {"particles min",
         [](const DeviceReport& d) { return std::to_string(d.worker.particles_min); }},
        {"particles mean", [](const DeviceReport& d) { return fixed(d.particles_mean(), 0); }},
        {"particles max",
         [](const DeviceReport& d) { return std::to_string(d.worker.particles_max); }},
        {"slices at the end",
         [](const DeviceReport& d) {
             return std::to_string(d.first_slice) + ".." + std::to_string(d.end_slice - 1);
         }},
        {"Forces ms/iteration",
         [](const DeviceReport& d) { return fixed(1e3 * d.forces_seconds_per_iteration(), 3); }},
        {"MB sent", [](const DeviceReport& d) { return fixed(d.worker.bytes_sent / 1e6, 1); }},
        {"MB received",
         [](const DeviceReport& d) { return fixed(d.worker.bytes_received / 1e6, 1); }},
        {"memory MiB", [](const DeviceReport& d) { return fixed(d.memory_bytes / 1048576.0, 1); }},
        {"particles migrated in",
         [](const DeviceReport& d) { return std::to_string(d.worker.particles_migrated_in); }},
    };
    for (const auto& [label, text] : rows) device_row(out, r, label, text);
}

// Balancing and the edge-force exchange, where there were several devices.
void print_exchange(const RunReport& r, std::ostream& out) {
    if (r.devices.size() > 1) {
        out << "  balancing     " << (r.balancing.enabled ? "on" : "off (measured only)") << ": "
            << r.balancing.decisions << " decisions, " << r.balancing.moves << " slice moves";
        if (r.balancing.dropped > 0) out << ", " << r.balancing.dropped << " refused for room";
        out << "\n";
    }
    const KernelTimes k = r.kernels();
    if (k.exchange_copy > 0.0) {
        out << "  edge forces   " << std::setprecision(3) << k.exchange_copy << " s copying, "
            << std::setprecision(1) << 100.0 * r.exchange_hidden_fraction()
            << " % of it hidden behind the forces\n";
    }
}

}  // namespace

void print_report(const RunReport& r, std::ostream& out) {
    const auto flags = out.flags();
    print_summary(r, out);
    print_device_times(r, out);
    print_device_counts(r, out);
    print_exchange(r, out);
    out.flags(flags);
}

}  // namespace sph
