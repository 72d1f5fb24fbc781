#include "run_report.h"

#include <boost/property_tree/json_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace sph {

double RunReport::kips() const {
    return loop_seconds > 0.0 ? particle_iterations / loop_seconds / 1e3 : 0.0;
}

double RunReport::bytes_per_particle() const {
    return particles > 0 ? double(device_bytes) / double(particles) : 0.0;
}

void print_report(const RunReport& r, std::ostream& out) {
    const auto flags = out.flags();
    auto row = [&](const char* name, double seconds) {
        out << "  " << std::left << std::setw(14) << name << std::right << std::setw(10)
            << std::fixed << std::setprecision(3) << seconds << " s  " << std::setw(5)
            << std::setprecision(1) << (r.loop_seconds > 0 ? 100.0 * seconds / r.loop_seconds : 0)
            << " %\n";
    };
    out << "Run report (" << r.status << ")\n";
    if (!r.error.empty()) out << "  error: " << r.error << "\n";
    out << "  problem       " << r.problem << ", dp " << r.dp << " m, h " << r.h << " m, c0 "
        << r.c0 << " m/s\n"
        << "  backend       " << r.backend << " on " << r.device << "\n"
        << "  particles     " << r.particles << " (" << r.fluid_particles << " fluid, "
        << r.boundary_particles << " boundary)\n"
        << "  iterations    " << r.iterations << " to t = " << r.simulated_time << " s\n"
        << "  left domain   " << r.removed_particles << " particles removed\n"
        << std::fixed << std::setprecision(3) << "  wall time     " << r.setup_seconds
        << " s set-up + " << r.loop_seconds << " s time loop\n"
        << "  throughput    " << std::setprecision(1) << r.kips()
        << " kips = " << std::setprecision(3) << r.mips() << " mips\n"
        << "  memory        " << std::setprecision(1) << r.device_bytes / 1048576.0 << " MiB, "
        << r.bytes_per_particle() << " bytes/particle\n"
        << "  neighbours    at most " << r.largest_neighbour_count << " of " << r.max_neighbours
        << " list entries\n"
        << "  time per kernel (share of the time loop):\n";
    row("BuildNeibs", r.kernels.build_neibs);
    row("Forces", r.kernels.forces);
    row("MinimumScan", r.kernels.minimum_scan);
    row("Euler", r.kernels.euler);
    row("output", r.output_seconds);
    if (r.kernels.exchange_copy > 0.0) {
        out << "  edge forces   " << std::setprecision(3) << r.kernels.exchange_copy
            << " s copying, " << std::setprecision(1) << 100.0 * r.exchange_hidden_fraction()
            << " % of it hidden behind the forces\n";
    }
    out.flags(flags);
}

void write_report_json(const RunReport& r, const std::string& path) {
    boost::property_tree::ptree t;
    t.put("status", r.status);
    if (!r.error.empty()) t.put("error", r.error);
    t.put("problem", r.problem);
    t.put("backend", r.backend);
    t.put("device", r.device);
    t.put("dp_m", r.dp);
    t.put("h_m", r.h);
    t.put("c0_m_per_s", r.c0);
    t.put("particles.total", r.particles);
    t.put("particles.fluid", r.fluid_particles);
    t.put("particles.boundary", r.boundary_particles);
    t.put("iterations", r.iterations);
    t.put("particle_iterations", r.particle_iterations);
    t.put("particles.removed", r.removed_particles);
    t.put("simulated_time_s", r.simulated_time);
    t.put("wall_time_s.setup", r.setup_seconds);
    t.put("wall_time_s.time_loop", r.loop_seconds);
    t.put("wall_time_s.output", r.output_seconds);
    t.put("kernel_time_s.build_neibs", r.kernels.build_neibs);
    t.put("kernel_time_s.forces", r.kernels.forces);
    t.put("kernel_time_s.minimum_scan", r.kernels.minimum_scan);
    t.put("kernel_time_s.euler", r.kernels.euler);
    t.put("exchange.edge_force_copy_s", r.kernels.exchange_copy);
    t.put("exchange.edge_force_copy_hidden_s", r.kernels.exchange_hidden);
    t.put("exchange.hidden_fraction", r.exchange_hidden_fraction());
    t.put("kips", r.kips());
    t.put("mips", r.mips());
    t.put("device_memory_bytes", r.device_bytes);
    t.put("bytes_per_particle", r.bytes_per_particle());
    t.put("largest_neighbour_count", r.largest_neighbour_count);
    t.put("max_neighbours", r.max_neighbours);
    t.put("output_frames", r.output_frames);
    const std::string tmp = path + ".tmp";
    try {
        boost::property_tree::write_json(tmp, t);
    } catch (const std::exception& e) {
        throw std::runtime_error("cannot write run report '" + path + "': " + e.what());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot write run report '" + path + "': " + ec.message());
}

}  // namespace sph
