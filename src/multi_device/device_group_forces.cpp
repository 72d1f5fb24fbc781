// DeviceGroup's Forces stage across devices: the edge-force sends each device plans at a rebuild,
// the stage itself with its sends, and its dt minimum shared with every device.
#include "multi_device/device_group.h"

namespace sph {

// Where device d's edge bands' forces go: its left band to the left neighbour's right external
// slots, its right band to the right neighbour's left ones; for a neighbour on another rank, into
// host staging that a message carries as soon as they have landed there (send_remote_forces),
// while the device still computes its central stripe.
void DeviceGroup::plan_sends(int d) {
    const int n = size();
    ForceSends& s = sends_[d];
    s = ForceSends{};
    const std::uint32_t first = left_external(d);
    RemoteLink& link = remote_[d];
    if (d > 0) {
        s.left.first = first;
        s.left.count = left_band_end_[d];
        if (local(d - 1)) {
            Device& left = *devices_[d - 1];
            s.left.to = left.force_buffer().offset((left_external(d - 1) + internal_[d - 1]) *
                                                   sizeof(Vec4));
            s.left.receiver = &left;
        } else {
            if (!direct_) {  // else the message reads them from the force buffer
                link.forces_out[0].reserve(devices_[d]->transport(), s.left.count * sizeof(Vec4));
                s.left.to = link.forces_out[0].endpoint();
            }
            s.left.landed = [this, d] { send_remote_forces(d, 0); };
        }
    }
    if (d + 1 < n) {
        s.right.first = first + right_band_start_[d];
        s.right.count = internal_[d] - right_band_start_[d];
        if (local(d + 1)) {
            Device& right = *devices_[d + 1];
            s.right.to = right.force_buffer();
            s.right.receiver = &right;
        } else {
            if (!direct_) {
                link.forces_out[1].reserve(devices_[d]->transport(), s.right.count * sizeof(Vec4));
                s.right.to = link.forces_out[1].endpoint();
            }
            s.right.landed = [this, d] { send_remote_forces(d, 1); };
        }
    }
}

// Forces on the internal particles with the edge-slice sends overlapping them (docs/design.md:
// paper section 3.4), then the stage's dt minimum into every device's memory.
void DeviceGroup::stage(int d, Stage stage, const StepClock& clock) {
    Device& dev = *devices_[d];
    wait_for_neighbour_markers(d);
    if (span_.spread()) receive_remote_forces(d);
    dev.forces(stage, sends_[d], clock);
    auto count_send = [&](const ForceSend& send, int to) {
        if (send.count == 0) return;
        ++stats_[d].force_sends;
        traffic_.forces(d, to, std::uint64_t(send.count) * sizeof(Vec4));
    };
    count_send(sends_[d].left, d - 1);
    count_send(sends_[d].right, d + 1);
    if (d == fault_.device && request_.iteration == fault_.iteration &&
        stage == Stage::kPredictor) {
        dev.inject_fault();
    }
    if (span_.spread()) {
        share_minimum_across_ranks(d, stage);
    } else {
        share_minimum_here(d, stage);
    }
}

// Device to device: each copies its minimum into the others' memory, and waits there for theirs
// (which also says that their edge forces have arrived). The host only sees to it that a device
// waits for another's minimum once that has been queued.
void DeviceGroup::share_minimum_here(int d, Stage stage) {
    Device& dev = *devices_[d];
    dev.queue_minimum(stage, std::uint32_t(d), minimum_copies_[index_of(stage)][d]);
    long mine = 0;
    {
        std::lock_guard<std::mutex> lock(marker_mutex_);
        mine = ++minima_queued_[d];
    }
    marker_changed_.notify_all();
    wait_for_workers(d, stats_[d].dt_wait_seconds, "dt minima wait", [&] {
        for (int e = span_.first_local(); e < span_.end_local(); ++e) {
            if (minima_queued_[e] < mine) return false;
        }
        return true;
    });
    dev.wait_for_minima(stage, minimum_sources_[d]);
}

// Across ranks through the host: the device's own minimum read back (which waits for the stage),
// every device's gathered at a barrier, then set on the device.
void DeviceGroup::share_minimum_across_ranks(int d, Stage stage) {
    Device& dev = *devices_[d];
    dev.queue_minimum(stage, std::uint32_t(d), {});
    dev.wait_for_minima(stage, {});
    std::vector<float>& minima = local_min_[index_of(stage)];
    minima[d] = dev.read_minima(stage)[std::size_t(d)];
    {  // what the central stripe did not hide
        TimedRegion region(stats_[d].rank_forces_seconds, host_track_[d], "edge forces over MPI",
                           "exchange");
        finish_remote_forces(d);
    }
    // Shared at the barrier below, for the balancer: both stages of an iteration.
    const double seconds = dev.forces_seconds(stage);
    forces_seconds_[d] = stage == Stage::kPredictor ? seconds : forces_seconds_[d] + seconds;
    // Past this barrier every device's external forces have arrived.
    wait_at_barrier(d, stats_[d].dt_wait_seconds, "dt reduction wait");
    dev.set_minima(stage, minima);
}

}  // namespace sph
