#include "driver/output_series.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "pvtu_writer.h"
#include "vtu_writer.h"

namespace fs = std::filesystem;

namespace sph {

namespace {

// The writer's view of one piece; `pressure` and `device` must outlive it.
ParticleFields fields_of(const HostParticles& particles, const std::vector<float>& pressure,
                         const std::vector<std::int32_t>& device) {
    ParticleFields f;
    f.count = particles.size();
    f.position = particles.pos.data();
    f.velocity_density = particles.velrho.data();
    f.pressure = pressure.data();
    f.id = particles.id.data();
    f.type = particles.type.data();
    f.device = device.data();
    return f;
}

}  // namespace

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

void OutputSeries::write(double time, const std::vector<HostParticles>& pieces,
                         const SphParams& params) {
    char frame[32];
    std::snprintf(frame, sizeof frame, "_%06d", frames_);
    const std::string stem = basename_ + frame;
    std::vector<std::string> files;
    for (std::size_t d = 0; d < pieces.size(); ++d) {
        const std::string file =
            pieces.size() == 1 ? stem + ".vtu" : stem + "_d" + std::to_string(d) + ".vtu";
        const std::vector<float> pressure = pressures(pieces[d], params);
        const std::vector<std::int32_t> device(pieces[d].size(), static_cast<std::int32_t>(d));
        write_vtu(dir_ + "/" + file, fields_of(pieces[d], pressure, device));
        files.push_back(file);
    }
    std::string listed = files[0];
    if (pieces.size() > 1) {
        listed = stem + ".pvtu";
        write_pvtu(dir_ + "/" + listed, files, true);
    }
    pvd_.add(time, listed);
    ++frames_;
}

}  // namespace sph
