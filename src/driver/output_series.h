// The particle output of a run: a .pvd time series over one .vtu per output time.
#pragma once

#include <string>

#include "devices/host_particles.h"
#include "particle_fields.h"
#include "pvd_series.h"
#include "sph_params.h"

namespace sph {

// Creates `dir` if needed and proves it writable; throws naming the folder otherwise.
void ensure_writable_directory(const std::string& dir);

class OutputSeries {
public:
    // Frames are <dir>/<basename>_NNNNNN.vtu (one device) or a .pvtu over one
    // <basename>_NNNNNN_dD.vtu piece per device, listed in <dir>/<basename>.pvd.
    OutputSeries(const std::string& dir, const std::string& basename);
    // `pieces[d]` holds device d's particles.
    void write(double time, const std::vector<HostParticles>& pieces, const SphParams& params);
    int frames() const { return frames_; }

private:
    std::string dir_, basename_;
    PvdSeries pvd_;
    int frames_ = 0;
};

}  // namespace sph
