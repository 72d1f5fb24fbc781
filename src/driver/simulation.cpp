#include "driver/simulation.h"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

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
    span_ = ranks.size() > 1 ? RankSpan::join(ranks, int(devices.size()))
                             : RankSpan(int(devices.size()));
    const int device_count = span_.devices();
    if (options_.mpi_direct && span_.spread() && backend_ == "cuda" && !Ranks::cuda_aware()) {
        throw OptionError("--mpi-buffers direct: this MPI library (" +
                          Ranks::mpi_library().substr(0, Ranks::mpi_library().find('\n')) +
                          ") is not CUDA-aware, so it cannot take GPU memory; use --mpi-buffers "
                          "staged");
    }
    descriptions_.clear();
    for (const auto& device : devices) descriptions_.push_back(device->description());
    if (span_.spread()) descriptions_ = every_ranks_descriptions();
    params_ = make_sph_params(options_, problem.still_water_depth());
    list_margin_ =
        ListMargin(params_.cfl, params_.h, params_.c0, 2.0 * params_.h * options_.list_skin);
    grid_ = make_grid(problem, params_, options_.dp, split_axis);
    check_device_count(device_count);
    DeviceLayout layout;
    const bool listed = options_.neighbours == RunOptions::NeighbourSearch::kList;
    layout.max_neighbours = listed ? static_cast<std::uint32_t>(options_.max_neighbours) : 0;
    // Room for a run of fluid alone, until the particles are laid out.
    const double list_radius_in_dp = std::sqrt(double(params_.list_radius_sq)) / options_.dp;
    layout.list_height = expected_list_height(list_radius_in_dp, layout.max_neighbours, 1.0);
    layout.ghost_offsets = params_.boundary == BoundaryModel::kMdbc;
    layout.grid = grid_;
    // Laying out stops past what the devices could ever hold, or past 32-bit ids, and the run is
    // refused before anything is allocated.
    constexpr std::uint64_t kMostIds = (std::uint64_t(1) << 32) - 2;
    const std::uint64_t held = most_particles_held(devices, layout, options_.device_memory_limit);
    LaidOut laid = lay_out(problem, options_, params_, grid_, std::min(held, kMostIds));
    if (laid.beyond && held > kMostIds) {
        throw OptionError("--dp " + std::to_string(options_.dp) +
                          " gives more than 4e9 particles; use a larger --dp");
    }
    if (laid.beyond) refuse_more_than(devices, held, options_.device_memory_limit);
    setup_count_ = laid.count;
    if (span_.spread())
        check_same_run_on_every_rank(physics_settings(problem, options_, grid_, laid.count));
    particle_count_ = laid.count;
    fluid_count_ = laid.fluid;
    if (saved_) {
        check_restart(*saved_, problem.name(),
                      physics_settings(problem, options_, grid_, laid.count), options_);
    }
    // One device has no neighbours to hold slices of.
    const int halo = device_count > 1 ? halo_slices(laid.particles, params_, grid_) : 1;
    check_halo(device_count, halo);
    if (saved_) {  // the checkpoint's particles, not the problem's, with a branch's changes
        laid.particles = std::move(saved_->particles);
        laid.particles.frame = grid_.frame;  // the checkpoint's: physics_settings checked it
        if (!options_.geometry_changes.empty()) {
            const GeometryOutcome changed = apply_geometry_changes(
                options_.geometry_changes, problem, options_, laid.particles);
            restart_notes_ += "walls changed: " + changed.describe() + "\n";
        }
        laid.per_slice = particles_per_slice(laid.particles, grid_);
        particle_count_ = laid.particles.size() + saved_->removed;
        fluid_count_ = laid.particles.count(kFluid) + saved_->removed;
        if (particle_count_ > held) refuse_more_than(devices, held, options_.device_memory_limit);
    }
    layout.capacity = static_cast<std::uint32_t>(particle_count_);
    // Under DBC a wall lists the fluid alone and needs less room; under mDBC, the fluid around
    // its ghost node, which may lie as deep in the water as a fluid particle.
    if (laid.particles.size() > 0 && !layout.ghost_offsets) {
        layout.list_height =
            expected_list_height(list_radius_in_dp, layout.max_neighbours,
                                 double(laid.particles.count(kFluid)) / laid.particles.size());
    }
    instruments_ = run_instruments(problem.instruments(), options_);
    // The sensors asked for must have a wall behind them; the problem's own may lose theirs to a
    // geometry change (a scenario without the obstacle) and then read NaN.
    check_wall_sensors(options_.walls, laid.particles, params_);
    const Box domain = problem.domain(options_.dp);
    instrument_plan_ =
        plan_instruments(instruments_, params_, domain.lo[2], domain.hi[2], grid_.frame);
    layout.instrument_sites = static_cast<std::uint32_t>(instrument_plan_.sites.size());
    std::uint64_t id_end = particle_count_;  // ids are below this (a branch's added walls too)
    for (std::uint32_t id : laid.particles.id) id_end = std::max<std::uint64_t>(id_end, id + 1ull);
    layout.id_bits = bits_for(id_end);
    if (layout.sort_key_bits() > 64) {
        throw std::invalid_argument("the sort key of " + std::to_string(id_end) + " particles in " +
                                    std::to_string(grid_.cell_count()) +
                                    " cells needs more than 64 bits; use a larger --dp or a "
                                    "smaller domain");
    }
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

void Simulation::fail_out_of_domain() {
    const HostParticles p = download();
    std::ostringstream msg;
    msg << "a particle left the domain " << when();
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (grid_.particle_cell(p.pos[i]) != grid_.outside_cell()) continue;
        // Inside the grid, it is fluid beyond the problem's reach for fluid.
        const bool in_grid = grid_.cell_of(p.pos[i]) != grid_.outside_cell();
        const Box d = in_grid ? problem_.fluid_reach(options_.dp) : problem_.domain(options_.dp);
        // A coordinate at the edge of the positions' frame went at least that far (it saturates
        // there, kernels/fixed_position.h).
        const auto coordinate = [&](int axis) {
            const std::int32_t steps = fixed_component(p.pos[i], axis);
            std::ostringstream out;
            out << p.frame.metres(steps, axis);
            return steps == INT32_MAX   ? "beyond " + out.str()
                   : steps == INT32_MIN ? "below " + out.str()
                                        : out.str();
        };
        msg << ": particle " << p.id[i] << " (" << (p.type[i] == kFluid ? "fluid" : "boundary")
            << ") is at (" << coordinate(0) << ", " << coordinate(1) << ", " << coordinate(2)
            << "), outside " << (in_grid ? "the fluid's reach " : "") << "[" << d.lo[0] << ", "
            << d.hi[0] << "] x [" << d.lo[1] << ", " << d.hi[1] << "] x [" << d.lo[2] << ", "
            << d.hi[2] << "] m";
        break;
    }
    msg << ". The simulation is probably unstable: try a smaller --cfl or --dp.";
    throw SimulationError(msg.str());
}

void Simulation::fail_non_finite() {
    const HostParticles p = download();
    std::ostringstream msg;
    msg << "the simulation blew up " << when() << ": accelerations or density rates are not finite";
    for (std::size_t i = 0; i < p.size(); ++i) {
        // Positions are whole steps (kernels/fixed_position.h), always finite: the velocity and
        // density tell.
        const Vec4& v = p.velrho[i];
        if (std::isfinite(v.x + v.y + v.z + v.w)) continue;
        const Vec3 x = p.position(i);
        msg << "; particle " << p.id[i] << " has position (" << x.x << ", " << x.y << ", " << x.z
            << "), velocity (" << v.x << ", " << v.y << ", " << v.z << "), density " << v.w;
        break;
    }
    msg << ". Try a smaller --cfl or --dp.";
    throw SimulationError(msg.str());
}

void Simulation::check_neighbours(std::uint32_t largest) {
    if (largest == kCellOverflow && iteration_ == 0) {
        // On the initial lattice the list radius is to blame, not the flow.
        std::ostringstream radius;
        radius << std::sqrt(double(params_.list_radius_sq)) / options_.dp;
        throw SimulationError(
            "the neighbour list cannot hold the lattice's neighbours at a list radius of " +
            radius.str() + " dp (2h (1 + list-skin)): a row of cells holds more than " +
            std::to_string(kLargestRowCount) +
            " neighbours of one particle, or as many particles between two of them; use a "
            "smaller --h-factor or --list-skin, or --neighbours cells, which has no such limit");
    } else if (largest == kCellOverflow) {
        throw SimulationError(
            "particles clumped " + when() +
            ": a row of cells is too crowded for the neighbour "
            "list (more than " +
            std::to_string(kLargestRowCount) +
            " neighbours of one particle in it, or as many particles between two of them). The "
            "simulation is unstable: try a smaller --cfl (at a large --h-factor, --neighbours "
            "cells has no such limit).");
    }
    if (largest > std::uint32_t(options_.max_neighbours)) {
        throw SimulationError("a particle has " + std::to_string(largest) + " neighbours " +
                              when() + ", more than --max-neighbours " +
                              std::to_string(options_.max_neighbours) + ": raise it");
    }
    largest_neighbours_ = std::max(largest_neighbours_, largest);
}

// A device kept room for a lattice's lists and the particles' took more (closer packed, or off
// the lattice): it grew its list and built again. Said a few times; the report's memory holds the
// last size.
void Simulation::note_list_growth() {
    if (log_ == nullptr || ++list_growth_notes_ > kListGrowthNotes) return;
    std::size_t bytes = 0;
    const RankSpan& span = group_->span();
    for (int d = span.first_local(); d < span.end_local(); ++d) {
        bytes += group_->device(d).layout().list_bytes();
    }
    *log_ << "note: the neighbour lists needed more room " << when() << "; this rank's now take "
          << (bytes >> 20) << " MiB"
          << (list_growth_notes_ == kListGrowthNotes ? " (further growth is not reported)" : "")
          << "\n";
}

// At a rebuild: whether the interval before it kept within the list's margin (list_margin.h).
// The first interval that did not is a warning; the report counts them all.
void Simulation::check_list_margin() {
    const long before = list_margin_.exceeded();
    list_margin_.at_rebuild();
    if (before > 0 || list_margin_.exceeded() == 0 || log_ == nullptr) return;
    std::ostringstream text;
    text << std::fixed << std::setprecision(0) << "warning: before the rebuild " << when()
         << " the fastest particle may have moved up to " << 100.0 * list_margin_.largest_share()
         << " % of the neighbour list's margin (" << std::setprecision(2)
         << 1000.0 * list_margin_.margin()
         << " mm, 2h x --list-skin) since the last one: pairs that closed further were missed "
            "until this rebuild. A smaller --rebuild-every or a larger --list-skin keeps them; "
            "the report counts such intervals.\n";
    *log_ << text.str();
}

// At a rebuild: Listing 1 on the Forces times of the last k iterations. Slices move at this
// rebuild, except where the receiving device would run out of room.
void Simulation::balance() {
    TimedRegion region(balance_seconds_, main_track_, "load balancing", "balancing");
    std::optional<BalanceDecision> decision = balancer_->decide(group_->slices());
    if (!decision) return;
    const std::vector<std::uint64_t> count = group_->particle_counts();
    if (!balancing_) {  // logged as measured, nothing moves
        decision->marks.assign(decision->marks.size(), BalanceMark::kNone);
        decision->boundary_shift.assign(decision->boundary_shift.size(), 0);
        decision->to = decision->from;
    }
    if (decision->changed()) {
        const std::vector<std::uint64_t> first = group_->first_slice_counts();
        const std::vector<std::uint64_t> last = group_->last_slice_counts();
        std::vector<std::uint64_t> after = count;
        std::uint64_t largest_edge = 0;
        for (int d = 0; d < group_->size(); ++d) {
            largest_edge = std::max({largest_edge, first[d], last[d]});
        }
        for (std::size_t b = 0; b < decision->boundary_shift.size(); ++b) {
            if (decision->boundary_shift[b] < 0) {  // device b's last slice goes to b + 1
                after[b] -= last[b];
                after[b + 1] += last[b];
            } else if (decision->boundary_shift[b] > 0) {  // b + 1's first slice goes to b
                after[b + 1] -= first[b + 1];
                after[b] += first[b + 1];
            }
        }
        // Room for the external slices and for particles moving in before the next rebuild.
        bool dropped = false;
        for (std::size_t b = 0; b < decision->boundary_shift.size(); ++b) {
            const std::size_t taker = decision->boundary_shift[b] < 0 ? b + 1 : b;
            if (decision->boundary_shift[b] != 0 &&
                after[taker] + 4 * largest_edge > group_->capacity()) {
                decision->boundary_shift[b] = 0;
                dropped = true;
                ++balance_counts_.dropped;
            }
        }
        if (dropped) decision->to = apply_boundary_shifts(decision->from, decision->boundary_shift);
        for (int shift : decision->boundary_shift) balance_counts_.moves += shift != 0;
        group_->set_slices(decision->to);
    }
    ++balance_counts_.decisions;
    if (balance_log_) balance_log_->write(iteration_, time_, *decision, count);
}

bool Simulation::at_rebuild() const {
    return since_rebuild_ >= options_.rebuild_every ||
           (options_.early_rebuild && list_margin_.next_iteration_may_pass(next_dt_limit_));
}

void Simulation::step() {
    if (trace_ && iteration_ == options_.trace_first) start_trace();
    advance();
    if (trace_began_ >= 0 && iteration_ == options_.trace_end) finish_trace();
}

void Simulation::advance() {
    TracedRegion region(main_track_, "iteration", "iteration");
    const bool rebuild = at_rebuild();
    if (rebuild) {
        ++rebuilds_;
        if (since_rebuild_ < options_.rebuild_every) ++early_rebuilds_;
    }
    if (rebuild && balancer_) balance();
    const StepResult r = run_devices(
        StepRequest{iteration_, rebuild, time_, options_.t_end, next_dt_limit_}, "devices' step");
    count_removed(r.removed);  // before the check below: with no fluid left, dt is infinite
    if (r.non_finite) fail_non_finite();
    if (rebuild) {
        devices_sorted_ = true;
        check_neighbours(r.largest_neighbours);
        check_list_margin();
        if (r.list_grown) note_list_growth();
    }
    particle_iterations_ += double(particle_count_ - removed_);
    time_ += r.dt;
    list_margin_.add_iteration(r.dt, next_dt_limit_, r.next_dt_limit);
    next_dt_limit_ = r.next_dt_limit;
    since_rebuild_ = rebuild ? 1 : since_rebuild_ + 1;
    if (balancer_) {
        const SliceMap& map = group_->slices();
        for (int d = 0; d < group_->size(); ++d) {
            balancer_->add_sample(d, group_->forces_seconds()[d],
                                  map.end_slice(d) - map.first_slice(d));
        }
        balancer_->end_iteration();
    }
    ++iteration_;
}

StepResult Simulation::run_devices(const StepRequest& request, const char* what) {
    StepResult r;
    try {
        TracedRegion devices(main_track_, what, "wait");
        r = group_->step(request);
    } catch (const std::exception& e) {
        throw SimulationError("a device failed " + when() + ": " + e.what());
    }
    if (r.outside_grid) fail_out_of_domain();
    return r;
}

void Simulation::count_removed(std::uint64_t removed) {
    if (removed == 0) return;
    removed_ += removed;
    if (log_ != nullptr && ++removal_warnings_ <= kRemovalWarnings) {
        *log_ << "warning: " << removed << " particle(s) left the domain or the fluid's reach "
              << when() << " and were removed (" << removed_ << " so far)"
              << (removal_warnings_ == kRemovalWarnings ? "; further removals are only counted"
                                                        : "")
              << "\n";
    }
    if (removed_ >= fluid_count_) {
        throw SimulationError("every fluid particle has left the domain or the fluid's reach " +
                              when() + ": nothing is left to simulate");
    }
}

// The devices' first rebuild, ahead of the first step: a reading before any step (t = 0, or where
// a restart goes on) needs the particles in cells. The first step rebuilds again; the particles
// have not moved, so it sorts them into the same order and the run keeps its bits.
void Simulation::sort_devices() {
    const StepResult r =
        run_devices(StepRequest{iteration_, true, time_, options_.t_end, next_dt_limit_, true},
                    "devices' first rebuild");
    check_neighbours(r.largest_neighbours);
    if (r.list_grown) note_list_growth();
    count_removed(r.removed);
    devices_sorted_ = true;
}

void Simulation::start_measuring() {
    // Every reading comes from the devices, the one before the first step too (it once came from
    // a copy of every particle on the host: 53 GB at 720 M particles).
    if (!devices_sorted_) sort_devices();
    const FrontSpec* front = instrument_plan_.front ? &*instrument_plan_.front : nullptr;
    group_->start_measuring(front);
}

InstrumentReadings Simulation::finish_measuring() {
    return readings_from(instruments_, instrument_plan_, group_->finish_measuring());
}

}  // namespace sph
