#include "multi_device/device_group.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>
#include <thread>

#include "body_loads_body.h"

namespace sph {

DeviceGroup::DeviceGroup(std::vector<std::unique_ptr<Device>> devices, SliceMap slices,
                         CellGrid grid, RankSpan span)
    : span_(span.ranks() != nullptr ? span : RankSpan(int(devices.size()))),
      devices_(std::size_t(span_.devices())),
      slices_(std::move(slices)),
      grid_(grid),
      bounds_(slices_.cell_bounds(grid)),
      cuts_(devices_.size(), std::vector<std::uint32_t>(devices_.size() + 1, 0)),
      internal_(devices_.size()),
      first_slice_end_(devices_.size()),
      last_slice_start_(devices_.size()),
      largest_(devices_.size()),
      list_grown_(devices_.size()),
      left_band_end_(devices_.size()),
      right_band_start_(devices_.size()),
      outside_(devices_.size()),
      local_min_{std::vector<float>(devices_.size()), std::vector<float>(devices_.size())},
      minimum_sources_(devices_.size()),
      sends_(devices_.size()),
      forces_seconds_(devices_.size()),
      stats_(devices_.size()),
      traffic_(int(devices_.size())),
      host_track_(devices_.size()),
      markers_(devices_.size(), 0),
      minima_queued_(devices_.size(), 0),
      barrier_(span_.end_local() - span_.first_local(), [this] { open_barrier(); }),
      remote_(devices_.size()) {
    if (slices_.devices() != size()) throw std::logic_error("DeviceGroup: slice map size");
    if (int(devices.size()) != span_.end_local() - span_.first_local()) {
        throw std::logic_error("DeviceGroup: the rank's devices do not match its span");
    }
    capacity_ = devices.front()->capacity();
    for (std::size_t k = 0; k < devices.size(); ++k) {
        capacity_ = std::min(capacity_, devices[k]->capacity());
        devices_[std::size_t(span_.first_local()) + k] = std::move(devices[k]);
    }
    bool all_apart = true;
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        devices_[d]->prepare_minima(std::uint32_t(size()));
        all_apart = all_apart && devices_[d]->computes_apart_from_host();
    }
    if (all_apart) handoff_spin_ = std::chrono::milliseconds(20);
    for (auto& copies : minimum_copies_) copies.resize(devices_.size());
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        for (int e = span_.first_local(); e < span_.end_local(); ++e) {
            if (e == d) continue;
            minimum_sources_[d].push_back(devices_[e].get());
            for (Stage s : {Stage::kPredictor, Stage::kCorrector}) {
                minimum_copies_[index_of(s)][d].push_back(
                    devices_[e]->minima(s).offset(std::size_t(d) * sizeof(float)));
            }
        }
    }
    if (span_.spread()) {  // the balancer's room checks agree on every rank
        for (const std::string& c : span_.ranks()->all_gather(std::to_string(capacity_))) {
            capacity_ = std::min<std::size_t>(capacity_, std::stoull(c));
        }
    }
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        if (span_.spread()) remote_[d].messages = span_.ranks()->messages();
        threads_.emplace_back([this, d] { work(d); });
    }
}

DeviceGroup::~DeviceGroup() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : threads_) t.join();
}

void DeviceGroup::upload(const HostParticles& all) {
    std::vector<HostParticles> parts(devices_.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        int d = size() -
                1;  // particles outside the grid go to the last device: its rebuild reports them
        const std::uint32_t cell = grid_.particle_cell(all.pos[i]);
        if (cell != grid_.outside_cell()) {
            d = slices_.owner(static_cast<int>(cell / grid_.cells_per_slice()));
        }
        if (local(d)) parts[d].append(all, i);
    }
    for (int d = span_.first_local(); d < span_.end_local(); ++d) devices_[d]->upload(parts[d]);
}

// One device holds each plane of a site's cells (the others' sums there are zeros), so adding
// the devices' plane sums, then the planes, gives the same bits on any split. Several devices
// start theirs side by side, each on its worker: the launches lie on the host's path between
// two steps, which one after another they lengthened by as many times (on two H200s at every
// iteration, 4-5 % of DamBreak's speed against 2 % on one).
void DeviceGroup::set_instrument_sites(const std::vector<InstrumentSite>& sites) {
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        devices_[d]->set_instrument_sites(sites);
    }
    measured_sites_ = sites.size();
}

void DeviceGroup::set_bodies(const BodyTable& bodies) {
    for (int d = span_.first_local(); d < span_.end_local(); ++d) devices_[d]->set_bodies(bodies);
}

void DeviceGroup::set_damping(const std::vector<DampingZone>& zones) {
    for (int d = span_.first_local(); d < span_.end_local(); ++d) devices_[d]->set_damping(zones);
}

std::vector<unsigned long long> DeviceGroup::body_loads(const std::vector<FixedPos>& points) {
    std::vector<unsigned long long> sums(points.size() * kBodyLoadSums, 0);
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        const std::vector<unsigned long long> part = devices_[d]->body_loads(points, false);
        for (std::size_t k = 0; k < sums.size(); ++k) sums[k] += part[k];  // integers: any order
    }
    return sums;
}

void DeviceGroup::start_measuring(const FrontSpec* front) {
    if (span_.end_local() - span_.first_local() == 1) {
        devices_[span_.first_local()]->start_measuring(front);
    } else {
        measured_front_ = front;
        run_on_workers(Command::kMeasure);
    }
}

InstrumentSums DeviceGroup::finish_measuring() {
    InstrumentSums all;
    all.planes.assign(measured_sites_ * kCellPlanes, SiteSums{0.0f, 0.0f});
    for (const InstrumentSums& part : finish_each()) {
        for (std::size_t k = 0; k < all.planes.size(); ++k) {
            all.planes[k].weight += part.planes[k].weight;
            all.planes[k].pressure += part.planes[k].pressure;
        }
        all.front_key = std::min(all.front_key, part.front_key);
    }
    for (std::size_t k = 0; k < measured_sites_; ++k) {
        all.sites.push_back(add_planes(&all.planes[k * kCellPlanes]));
    }
    return all;
}

std::vector<std::uint64_t> DeviceGroup::particle_counts() const {
    return std::vector<std::uint64_t>(internal_.begin(), internal_.end());
}

std::vector<std::uint64_t> DeviceGroup::first_slice_counts() const {
    return std::vector<std::uint64_t>(first_slice_end_.begin(), first_slice_end_.end());
}

std::vector<std::uint64_t> DeviceGroup::last_slice_counts() const {
    std::vector<std::uint64_t> count(devices_.size());
    for (int d = 0; d < size(); ++d) count[d] = internal_[d] - last_slice_start_[d];
    return count;
}

void DeviceGroup::set_slices(const SliceMap& slices) {
    if (slices.devices() != size() || slices.slice_count() != slices_.slice_count()) {
        throw std::logic_error("DeviceGroup::set_slices: the map does not fit the group");
    }
    slices_ = slices;
    bounds_ = slices_.cell_bounds(grid_);
}

std::vector<WorkerStats> DeviceGroup::stats() const {
    std::vector<WorkerStats> stats = stats_;
    traffic_.add_to(stats);
    return stats;
}

void DeviceGroup::trace_into(Trace* trace) {
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        host_track_[d] = TraceTrack{};
        if (trace != nullptr) {
            trace->name_process(d + 1,
                                "device " + std::to_string(d) + ": " + devices_[d]->description());
            host_track_[d] = TraceTrack{trace, d + 1, trace->track(d + 1, "host thread")};
        }
        devices_[d]->trace_into(trace, d + 1);
    }
}

namespace {
// Threads of the process polling at a handoff now, and how many may: half the cores, so that
// many groups at once (what-if branches side by side) leave the launching threads their cores.
std::atomic<unsigned> polling{0};
const unsigned kMostPolling = std::max(1u, std::thread::hardware_concurrency() / 2);

// Polls `ready` for up to `spin`, yielding the core between polls, unless too many threads poll
// already (the caller then sleeps at once).
template <class Ready>
void poll_for(std::chrono::microseconds spin, Ready ready) {
    if (spin.count() <= 0) return;
    if (polling.fetch_add(1) < kMostPolling) {
        const auto give_up = std::chrono::steady_clock::now() + spin;
        while (!ready() && std::chrono::steady_clock::now() < give_up) std::this_thread::yield();
    }
    polling.fetch_sub(1);
}
}  // namespace

StepResult DeviceGroup::step(const StepRequest& request) {
    request_ = request;  // the workers wait: nothing reads it until run_on_workers
    result_ = StepResult{};
    run_on_workers(Command::kStep);
    return result_;
}

void DeviceGroup::run_on_workers(Command command) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (error_) std::rethrow_exception(error_);
        command_kind_ = command;
        finished_ = 0;
        ++command_;
    }
    wake_.notify_all();
    const int workers = span_.end_local() - span_.first_local();
    poll_for(handoff_spin_, [&] { return finished_.load() == workers; });
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return finished_ == workers; });
    if (error_) std::rethrow_exception(error_);
}

void DeviceGroup::work(int d) {
    long seen = 0;
    for (;;) {
        poll_for(handoff_spin_, [&] { return stopping_.load() || command_.load() != seen; });
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stopping_ || command_ != seen; });
            if (stopping_) return;
            seen = command_;
        }
        try {
            if (command_kind_ == Command::kMeasure) {
                TracedRegion region(host_track_[d], "measurement launch", "launch");
                devices_[d]->start_measuring(measured_front_);
            } else {
                TracedRegion region(host_track_[d], "step", "step");
                run_step(d);
            }
        } catch (const BarrierAborted&) {
            fail(std::current_exception());  // another worker's error is the one reported
        } catch (const std::exception& e) {
            const std::string message = "device " + std::to_string(d) + " (" +
                                        devices_[d]->description() + "): " + e.what();
            if (span_.spread()) end_job(d, message);
            fail(std::make_exception_ptr(std::runtime_error(message)));
        } catch (...) {
            if (span_.spread()) end_job(d, "unknown error");
            fail(std::current_exception());
        }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            ++finished_;
        }
        done_.notify_all();
    }
}

// Keeps the first error (the cause; the others see BarrierAborted) and wakes every waiter.
void DeviceGroup::fail(std::exception_ptr error) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = error;
    }
    barrier_.abort();
    std::lock_guard<std::mutex> lock(marker_mutex_);
    marker_changed_.notify_all();
}

void DeviceGroup::euler(int d, Stage stage, const StepClock& clock) {
    Device& dev = *devices_[d];
    if (floating_.advance) move_floating_bodies(d, stage, clock);
    {
        TracedRegion region(host_track_[d], "euler launch", "launch");
        dev.euler(stage, clock);
        dev.record_marker();
    }
    {
        std::lock_guard<std::mutex> lock(marker_mutex_);
        ++markers_[d];
    }
    marker_changed_.notify_all();
}

void DeviceGroup::wait_at_barrier(int d, double& seconds, const char* name) {
    TimedRegion region(seconds, host_track_[d], name, "wait");
    barrier_.arrive_and_wait();
}

void DeviceGroup::wait_for_workers(int d, double& seconds, const char* name,
                                   const std::function<bool()>& ready) {
    TimedRegion region(seconds, host_track_[d], name, "wait");
    std::unique_lock<std::mutex> lock(marker_mutex_);
    marker_changed_.wait(lock, [&] { return barrier_.aborted() || ready(); });
    if (barrier_.aborted()) throw BarrierAborted();
}

void DeviceGroup::wait_for_neighbour_markers(int d) {
    const long mine = markers_[d];  // only worker d changes it
    // Only neighbours in this process write into this device's memory.
    wait_for_workers(d, stats_[d].marker_wait_seconds, "neighbour Euler wait", [&] {
        return (!local(d - 1) || markers_[d - 1] >= mine) &&
               (!local(d + 1) || markers_[d + 1] >= mine);
    });
}

// The whole step is queued before the host learns its dt: every device takes it from the
// minima in its own memory (Device: "The step's dt, where the devices are"), and the host reads
// them while the corrector's Euler runs.
void DeviceGroup::run_step(int d) {
    const bool reports = d == span_.first_local();  // one worker per rank writes the result
    if (request_.rebuild && !rebuild(d)) {
        if (reports) result_.outside_grid = true;
        return;
    }
    if (request_.rebuild_only) {
        if (reports) report_rebuild();
        return;
    }
    Device& dev = *devices_[d];
    const StepClock clock{request_.dt_limit, request_.time, request_.t_end};
    stage(d, Stage::kPredictor, clock);
    euler(d, Stage::kPredictor, clock);
    stage(d, Stage::kCorrector, clock);
    euler(d, Stage::kCorrector, clock);
    std::vector<float> predictor, corrector;
    {  // not a wait of the report's: the GPUs compute meanwhile
        TracedRegion region(host_track_[d], "dt read-back", "wait");
        predictor = dev.read_minima(Stage::kPredictor);
        corrector = dev.read_minima(Stage::kCorrector);
    }
    // Every device holds the same minima, so every worker takes the same branch here; where the
    // dt is unusable the devices' Euler left the state as it was.
    const StepDt step = step_dt(predictor.data(), std::uint32_t(size()), clock);
    const float next = global_minimum(corrector.data(), std::uint32_t(size()));
    if (!step.usable || std::isnan(next)) {
        if (reports) result_.non_finite = true;
        return;
    }
    forces_seconds_[d] =
        dev.forces_seconds(Stage::kPredictor) + dev.forces_seconds(Stage::kCorrector);
    stats_[d].forces_seconds += forces_seconds_[d];
    ++stats_[d].iterations;
    if (reports) {
        result_.dt = step.dt;
        result_.next_dt_limit = next;
        if (request_.rebuild) report_rebuild();
    }
}

void DeviceGroup::report_rebuild() {
    result_.largest_neighbours = *std::max_element(largest_.begin(), largest_.end());
    result_.list_grown =
        std::find(list_grown_.begin(), list_grown_.end(), char(1)) != list_grown_.end();
}

}  // namespace sph
