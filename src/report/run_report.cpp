#include "report/run_report.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iomanip>
#include <optional>
#include <sstream>
#include <utility>

#include "atomic_file.h"

namespace sph {

double DeviceReport::other_seconds(double loop_seconds, double main_thread_seconds) const {
    const KernelTimes& k = kernels;
    const WorkerStats& w = worker;
    return loop_seconds - main_thread_seconds - k.build_neibs - k.forces - k.minimum_scan -
           k.euler - w.migration_seconds - w.rebuild_wait_seconds - w.dt_wait_seconds -
           w.marker_wait_seconds - w.rank_forces_seconds;
}

double RunReport::kips() const {
    return loop_seconds > 0.0 ? particle_iterations / loop_seconds / 1e3 : 0.0;
}

std::size_t RunReport::device_bytes() const {
    std::size_t total = 0;
    for (const DeviceReport& d : devices) total += d.memory_bytes;
    return total;
}

double RunReport::bytes_per_particle() const {
    return particles > 0 ? double(device_bytes()) / double(particles) : 0.0;
}

KernelTimes RunReport::kernels() const {
    KernelTimes k;
    for (const DeviceReport& d : devices) {
        const KernelTimes& t = d.kernels;
        k.build_neibs = std::max(k.build_neibs, t.build_neibs);
        k.forces = std::max(k.forces, t.forces);
        k.forces_edges = std::max(k.forces_edges, t.forces_edges);
        k.forces_centre = std::max(k.forces_centre, t.forces_centre);
        k.boundary = std::max(k.boundary, t.boundary);
        k.minimum_scan = std::max(k.minimum_scan, t.minimum_scan);
        k.euler = std::max(k.euler, t.euler);
        k.exchange_copy += t.exchange_copy;
        k.exchange_hidden += t.exchange_hidden;
    }
    return k;
}

double RunReport::exchange_hidden_fraction() const {
    const KernelTimes k = kernels();
    return k.exchange_copy > 0.0 ? k.exchange_hidden / k.exchange_copy : 0.0;
}

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

}  // namespace

namespace {

// A physics setting's value as a number where the text is one (the settings are text, exact to
// the last bit: 0.05 is 0.050000000000000003), else nothing.
std::optional<double> setting_number(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return value;
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

namespace {

nlohmann::json kernel_json(const KernelTimes& k) {
    return {{"build_neibs", k.build_neibs},
            {"forces", k.forces},
            {"forces_edges", k.forces_edges},
            {"forces_centre", k.forces_centre},
            {"boundary", k.boundary},
            {"minimum_scan", k.minimum_scan},
            {"euler", k.euler}};
}

// Each array of the layout, and what else was allocated.
nlohmann::json memory_parts_json(const DeviceReport& d) {
    nlohmann::json parts = nlohmann::json::object();
    std::size_t listed = 0;
    for (const MemoryPart& p : d.memory_parts) {
        parts[p.name] = p.bytes;
        listed += p.bytes;
    }
    parts["other (library scratch, scalars)"] =
        d.memory_bytes > listed ? d.memory_bytes - listed : std::size_t(0);
    return parts;
}

// Numbers as JSON numbers (the text is exact, so is the double), the rest as text.
nlohmann::json physics_json(const RunReport& r) {
    nlohmann::json physics = nlohmann::json::object();
    for (const auto& [name, value] : r.physics) {
        const std::optional<double> number = setting_number(value);
        if (number) {
            physics[name] = *number;
        } else {
            physics[name] = value;
        }
    }
    return physics;
}

nlohmann::json device_json(const DeviceReport& d, double loop, double main_thread) {
    const WorkerStats& w = d.worker;
    return {{"description", d.description},
            {"kernel_time_s", kernel_json(d.kernels)},
            {"wait_time_s",
             {{"dt_reduction", w.dt_wait_seconds},
              {"neighbour_euler", w.marker_wait_seconds},
              {"mpi_edge_forces", w.rank_forces_seconds},
              {"rebuild", w.rebuild_wait_seconds}}},
            {"migration_s", w.migration_seconds},
            {"other_s", d.other_seconds(loop, main_thread)},
            {"edge_force_copy_s", d.kernels.exchange_copy},
            {"edge_force_copy_hidden_s", d.kernels.exchange_hidden},
            {"forces_s_per_iteration", d.forces_seconds_per_iteration()},
            {"particles",
             {{"min", w.particles_min}, {"mean", d.particles_mean()}, {"max", w.particles_max}}},
            {"slices",
             {{"first", d.first_slice},
              {"end", d.end_slice},
              {"min", w.slices_min},
              {"max", w.slices_max}}},
            {"particles_migrated_in", w.particles_migrated_in},
            {"edge_force_sends", w.force_sends},
            {"bytes_sent", w.bytes_sent},
            {"bytes_received", w.bytes_received},
            {"memory_bytes", d.memory_bytes},
            {"memory_parts_bytes", memory_parts_json(d)}};
}

}  // namespace

void write_report_json(const RunReport& r, const std::string& path) {
    using nlohmann::json;
    const KernelTimes k = r.kernels();
    const double main_thread = r.output_seconds + r.balance_seconds;
    json devices = json::array();
    for (const DeviceReport& d : r.devices)
        devices.push_back(device_json(d, r.own_loop_seconds(), main_thread));
    json t = {{"schema", "sph-run-report/2"},
              {"status", r.status},
              {"problem", r.problem},
              {"backend", r.backend},
              {"device", r.device},
              {"dp_m", r.dp},
              {"h_m", r.h},
              {"c0_m_per_s", r.c0},
              {"physics", physics_json(r)},
              {"particles",
               {{"total", r.particles},
                {"fluid", r.fluid_particles},
                {"boundary", r.boundary_particles},
                {"removed", r.removed_particles}}},
              {"iterations", r.iterations},
              {"particle_iterations", r.particle_iterations},
              {"simulated_time_s", r.simulated_time},
              {"wall_time_s",
               {{"setup", r.setup_seconds},
                {"time_loop", r.loop_seconds},
                {"time_loop_before_restart", r.loop_seconds_before},
                {"output", r.output_seconds},
                {"load_balancing", r.balance_seconds}}},
              {"load_balancing",
               {{"enabled", r.balancing.enabled},
                {"decisions", r.balancing.decisions},
                {"slice_moves", r.balancing.moves},
                {"moves_refused_for_room", r.balancing.dropped}}},
              {"checkpoints",
               {{"restarts", r.restarts},
                {"written", r.checkpoints_written},
                {"write_seconds", r.checkpoint_seconds},
                {"last", r.last_checkpoint}}},
              {"kips", r.kips()},
              {"mips", r.mips()},
              {"instantaneous_kips",
               {{"window_s", r.instantaneous.window_seconds},
                {"windows", r.instantaneous.windows},
                {"last", r.instantaneous.last_kips},
                {"min", r.instantaneous.min_kips},
                {"max", r.instantaneous.max_kips}}},
              {"kernel_time_s", kernel_json(k)},
              {"exchange",
               {{"edge_force_copy_s", k.exchange_copy},
                {"edge_force_copy_hidden_s", k.exchange_hidden},
                {"hidden_fraction", r.exchange_hidden_fraction()}}},
              {"devices", std::move(devices)},
              {"device_memory_bytes", r.device_bytes()},
              {"bytes_per_particle", r.bytes_per_particle()},
              {"neighbour_search", r.neighbour_search},
              {"largest_neighbour_count", r.largest_neighbour_count},
              {"max_neighbours", r.max_neighbours},
              {"list_margin",
               {{"margin_m", r.list_margin},
                {"largest_share", r.list_margin_largest_share},
                {"intervals_over", r.list_margin_intervals_over},
                {"intervals", r.list_margin_intervals},
                {"rebuilds", r.rebuilds},
                {"early_rebuilds", r.early_rebuilds}}},
              {"output_frames", r.output_frames}};
    if (!r.error.empty()) t["error"] = r.error;
    if (!r.trace_file.empty()) t["trace_file"] = r.trace_file;
    write_text_file_atomically(path, t.dump(2) + "\n");
}

std::optional<ReportSummary> read_report_summary(const std::string& path) {
    std::ifstream in(path);
    if (!in) return std::nullopt;
    try {
        const nlohmann::json j = nlohmann::json::parse(in);
        ReportSummary r;
        r.status = j.at("status").get<std::string>();
        r.loop_seconds = j.at("wall_time_s").at("time_loop").get<double>();
        r.simulated_time = j.at("simulated_time_s").get<double>();
        r.mips = j.at("mips").get<double>();
        r.device_bytes = j.at("device_memory_bytes").get<std::size_t>();
        return r;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

}  // namespace sph
