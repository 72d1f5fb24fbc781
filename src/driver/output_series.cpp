#include "driver/output_series.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <system_error>
#include <thread>

#include "pvtu_writer.h"
#include "vtu_writer.h"

namespace fs = std::filesystem;

namespace sph {

namespace {

// The writer's view of one piece; `position`, `pressure` and `device` must outlive it.
ParticleFields fields_of(const HostParticles& particles, const std::vector<Vec3>& position,
                         const std::vector<float>& pressure,
                         const std::vector<std::int32_t>& device) {
    ParticleFields f;
    f.count = particles.size();
    f.position = position.data();
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
      stem_(basename),
      pvd_((ensure_writable_directory(dir), dir + "/" + basename + ".pvd")) {}

namespace {

// The files an earlier .pvd lists that `kept` does not; the old .pvd is kept as `keep_as`.
std::vector<std::string> superseded_frames(
    const std::string& pvd, const std::string& keep_as,
    const std::vector<std::pair<double, std::string>>& kept) {
    std::vector<std::string> superseded;
    std::ifstream in(pvd);
    if (!in) return superseded;
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    std::error_code ignored;
    fs::copy_file(pvd, keep_as, fs::copy_options::overwrite_existing, ignored);
    const std::string key = "file=\"";
    for (std::size_t at = text.find(key); at != std::string::npos; at = text.find(key, at)) {
        at += key.size();
        const std::string file = text.substr(at, text.find('"', at) - at);
        const bool listed = std::any_of(kept.begin(), kept.end(),
                                        [&](const auto& entry) { return entry.second == file; });
        if (!listed) superseded.push_back(file);
    }
    return superseded;
}

std::string restart_note(int restart, const std::vector<std::string>& superseded) {
    std::string note = "restart " + std::to_string(restart) + " went on from a checkpoint";
    if (superseded.empty()) return note;
    note += "; frames the run wrote after that checkpoint are superseded and not listed:";
    for (const std::string& file : superseded) note += " " + file;
    return note;
}

}  // namespace

OutputSeries::OutputSeries(const std::string& dir, const std::string& basename,
                           const std::vector<std::pair<double, std::string>>& listed, int restart)
    : dir_(dir),
      basename_(basename),
      stem_(basename + "_restart" + std::to_string(restart)),
      pvd_((ensure_writable_directory(dir), dir + "/" + basename + ".pvd"), listed,
           restart_note(restart, superseded_frames(dir + "/" + basename + ".pvd",
                                                   dir + "/" + basename + "_before_restart" +
                                                       std::to_string(restart) + ".pvd",
                                                   listed))),
      frames_(static_cast<int>(listed.size())) {}

std::string OutputSeries::frame_stem() const {
    char number[32];
    std::snprintf(number, sizeof number, "_%06d", frames_);
    return stem_ + number;
}

std::vector<std::string> OutputSeries::write_pieces(const std::string& dir, const std::string& stem,
                                                    const std::vector<HostParticles>& pieces,
                                                    const std::vector<bool>& here,
                                                    const SphParams& params) {
    std::vector<std::string> files;
    std::vector<std::size_t> to_write;
    for (std::size_t d = 0; d < pieces.size(); ++d) {
        files.push_back(pieces.size() == 1 ? stem + ".vtu"
                                           : stem + "_d" + std::to_string(d) + ".vtu");
        if (here.empty() || here[d]) to_write.push_back(d);
    }
    // Compressing a piece takes a core for most of a second a million particles: the pieces
    // are written kPiecesAtOnce at a time, each by a thread of its own (the first by this one),
    // which bounds the memory their copies take. A failed piece fails the frame once all are done.
    std::vector<std::exception_ptr> failures(to_write.size());
    auto write_piece = [&](std::size_t k) {
        const std::size_t d = to_write[k];
        try {
            std::vector<Vec3> position(pieces[d].size());
            for (std::size_t i = 0; i < position.size(); ++i) position[i] = pieces[d].position(i);
            const std::vector<float> pressure = pressures(pieces[d], params);
            const std::vector<std::int32_t> device(pieces[d].size(), static_cast<std::int32_t>(d));
            write_vtu(dir + "/" + files[d], fields_of(pieces[d], position, pressure, device));
        } catch (...) {
            failures[k] = std::current_exception();
        }
    };
    for (std::size_t first = 0; first < to_write.size(); first += kPiecesAtOnce) {
        const std::size_t end = std::min(to_write.size(), first + kPiecesAtOnce);
        std::vector<std::thread> threads;
        for (std::size_t k = first + 1; k < end; ++k) {
            try {
                threads.emplace_back(write_piece, k);
            } catch (const std::system_error&) {  // no thread to be had: written here instead
                write_piece(k);
            }
        }
        write_piece(first);
        for (std::thread& t : threads) t.join();
    }
    for (const std::exception_ptr& failure : failures) {
        if (failure) std::rethrow_exception(failure);
    }
    return files;
}

void OutputSeries::list_frame(double time, const std::vector<std::string>& piece_files) {
    std::string listed = piece_files[0];
    if (piece_files.size() > 1) {
        listed = frame_stem() + ".pvtu";
        write_pvtu(dir_ + "/" + listed, piece_files, true);
    }
    pvd_.add(time, listed);
    ++frames_;
}

void OutputSeries::write(double time, const std::vector<HostParticles>& pieces,
                         const SphParams& params) {
    list_frame(time, write_pieces(dir_, frame_stem(), pieces, {}, params));
}

}  // namespace sph
