#include "driver/run_setup.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "bodies/moving_bodies.h"
#include "common/errors.h"
#include "driver/start_perturbation.h"
#include "instruments/gauges.h"
#include "tait.h"

namespace sph {

SphParams make_sph_params(const RunOptions& o, double still_water_depth) {
    constexpr double kPi = 3.14159265358979323846;
    const double h = o.h_factor * o.dp;
    const double c0 = o.c0_factor * std::sqrt(o.gravity * still_water_depth);
    const double list_radius = 2.0 * h * (1.0 + o.list_skin);
    SphParams p{};
    p.h = float(h);
    p.kernel_radius_sq = float(4.0 * h * h);
    p.list_radius_sq = float(list_radius * list_radius);
    p.wendland_alpha = float(21.0 / (16.0 * kPi * h * h * h));
    p.mass = float(o.rho0 * o.dp * o.dp * o.dp);
    p.rho0 = float(o.rho0);
    p.c0 = float(c0);
    p.tait_b = float(c0 * c0 * o.rho0 / o.gamma);
    p.gamma = float(o.gamma);
    p.viscosity_alpha = float(o.viscosity_alpha);
    p.diffusion_delta = float(o.diffusion_delta);
    p.cfl = float(o.cfl);
    p.eta_sq = float(0.01 * h * h);
    p.gravity = make_vec3(0.0f, 0.0f, float(-o.gravity));
    p.boundary = o.boundary;
    p.gradient_correction = o.gradient_correction;
    // The contact reads the walls' ghost offsets, kept on the devices under mDBC alone (the
    // command line refuses the option without it).
    p.no_penetration = o.no_penetration && o.boundary == BoundaryModel::kMdbc;
    p.dp = float(o.dp);
    return p;
}

namespace {

// A wall particle's kind under --slip.
ParticleType wall_kind(ParticleType type, RunOptions::Slip slip) {
    if (type == kFluid || slip == RunOptions::Slip::kProblem) return type;
    return slip == RunOptions::Slip::kNoSlip ? kBoundary : kFreeSlipBoundary;
}

}  // namespace

namespace {

// The particles of a fill arrive one at a time; they become the run's particles a chunk at a
// time, the chunk's particles side by side on the host's cores (the hydrostatic density's pow and
// the fixed-point position are most of a particle's set-up), each from its own place in the fill,
// so that the particles are the same bits on any number of threads. The slices' counts are added
// up in the fill's order after each chunk.
class ChunkedLayOut {
public:
    ChunkedLayOut(const RunOptions& o, const SphParams& params, const CellGrid& grid,
                  const std::vector<MovingBody>& bodies, LaidOut& out)
        : o_(o),
          params_(params),
          grid_(grid),
          bodies_(bodies),
          out_(out),
          perturbation_(start_perturbation(o.perturb_seed, o.perturb_size, o.dp, grid.frame)) {
        chunk_.reserve(kChunk);
    }
    void add(const SetupParticle& s) {
        chunk_.push_back(s);
        if (chunk_.size() == kChunk) flush();
    }
    void flush() {
        HostParticles& p = out_.particles;
        const std::size_t first = p.size(), n = chunk_.size();
        p.resize(first + n);
#pragma omp parallel for schedule(static)
        for (std::ptrdiff_t k = 0; k < std::ptrdiff_t(n); ++k)
            set(first + std::size_t(k), chunk_[k]);
        for (std::size_t i = first; i < first + n; ++i) {
            const bool fluid = p.type[i] == kFluid;
            out_.per_slice.add(grid_, p.pos[i], fluid);
            out_.fluid += fluid;
        }
        chunk_.clear();
    }

private:
    static constexpr std::size_t kChunk = std::size_t(1) << 20;

    // Particle i of the run from s, as HostParticles::add makes one: its id is its index.
    void set(std::size_t i, const SetupParticle& s) {
        // Walls stay on their lattice: their normals and ghost nodes are the geometry's.
        const FixedPos on_lattice = grid_.frame.fixed(s.x, s.y, s.z, 0.0f);
        FixedPos position =
            s.type == kFluid ? perturbed(on_lattice, perturbation_, i + 1) : on_lattice;
        const ParticleType type =
            body_particle_type(bodies_, s.x, s.y, s.z, wall_kind(s.type, o_.slip));
        position.w = float(type);
        const double pressure = o_.rho0 * o_.gravity * s.depth;
        const double rho = tait_density(pressure, o_.rho0, params_.tait_b, o_.gamma);
        HostParticles& p = out_.particles;
        p.id[i] = static_cast<std::uint32_t>(i);
        p.pos[i] = position;
        p.velrho[i] = make_vec4(0.0f, 0.0f, 0.0f, float(rho));
        p.type[i] = type;
        p.to_ghost[i] = make_vec3(float(s.to_ghost[0]), float(s.to_ghost[1]), float(s.to_ghost[2]));
    }

    const RunOptions& o_;
    const SphParams& params_;
    const CellGrid& grid_;
    const std::vector<MovingBody>& bodies_;  // wall particles in their regions become theirs
    LaidOut& out_;
    const StartPerturbation perturbation_;
    std::vector<SetupParticle> chunk_;
};

}  // namespace

LaidOut lay_out(const Problem& problem, const RunOptions& o, const SphParams& params,
                const CellGrid& grid, std::size_t at_most) {
    struct Beyond {};  // thrown out of Problem::fill, which has no other way to stop
    LaidOut out;
    out.particles.frame = grid.frame;
    out.per_slice = SliceCounts(grid);
    const std::vector<MovingBody> bodies = problem.bodies(o.dp);
    check_body_laws(bodies);
    ChunkedLayOut chunks(o, params, grid, bodies, out);
    try {
        problem.fill(o.dp, [&](const SetupParticle& s) {
            if (++out.count > at_most) throw Beyond{};
            chunks.add(s);
        });
        chunks.flush();
    } catch (const Beyond&) {
        out.particles = HostParticles{};
        out.beyond = true;
    }
    return out;
}

SliceCounts particles_per_slice(const HostParticles& particles, const CellGrid& grid) {
    SliceCounts counts(grid);
    for (std::size_t i = 0; i < particles.size(); ++i)
        counts.add(grid, particles.pos[i], particles.type[i] == kFluid);
    return counts;
}

std::vector<std::uint64_t> start_work(const SliceCounts& counts, BoundaryModel boundary) {
    const std::uint64_t fluid_work = boundary == BoundaryModel::kMdbc ? 3 : 6, wall_work = 1;
    std::vector<std::uint64_t> work(counts.all.size());
    for (std::size_t s = 0; s < work.size(); ++s)
        work[s] = fluid_work * counts.fluid[s] + wall_work * (counts.all[s] - counts.fluid[s]);
    return work;
}

HostParticles make_particles(const Problem& problem, const RunOptions& o, const SphParams& params) {
    const CellGrid grid = make_grid(problem, params, o.dp, 0);
    return lay_out(problem, o, params, grid, std::size_t(-1)).particles;
}

Instruments run_instruments(const Instruments& problem_defaults, const RunOptions& options) {
    Instruments in;
    if (options.problem_instruments) in = problem_defaults;
    in.gauge_reading = options.gauge_reading;
    in.gauges.insert(in.gauges.end(), options.gauges.begin(), options.gauges.end());
    in.probes.insert(in.probes.end(), options.probes.begin(), options.probes.end());
    in.walls.insert(in.walls.end(), options.walls.begin(), options.walls.end());
    return in;
}

void check_wall_sensors(const std::vector<WallSensor>& sensors, const HostParticles& particles,
                        const SphParams& params) {
    for (const WallSensor& w : sensors) {
        if (w.surface() && params.boundary != BoundaryModel::kMdbc) {
            throw OptionError("surface panel " + w.name +
                              " reads the walls' normals from their mDBC ghost nodes: run it "
                              "with --boundary mdbc");
        }
    }
    const std::vector<double> readings = wall_readings(sensors, particles, params);
    for (std::size_t s = 0; s < sensors.size(); ++s) {
        if (!std::isnan(readings[s])) continue;
        const WallSensor& w = sensors[s];
        std::ostringstream msg;
        if (w.surface()) {
            msg << "surface panel " << w.name << " around (" << w.x << ", " << w.y << ", " << w.z
                << ") m holds no wall surface the water can reach (no wall particle of a wet "
                   "surface's first layer inside its box)";
            throw OptionError(msg.str());
        }
        msg << (w.moment()  ? "moment panel "
                : w.panel() ? "wall panel "
                            : "wall sensor ")
            << w.name << " at (" << w.x << ", " << w.y << ", " << w.z << ") m facing "
            << (w.direction > 0 ? '+' : '-') << "xyz"[w.axis]
            << " has no wall behind it: " << (w.panel() ? "it" : "its centre")
            << " must lie on a wall's face (the surface the water touches) and FACE point from "
               "the wall into the water";
        throw OptionError(msg.str());
    }
}

int halo_slices(const HostParticles& particles, const SphParams& params, const CellGrid& grid) {
    if (params.boundary != BoundaryModel::kMdbc) return 1;
    const int axis = grid.split_axis();
    double reach = 0.0;
    for (std::size_t i = 0; i < particles.size(); ++i) {
        const Vec3 g = particles.to_ghost[i];
        const float along = axis == 0 ? g.x : axis == 1 ? g.y : g.z;
        reach = std::max(reach, double(std::fabs(along)));
    }
    reach += std::sqrt(double(params.list_radius_sq));
    return 1 + static_cast<int>(std::ceil(reach / double(grid.cell_side)));
}

CellGrid make_grid(const Problem& problem, const SphParams& params, double dp, int split_axis) {
    const Box d = problem.domain(dp);
    CellGrid grid = make_cell_grid(d.lo, d.hi, std::sqrt(double(params.list_radius_sq)), split_axis,
                                   frame_for_domain(d.lo, d.hi));
    const Box reach = problem.fluid_reach(dp);
    for (int a = 0; a < 3; ++a) {
        grid.fluid_lo[a] = grid.frame.steps(reach.lo[a], a);
        grid.fluid_hi[a] = grid.frame.steps(reach.hi[a], a);
    }
    return grid;
}

}  // namespace sph
