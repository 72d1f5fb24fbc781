// One iteration of the simulation (Simulation::step): the devices' step with a rebuild every k
// iterations (or sooner for the list's margin), balancing at rebuilds, and the checks on what
// the devices report (particles leaving the domain, non-finite states, crowded neighbour rows,
// the list's margin); the devices' readings of the instruments.
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>

#include "common/trace.h"
#include "driver/simulation.h"

namespace sph {

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
