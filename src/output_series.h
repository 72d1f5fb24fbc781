// The particle output of a run: a .pvd time series over one .vtu per output time.
#pragma once

#include <string>

#include "host_particles.h"
#include "pvd_series.h"
#include "sph_params.h"

namespace sph {

// Creates `dir` if needed and proves it writable; throws naming the folder otherwise.
void ensure_writable_directory(const std::string& dir);

class OutputSeries {
public:
    // Frames are <dir>/<basename>_NNNNNN.vtu, listed in <dir>/<basename>.pvd.
    OutputSeries(const std::string& dir, const std::string& basename);
    void write(double time, const HostParticles& particles, const SphParams& params);
    int frames() const { return frames_; }
    const std::string& pvd_path() const { return pvd_.path(); }

private:
    std::string dir_, basename_;
    PvdSeries pvd_;
    int frames_ = 0;
};

}  // namespace sph
