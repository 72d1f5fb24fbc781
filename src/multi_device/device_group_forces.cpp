// DeviceGroup's Forces stage across devices: the edge-force sends each device plans at a rebuild,
// the stage itself with its sends, and the global dt minimum.
#include <cmath>

#include "multi_device/device_group.h"

namespace sph {

float DeviceGroup::min_keep_nan(float a, float b) {
    return (std::isnan(a) || std::isnan(b)) ? NAN : std::fmin(a, b);
}

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
// paper section 3.4), then the global dt minimum. Returns the minimum over all devices.
float DeviceGroup::stage(int d, Stage stage) {
    Device& dev = *devices_[d];
    wait_for_neighbour_markers(d);
    if (span_.spread()) receive_remote_forces(d);
    dev.forces(stage, sends_[d]);
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
    std::vector<float>& minima = local_min_[stage == Stage::kPredictor ? 0 : 1];
    minima[d] = dev.minimum_dt();  // waits for the forces and the sends
    if (span_.spread()) {          // what the central stripe did not hide
        TimedRegion region(stats_[d].rank_forces_seconds, host_track_[d], "edge forces over MPI",
                           "exchange");
        finish_remote_forces(d);
    }
    // Shared at the barrier below, for the balancer: both stages of an iteration.
    const double seconds = dev.last_forces_seconds();
    forces_seconds_[d] = stage == Stage::kPredictor ? seconds : forces_seconds_[d] + seconds;
    // Past this barrier every device's external forces have arrived.
    wait_at_barrier(d, stats_[d].dt_wait_seconds, "dt reduction wait");
    float global = minima[0];
    for (float m : minima) global = min_keep_nan(global, m);
    return global;
}

}  // namespace sph
