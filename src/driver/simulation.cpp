// Simulation's set-up: the devices the options ask for, the particles laid out (or a restart's
// checkpoint read, checked and taken up), the first split of the slices, the devices sized,
// allocated and uploaded to. One iteration is in simulation_step.cpp.
#include "driver/simulation.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

#include "bodies/moving_bodies.h"
#include "common/clock.h"
#include "devices/cpu/cpu_device.h"
#include "devices/cuda/cuda_support.h"
#include "devices/device_capacity.h"
#include "driver/restart.h"
#include "driver/run_setup.h"

namespace sph {

namespace {

// The devices the options ask for; `backend` and `note` say what was chosen and why.
std::vector<std::unique_ptr<Device>> make_devices(const RunOptions& o,
                                                  const CpuDeviceMaker& make_cpu_device,
                                                  std::string& backend, std::string& note) {
    BackendChoice choice = o.backend;
    const int gpus = visible_gpu_count();
    if (choice == BackendChoice::kAuto) {
        choice = gpus > 0 ? BackendChoice::kCuda : BackendChoice::kCpu;
        note = !cuda_compiled_in() ? "auto: this build has no CUDA back end"
               : gpus > 0          ? "auto: " + std::to_string(gpus) + " GPU(s) visible"
                                   : "auto: no GPU visible";
    } else {
        note = "requested";
    }
    backend = to_string(choice);
    std::vector<std::unique_ptr<Device>> devices;
    if (choice == BackendChoice::kCpu) {
        const int count = o.devices.cpu_devices;
        if (count < 1) {
            throw OptionError("--devices " + o.devices.gpu_list() +
                              " lists GPUs, but the run is on the CPU (" + note + ")");
        }
        // Virtual devices share the machine's cores unless told otherwise.
        const int threads = o.threads > 0 ? o.threads : std::max(1, omp_get_max_threads() / count);
        for (int d = 0; d < count; ++d) {
            devices.push_back(make_cpu_device ? make_cpu_device(d, threads)
                                              : std::make_unique<CpuDevice>(threads));
        }
        return devices;
    }
    if (!cuda_compiled_in()) throw OptionError("--backend cuda: this build has no CUDA back end");
    if (gpus == 0) throw OptionError("--backend cuda: no GPU is visible");
    const std::vector<int>& ids = o.devices.gpu_ids;
    for (int id : ids) {
        if (id >= gpus) {
            throw OptionError("--devices " + o.devices.gpu_list() + ": no GPU " +
                              std::to_string(id) + " (" + std::to_string(gpus) +
                              " visible, ids 0.." + std::to_string(gpus - 1) + ")");
        }
    }
    for (std::size_t d = 0; d + 1 < ids.size(); ++d) {  // neighbours in the chain talk directly
        enable_peer_access(ids[d], ids[d + 1]);
        enable_peer_access(ids[d + 1], ids[d]);
    }
    for (int id : ids) devices.push_back(make_cuda_device(id, o.edge_stripe));
    return devices;
}

// The largest share of particles any device gets from `slices`, and the largest external band.
ShareSizes share_sizes(const LaidOut& laid, const SliceMap& slices) {
    ShareSizes sizes;
    sizes.particles = laid.count;
    for (int d = 0; d < slices.devices(); ++d) {
        std::uint64_t share = 0;
        for (int s = slices.first_slice(d); s < slices.end_slice(d); ++s)
            share += laid.per_slice.all[s];
        sizes.largest_share = std::max(sizes.largest_share, share);
    }
    const std::size_t halo = std::size_t(slices.halo());
    for (std::size_t s = 0; s + halo <= laid.per_slice.all.size(); ++s) {
        std::uint64_t band = 0;
        for (std::size_t k = s; k < s + halo; ++k) band += laid.per_slice.all[k];
        sizes.largest_band = std::max(sizes.largest_band, band);
    }
    return sizes;
}

// The neighbour list's radius in particle spacings, which sizes the lists.
double list_radius_in_dp(const SphParams& params, double dp) {
    return std::sqrt(double(params.list_radius_sq)) / dp;
}

}  // namespace

Simulation::Simulation(const Problem& problem, const RunOptions& options, int split_axis,
                       const CpuDeviceMaker& make_cpu_device, const Ranks& ranks)
    : problem_(problem),
      ranks_(&ranks),
      options_(options),
      next_dt_limit_(std::numeric_limits<float>::infinity()),
      since_rebuild_(options.rebuild_every) {
    const auto start = SteadyClock::now();
    // A restart's checkpoint is read and verified before any device is touched.
    saved_ = read_restart(options_, restart_notes_);
    std::vector<std::unique_ptr<Device>> devices =
        make_devices(options_, make_cpu_device, backend_, backend_note_);
    join_ranks(devices);
    const int device_count = span_.devices();
    params_ = make_sph_params(options_, problem.still_water_depth());
    list_margin_ =
        ListMargin(params_.cfl, params_.h, params_.c0, 2.0 * params_.h * options_.list_skin);
    grid_ = make_grid(problem, params_, options_.dp, split_axis);
    check_device_count(device_count);
    DeviceLayout layout = first_layout();
    const std::uint64_t held = most_particles_held(devices, layout, options_.device_memory_limit);
    LaidOut laid = lay_out_checked(devices, held);
    // One device has no neighbours to hold slices of.
    const int halo = device_count > 1 ? halo_slices(laid.particles, params_, grid_) : 1;
    check_halo(device_count, halo);
    if (saved_) take_up_checkpoint(devices, held, laid);
    size_layout(laid, layout);
    set_up_instruments(laid);
    layout.instrument_sites = static_cast<std::uint32_t>(instrument_plan_.sites.size());
    set_id_bits(laid, layout);
    // A restart on as many devices keeps the checkpoint's slices (and the balancer's timings).
    const bool same_split = saved_ && saved_->first_slices.size() == std::size_t(device_count) &&
                            saved_->halo == halo && saved_->slice_count == grid_.slice_count();
    SliceMap slices = same_split ? SliceMap(saved_->first_slices, saved_->slice_count, halo)
                                 : first_split(devices, layout, laid, halo);
    allocate(devices, layout, share_sizes(laid, slices));
    make_group(std::move(devices), std::move(slices));
    if (saved_) resume(*saved_, same_split);
    group_->upload(laid.particles);
    setup_seconds_ = seconds_since(start);
}

// Where the run's devices are (across ranks, every rank's), and what each is, for the report.
void Simulation::join_ranks(const std::vector<std::unique_ptr<Device>>& devices) {
    span_ = ranks_->size() > 1 ? RankSpan::join(*ranks_, int(devices.size()))
                               : RankSpan(int(devices.size()));
    if (options_.mpi_direct && span_.spread() && backend_ == "cuda" && !Ranks::cuda_aware()) {
        throw OptionError("--mpi-buffers direct: this MPI library (" +
                          Ranks::mpi_library().substr(0, Ranks::mpi_library().find('\n')) +
                          ") is not CUDA-aware, so it cannot take GPU memory; use --mpi-buffers "
                          "staged");
    }
    descriptions_.clear();
    for (const auto& device : devices) descriptions_.push_back(device->description());
    if (span_.spread()) descriptions_ = every_ranks_descriptions();
}

// The devices' layout before any particle is laid out, with room in the lists for a run of
// fluid alone (size_layout fits it to the particles).
DeviceLayout Simulation::first_layout() const {
    DeviceLayout layout;
    const bool listed = options_.neighbours == RunOptions::NeighbourSearch::kList;
    layout.max_neighbours = listed ? static_cast<std::uint32_t>(options_.max_neighbours) : 0;
    layout.list_height =
        expected_list_height(list_radius_in_dp(params_, options_.dp), layout.max_neighbours, 1.0);
    layout.ghost_offsets = params_.boundary == BoundaryModel::kMdbc;
    layout.grid = grid_;
    return layout;
}

// The problem's particles, laid out no further than the devices' `held` particles, and the run
// checked against them: every rank the same run, a restart's checkpoint the same physics.
LaidOut Simulation::lay_out_checked(const std::vector<std::unique_ptr<Device>>& devices,
                                    std::uint64_t held) {
    // Laying out stops past what the devices could ever hold, or past 32-bit ids, and the run is
    // refused before anything is allocated.
    constexpr std::uint64_t kMostIds = (std::uint64_t(1) << 32) - 2;
    LaidOut laid = lay_out(problem_, options_, params_, grid_, std::min(held, kMostIds));
    if (laid.beyond && held > kMostIds) {
        throw OptionError("--dp " + std::to_string(options_.dp) +
                          " gives more than 4e9 particles; use a larger --dp");
    }
    if (laid.beyond) refuse_more_than(devices, held, options_.device_memory_limit);
    setup_count_ = laid.count;
    if (span_.spread())
        check_same_run_on_every_rank(physics_settings(problem_, options_, grid_, laid.count));
    particle_count_ = laid.count;
    fluid_count_ = laid.fluid;
    if (saved_) {
        check_restart(*saved_, problem_.name(),
                      physics_settings(problem_, options_, grid_, laid.count), options_);
    }
    return laid;
}

// The checkpoint's particles, not the problem's, with a branch's changes to the walls.
void Simulation::take_up_checkpoint(const std::vector<std::unique_ptr<Device>>& devices,
                                    std::uint64_t held, LaidOut& laid) {
    laid.particles = std::move(saved_->particles);
    laid.particles.frame = grid_.frame;  // the checkpoint's: physics_settings checked it
    if (!options_.geometry_changes.empty()) {
        const GeometryOutcome changed =
            apply_geometry_changes(options_.geometry_changes, problem_, options_, laid.particles);
        restart_notes_ += "walls changed: " + changed.describe() + "\n";
    }
    laid.per_slice = particles_per_slice(laid.particles, grid_);
    particle_count_ = laid.particles.size() + saved_->removed;
    fluid_count_ = laid.particles.count(kFluid) + saved_->removed;
    if (particle_count_ > held) refuse_more_than(devices, held, options_.device_memory_limit);
}

// The layout's room fitted to the particles the run starts with.
void Simulation::size_layout(const LaidOut& laid, DeviceLayout& layout) const {
    layout.capacity = static_cast<std::uint32_t>(particle_count_);
    // Under DBC a wall lists the fluid alone and needs less room; under mDBC, the fluid around
    // its ghost node, which may lie as deep in the water as a fluid particle.
    if (laid.particles.size() > 0 && !layout.ghost_offsets) {
        layout.list_height =
            expected_list_height(list_radius_in_dp(params_, options_.dp), layout.max_neighbours,
                                 double(laid.particles.count(kFluid)) / laid.particles.size());
    }
}

// The run's instruments, the moving bodies' laws and where the devices measure.
void Simulation::set_up_instruments(const LaidOut& laid) {
    instruments_ = run_instruments(problem_.instruments(), options_);
    // The sensors asked for must have a wall behind them; the problem's own may lose theirs to a
    // geometry change (a scenario without the obstacle) and then read NaN.
    check_wall_sensors(options_.walls, laid.particles, params_);
    std::vector<MovingBody> bodies = problem_.bodies(options_.dp);
    apply_body_changes(bodies, options_.body_changes, saved_ ? saved_->time : -1.0);
    bodies_ = checked_body_table(bodies, laid.particles, problem_.domain(options_.dp),
                                 options_.t_end, saved_ ? saved_->time : 0.0);
    floating_ = FloatingBodies(bodies, laid.particles, options_.dp, params_.gravity);
    damping_ = checked_damping_zones(problem_.damping_zones());
    if (saved_) floating_.restore(saved_->floating, "the checkpoint");
    const Box domain = problem_.domain(options_.dp);
    instrument_plan_ =
        plan_instruments(instruments_, params_, domain.lo[2], domain.hi[2], grid_.frame);
}

// The sort key's id bits, for ids below the particle count and every id held (a branch's added
// walls may lie beyond it); refused where the key would need more than 64 bits.
void Simulation::set_id_bits(const LaidOut& laid, DeviceLayout& layout) const {
    std::uint64_t id_end = particle_count_;
    for (std::uint32_t id : laid.particles.id) id_end = std::max<std::uint64_t>(id_end, id + 1ull);
    layout.id_bits = bits_for(id_end);
    if (layout.sort_key_bits() > 64) {
        throw std::invalid_argument("the sort key of " + std::to_string(id_end) + " particles in " +
                                    std::to_string(grid_.cell_count()) +
                                    " cells needs more than 64 bits; use a larger --dp or a "
                                    "smaller domain");
    }
}

// The devices' slices before the balancer has timed any: by the slices' work (start_work), or by
// their particles where the device that then holds most could not hold them, on any rank.
SliceMap Simulation::first_split(const std::vector<std::unique_ptr<Device>>& devices,
                                 const DeviceLayout& layout, const LaidOut& laid, int halo) const {
    const int device_count = span_.devices();
    SliceMap by_work =
        SliceMap::balanced(start_work(laid.per_slice, params_.boundary), device_count, halo);
    if (device_count == 1) return by_work;
    bool fits =
        shares_fit(devices, layout, share_sizes(laid, by_work), options_.device_memory_limit);
    if (span_.spread()) {
        for (const std::string& rank_fits : ranks_->all_gather(fits ? "1" : "0"))
            fits = fits && rank_fits == "1";
    }
    return fits ? by_work : SliceMap::balanced(laid.per_slice.all, device_count, halo);
}

// Each device owns at least the slices its neighbours hold of it (halo_slices).
void Simulation::check_halo(int devices, int halo) const {
    if (devices * halo <= grid_.slice_count()) return;
    throw OptionError("--devices: " + std::to_string(devices) + " devices need " +
                      std::to_string(halo) + " slices each (the reach of mDBC's ghost nodes) but " +
                      "there are only " + std::to_string(grid_.slice_count()) +
                      " slices to share; use fewer devices or a smaller --dp");
}

void Simulation::check_device_count(int devices) const {
    if (devices > grid_.slice_count()) {
        throw OptionError("--devices: " + std::to_string(devices) + " devices but only " +
                          std::to_string(grid_.slice_count()) + " slices to share");
    }
    if (options_.fault_device >= devices) {
        throw OptionError("--inject-fault: there is no device " +
                          std::to_string(options_.fault_device));
    }
}

// Sizes every device's arrays and allocates them, or refuses the run naming what limits it.
void Simulation::allocate(std::vector<std::unique_ptr<Device>>& devices, DeviceLayout layout,
                          const ShareSizes& sizes) {
    const std::uint64_t limit = options_.device_memory_limit;
    if (span_.devices() == 1) {
        check_single_device_limit(*devices[0], layout, limit);
    } else {
        layout.capacity = multi_device_capacity(devices, layout, sizes, limit);
    }
    for (auto& device : devices) device->allocate(layout, params_);
}

void Simulation::make_group(std::vector<std::unique_ptr<Device>> devices, SliceMap slices) {
    const int device_count = span_.devices();
    group_ = std::make_unique<DeviceGroup>(std::move(devices), std::move(slices), grid_, span_);
    group_->set_instrument_sites(instrument_plan_.sites);
    group_->set_bodies(bodies_);
    if (!floating_.empty()) group_->set_floating(floating_hook());
    group_->set_damping(damping_);
    group_->remove_particles_leaving_the_domain(options_.remove_out_of_domain);
    group_->exchange_device_memory(options_.mpi_direct);
    // With several devices the timings are always gathered and logged; with balancing off the
    // slices stay where they are.
    balancing_ = options_.balancing == RunOptions::Balancing::kOn ||
                 (options_.balancing == RunOptions::Balancing::kAuto && device_count > 1);
    if (device_count > 1) {
        balancer_ = std::make_unique<LoadBalancer>(device_count, options_.rebuild_every,
                                                   options_.lb_threshold);
    }
    if (options_.fault_device >= 0) {
        group_->inject_fault(options_.fault_device, options_.fault_iteration);
    }
}

HostParticles Simulation::download() {
    HostParticles all = joined(group_->download());
    all.frame = grid_.frame;
    return all;
}

std::string Simulation::when() const {
    std::ostringstream s;
    s << "at t = " << time_ << " s (iteration " << iteration_ << ")";
    return s.str();
}

}  // namespace sph
