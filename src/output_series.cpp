#include "output_series.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "vtu_writer.h"

namespace fs = std::filesystem;

namespace sph {

void ensure_writable_directory(const std::string& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw std::runtime_error("cannot create output folder '" + dir + "': " + ec.message());
    const fs::path probe = fs::path(dir) / ".write_test";
    {
        std::ofstream out(probe);
        if (!(out << "ok")) throw std::runtime_error("output folder '" + dir + "' is not writable");
    }
    fs::remove(probe, ec);
}

OutputSeries::OutputSeries(const std::string& dir, const std::string& basename)
    : dir_(dir),
      basename_(basename),
      pvd_((ensure_writable_directory(dir), dir + "/" + basename + ".pvd")) {}

void OutputSeries::write(double time, const HostParticles& particles, const SphParams& params) {
    char name[64];
    std::snprintf(name, sizeof name, "_%06d.vtu", frames_);
    const std::string file = basename_ + name;
    const std::vector<float> pressure = pressures(particles, params);
    write_vtu(dir_ + "/" + file, fields_of(particles, pressure));
    pvd_.add(time, file);
    ++frames_;
}

}  // namespace sph
