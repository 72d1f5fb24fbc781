// RunReport's derived numbers (kips, bytes, the kernels' times), its physics settings as numbers,
// and run_report.json written and read back. The console's table is in run_report_table.cpp.
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

std::optional<double> setting_number(const std::string& text) {
    char* end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
    return value;
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

nlohmann::json particles_json(const RunReport& r) {
    return {{"total", r.particles},
            {"fluid", r.fluid_particles},
            {"boundary", r.boundary_particles},
            {"removed", r.removed_particles}};
}

nlohmann::json wall_time_json(const RunReport& r) {
    return {{"setup", r.setup_seconds},
            {"time_loop", r.loop_seconds},
            {"time_loop_before_restart", r.loop_seconds_before},
            {"output", r.output_seconds},
            {"load_balancing", r.balance_seconds}};
}

nlohmann::json balancing_json(const RunReport& r) {
    return {{"enabled", r.balancing.enabled},
            {"decisions", r.balancing.decisions},
            {"slice_moves", r.balancing.moves},
            {"moves_refused_for_room", r.balancing.dropped}};
}

nlohmann::json checkpoints_json(const RunReport& r) {
    return {{"restarts", r.restarts},
            {"written", r.checkpoints_written},
            {"write_seconds", r.checkpoint_seconds},
            {"last", r.last_checkpoint}};
}

nlohmann::json instantaneous_json(const RunReport& r) {
    return {{"window_s", r.instantaneous.window_seconds},
            {"windows", r.instantaneous.windows},
            {"last", r.instantaneous.last_kips},
            {"min", r.instantaneous.min_kips},
            {"max", r.instantaneous.max_kips}};
}

nlohmann::json list_margin_json(const RunReport& r) {
    return {{"margin_m", r.list_margin},
            {"largest_share", r.list_margin_largest_share},
            {"intervals_over", r.list_margin_intervals_over},
            {"intervals", r.list_margin_intervals},
            {"rebuilds", r.rebuilds},
            {"early_rebuilds", r.early_rebuilds}};
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
              {"particles", particles_json(r)},
              {"iterations", r.iterations},
              {"particle_iterations", r.particle_iterations},
              {"simulated_time_s", r.simulated_time},
              {"wall_time_s", wall_time_json(r)},
              {"load_balancing", balancing_json(r)},
              {"checkpoints", checkpoints_json(r)},
              {"kips", r.kips()},
              {"mips", r.mips()},
              {"instantaneous_kips", instantaneous_json(r)},
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
              {"list_margin", list_margin_json(r)},
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
