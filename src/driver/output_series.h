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
    // Continues the series of an earlier run (restart number `restart`) from the frames it had
    // listed at its checkpoint. Frames the earlier run wrote after that are left on disk, named
    // in the .pvd as superseded (its old .pvd is kept as <basename>_before_restart<N>.pvd), and
    // never overwritten: new frames are <basename>_restart<N>_NNNNNN.
    OutputSeries(const std::string& dir, const std::string& basename,
                 const std::vector<std::pair<double, std::string>>& listed, int restart);
    // `pieces[d]` holds device d's particles.
    void write(double time, const std::vector<HostParticles>& pieces, const SphParams& params);
    int frames() const { return frames_; }

    // A frame in two steps, for a simulation across MPI ranks: each rank writes its own devices'
    // pieces (`here[d]`) of the frame named frame_stem() (rank 0's), then rank 0 lists the frame
    // (the .pvtu and the .pvd) once every rank's are on disk.
    std::string frame_stem() const;
    // The piece files of the frame `stem` (every device's, here or not); writes those `here`,
    // kPiecesAtOnce at a time side by side.
    static constexpr std::size_t kPiecesAtOnce = 4;
    static std::vector<std::string> write_pieces(const std::string& dir, const std::string& stem,
                                                 const std::vector<HostParticles>& pieces,
                                                 const std::vector<bool>& here,
                                                 const SphParams& params);
    void list_frame(double time, const std::vector<std::string>& piece_files);
    // What the .pvd lists: (time, file).
    const std::vector<std::pair<double, std::string>>& listed() const { return pvd_.entries(); }

private:
    std::string dir_, basename_;
    std::string stem_;  // frame files are <stem_>_NNNNNN
    PvdSeries pvd_;
    int frames_ = 0;
};

}  // namespace sph
