// DeviceGroup's rebuild protocol (docs/design.md: paper section 3.3): BuildNeibs across
// devices, one method per phase between the barriers: sort and cut, migrate, settle (find the
// edge slices), pull the external slices; then each device lists its neighbours.
#include <stdexcept>
#include <string>

#include "multi_device/device_group.h"

namespace sph {

namespace {

// What to do when the water gathers in one device's slices beyond the room it was given.
constexpr const char* kCapacityHint =
    ": the water gathered in its slices; balancing (--lb on) moves slices away from a full "
    "device, more devices give each fewer slices, and a larger --dp fewer particles";

void check_room(const Device& device, int d, std::uint32_t particles, const char* what) {
    if (particles <= device.capacity()) return;
    throw std::runtime_error(
        "device " + std::to_string(d) + " would hold " + std::to_string(particles) + " particles" +
        what + ", more than its capacity of " + std::to_string(device.capacity()) + kCapacityHint);
}

}  // namespace

// Returns false, on every worker alike, when a particle has left the grid (and may not be
// removed).
bool DeviceGroup::rebuild(int d) {
    TracedRegion whole(host_track_[d], "rebuild", "rebuild");
    double& waits = stats_[d].rebuild_wait_seconds;
    sort_and_cut(d);
    devices_[d]->wait_for_measurement();  // the sort ran beside it; the copies below may not
    wait_at_barrier(d, waits, "rebuild wait");
    std::uint64_t outside = 0;
    for (std::uint32_t o : outside_) outside += o;
    if (outside > 0 && !remove_outside_) return false;
    if (d == span_.first_local())
        result_.removed = outside;  // no device takes them below: they are dropped
    const Migration migration = migrate(d);
    // No device reads another's current arrays past this point.
    wait_at_barrier(d, waits, "rebuild wait");
    settle(d, migration);
    wait_at_barrier(d, waits, "rebuild wait");
    const LocalRanges local = pull_external_slices(d);
    wait_at_barrier(d, waits, "rebuild wait");
    Device& device = *devices_[d];
    if (local.left + local.right > 0) device.commit_incoming(local);
    plan_sends(d);
    const NeighbourBuild built = device.build_lists();
    largest_[d] = built.largest_count;
    list_grown_[d] = built.list_grown;
    return true;
}

// Sorts device d's internal particles (externals are dropped: their owners send them anew) and
// finds where each device's part of them starts; the particles outside the grid sort last.
void DeviceGroup::sort_and_cut(int d) {
    Device& device = *devices_[d];
    const LocalRanges before = device.ranges();
    device.sort(before.left, before.internal, before.internal);
    cuts_[d] = device.lower_bounds(before.internal, bounds_);
    outside_[d] = before.internal - cuts_[d][size()];
}

// Gathers, from every device, the particles now in device d's slices, and sends devices on other
// ranks their parts of d's. Each part is sorted; settle() sorts them together. Where d's current
// arrays have room, d's own particles stay where they are and the others land past its internal
// ones, where no other device reads: settle's sort then moves every particle once.
DeviceGroup::Migration DeviceGroup::migrate(int d) {
    const int n = size();
    Device& device = *devices_[d];
    Migration m;
    std::vector<std::uint32_t> part(std::size_t(n), 0);  // each device's part of d's particles
    bool only_own = true;
    for (int e = 0; e < n; ++e) {
        part[e] = cuts_[e][d + 1] - cuts_[e][d];
        m.total += part[e];
        only_own = only_own && (e == d || part[e] == 0);
    }
    check_room(device, d, m.total, "");
    const std::uint32_t internal = device.ranges().internal;
    m.moved = !only_own || cuts_[d][d] != 0 || cuts_[d][d + 1] != internal;
    // When nothing moves, d has no particle for any other device either.
    if (!m.moved) return m;
    WorkerStats& stats = stats_[d];
    TimedRegion region(stats.migration_seconds, host_track_[d], "migration", "exchange");
    m.in_place =
        !through_incoming_ && std::uint64_t(internal) + (m.total - part[d]) <= device.capacity();
    const Landing into = m.in_place ? Landing::kCurrent : Landing::kIncoming;
    std::vector<std::uint32_t> at(std::size_t(n), 0);  // where each device's part lands
    std::uint32_t next = m.in_place ? internal : 0;
    for (int e = 0; e < n; ++e) {
        if (m.in_place && e == d) continue;  // d's own stay where they are
        at[e] = next;
        next += part[e];
    }
    if (m.in_place) {
        m.sort_begin = cuts_[d][d];
        m.sort_count = next - m.sort_begin;
    }
    RemoteLink& link = remote_[d];
    if (span_.spread()) {
        link.migration_out.resize(std::size_t(n));
        link.migration_in.resize(std::size_t(n));
        for (int e = 0; e < n; ++e) {
            if (local(e)) continue;
            send_particles(*link.messages, RankSpan::Message::kMigration, d, cuts_[d][e],
                           cuts_[d][e + 1] - cuts_[d][e], e, link.migration_out[e]);
            receive_particles(*link.messages, RankSpan::Message::kMigration, d, e, at[e], part[e],
                              into, link.migration_in[e]);
        }
    }
    for (int e = 0; e < n; ++e) {
        const bool stays = m.in_place && e == d;
        if (local(e) && !stays) copy_particles(d, at[e], e, cuts_[e][d], part[e], into);
        if (e != d) stats.particles_migrated_in += part[e];
    }
    devices_[d]->transport().finish_copies();
    if (!span_.spread()) return m;
    link.messages->wait_all();
    for (int e = 0; e < n; ++e) {
        if (!local(e)) unpack_particles(d, at[e], part[e], into, link.migration_in[e]);
    }
    return m;
}

// Makes the migrated particles device d's own, sorted, and finds its edge slices and bands.
void DeviceGroup::settle(int d, const Migration& migration) {
    Device& device = *devices_[d];
    if (migration.in_place) {
        device.sort(migration.sort_begin, migration.sort_count, migration.total);
    } else if (migration.moved) {
        device.commit_incoming(LocalRanges{0, migration.total, 0});
        device.sort(0, migration.total, migration.total);
    }
    internal_[d] = migration.total;
    const std::uint32_t per_slice = grid_.cells_per_slice();
    const std::uint32_t band = std::uint32_t(slices_.halo()) * per_slice;
    // Each bound is looked up on its own: the bands of a device narrower than two overlap.
    const std::vector<std::uint32_t> edges =
        device.lower_bounds(migration.total, {bounds_[d] + per_slice, bounds_[d] + band,
                                              bounds_[d + 1] - band, bounds_[d + 1] - per_slice});
    first_slice_end_[d] = edges[0];
    left_band_end_[d] = edges[1];
    right_band_start_[d] = edges[2];
    last_slice_start_[d] = edges[3];
    stats_[d].sample(internal_[d], slices_.end_slice(d) - slices_.first_slice(d));
}

// Assembles [left neighbour's right band | own particles | right neighbour's left band] in
// device d's incoming arrays, and sends neighbours on other ranks d's bands; returns the ranges.
LocalRanges DeviceGroup::pull_external_slices(int d) {
    const std::uint32_t total = internal_[d];
    LocalRanges local_ranges{left_external(d), total, d + 1 < size() ? left_band_end_[d + 1] : 0};
    // The near externals: the left neighbour's last slice, the right neighbour's first.
    if (d > 0) local_ranges.left_near = internal_[d - 1] - last_slice_start_[d - 1];
    if (d + 1 < size()) local_ranges.right_near = first_slice_end_[d + 1];
    check_room(*devices_[d], d, local_ranges.total(), " with its external slices");
    const bool remote_left = d > 0 && !local(d - 1), remote_right = d + 1 < size() && !local(d + 1);
    const bool has_externals = local_ranges.left + local_ranges.right > 0;
    if (!has_externals && !remote_left && !remote_right) return local_ranges;
    TimedRegion region(stats_[d].migration_seconds, host_track_[d], "external slices", "exchange");
    RemoteLink& link = remote_[d];
    const auto kind = RankSpan::Message::kExternalSlices;
    if (remote_left) {  // its right externals are d's left band; d's left, its right band
        send_particles(*link.messages, kind, d, 0, left_band_end_[d], d - 1, link.bands_out[0]);
        receive_particles(*link.messages, kind, d, d - 1, 0, local_ranges.left, Landing::kIncoming,
                          link.bands_in[0]);
    }
    if (remote_right) {
        send_particles(*link.messages, kind, d, right_band_start_[d], total - right_band_start_[d],
                       d + 1, link.bands_out[1]);
        receive_particles(*link.messages, kind, d, d + 1, local_ranges.left + total,
                          local_ranges.right, Landing::kIncoming, link.bands_in[1]);
    }
    if (has_externals) devices_[d]->copy_own_into_incoming(total, local_ranges.left);
    if (local_ranges.left > 0 && !remote_left) {
        copy_particles(d, 0, d - 1, right_band_start_[d - 1], local_ranges.left,
                       Landing::kIncoming);
    }
    if (local_ranges.right > 0 && !remote_right) {
        copy_particles(d, local_ranges.left + total, d + 1, 0, local_ranges.right,
                       Landing::kIncoming);
    }
    devices_[d]->transport().finish_copies();
    if (remote_left || remote_right) {
        link.messages->wait_all();
        if (remote_left) {
            unpack_particles(d, 0, local_ranges.left, Landing::kIncoming, link.bands_in[0]);
        }
        if (remote_right) {
            unpack_particles(d, local_ranges.left + total, local_ranges.right, Landing::kIncoming,
                             link.bands_in[1]);
        }
    }
    return local_ranges;
}

void DeviceGroup::copy_particles(int dst, std::uint32_t dst_at, int src, std::uint32_t src_at,
                                 std::uint32_t count, Landing into) {
    if (count == 0) return;
    const DeviceLayout& layout = devices_[dst]->layout();  // every device keeps the same fields
    traffic_.particles(dst, src, std::uint64_t(count) * layout.record_bytes());
    Transport& t = devices_[dst]->transport();
    for_each_field(
        [&](auto field, const Endpoint& to, const Endpoint& from) {
            if (!layout.keeps(field.kept)) return;
            t.start_copy(to.offset(std::size_t(dst_at) * field.bytes),
                         from.offset(std::size_t(src_at) * field.bytes),
                         std::size_t(count) * field.bytes);
        },
        landing_arrays(dst, into), devices_[src]->current());
}

// Device d's left external slices: the left neighbour's right band, as found at this rebuild.
std::uint32_t DeviceGroup::left_external(int d) const {
    return d > 0 ? internal_[d - 1] - right_band_start_[d - 1] : 0;
}

}  // namespace sph
