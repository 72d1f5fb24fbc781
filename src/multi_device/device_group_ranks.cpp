// DeviceGroup across MPI ranks (rank_span.h): what the workers share, gathered as each barrier
// opens; particles and edge forces between devices of different ranks as messages staged in
// host memory; the particles and instrument sums the main thread collects; and the end of the job
// when a worker fails.
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "byte_codec.h"
#include "multi_device/device_group.h"

namespace sph {

void DeviceGroup::share_across_ranks() {
    // The per-device counts the workers share, written and read in this order.
    std::vector<std::uint32_t>* const counts[] = {&internal_, &first_slice_end_, &last_slice_start_,
                                                  &largest_,  &left_band_end_,   &right_band_start_,
                                                  &outside_};
    ByteWriter mine;
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        for (std::uint32_t cut : cuts_[d]) mine.put(cut);
        for (const auto* v : counts) mine.put((*v)[d]);
        mine.put(local_min_[0][d]);
        mine.put(local_min_[1][d]);
        mine.put(forces_seconds_[d]);
        if (floating_.advance) {  // the stage's loads on the floating bodies
            for (unsigned long long s : floating_sums_[d]) mine.put(s);
        }
    }
    const std::vector<std::string> all = span_.ranks()->all_gather(mine.bytes());
    for (int r = 0; r < int(all.size()); ++r) {
        if (r == span_.rank()) continue;
        ByteReader from(all[std::size_t(r)], "what rank " + std::to_string(r) + " shares");
        for (int d = span_.first_of(r); d < span_.first_of(r + 1); ++d) {
            for (std::uint32_t& cut : cuts_[d]) cut = from.take<std::uint32_t>("cut");
            for (auto* v : counts) (*v)[d] = from.take<std::uint32_t>("count");
            local_min_[0][d] = from.take<float>("minimum");
            local_min_[1][d] = from.take<float>("minimum");
            forces_seconds_[d] = from.take<double>("Forces seconds");
            if (!floating_.advance) continue;
            for (unsigned long long& s : floating_sums_[d])
                s = from.take<unsigned long long>("loads");
        }
    }
}

// Staged: the fields packed one after another into host staging, one message. Direct: one
// message per field, from the device's arrays.
void DeviceGroup::send_particles(MessageBatch& messages, RankSpan::Message kind, int d,
                                 std::uint32_t at, std::uint32_t count, int to,
                                 HostStaging& staging) {
    if (count == 0) return;
    Device& device = *devices_[d];
    const DeviceLayout& layout = device.layout();
    const std::size_t size = std::size_t(count) * layout.record_bytes();
    traffic_.particles(to, d, size);
    if (!direct_) staging.reserve(device.transport(), size);
    std::size_t offset = 0;
    int number = 0;
    for_each_field(
        [&](auto field, const Endpoint& from) {
            const int tag = span_.tag(kind, d, to, number++);
            if (!layout.keeps(field.kept)) return;
            const std::size_t bytes = std::size_t(count) * field.bytes;
            const Endpoint part = from.offset(std::size_t(at) * field.bytes);
            if (direct_) {
                messages.send(part.ptr, bytes, span_.owner(to), tag);
                return;
            }
            device.transport().copy(staging.endpoint().offset(offset), part, bytes);
            offset += bytes;
        },
        device.current());
    if (!direct_) messages.send(staging.data(), size, span_.owner(to), span_.tag(kind, d, to));
}

void DeviceGroup::receive_particles(MessageBatch& messages, RankSpan::Message kind, int d, int from,
                                    std::uint32_t at, std::uint32_t count, Landing into,
                                    HostStaging& staging) {
    if (count == 0) return;
    Device& device = *devices_[d];
    const DeviceLayout& layout = device.layout();
    const std::size_t size = std::size_t(count) * layout.record_bytes();
    traffic_.particles(d, from, size);
    if (!direct_) {
        staging.reserve(device.transport(), size);
        messages.receive(staging.data(), size, span_.owner(from), span_.tag(kind, from, d));
        return;
    }
    int number = 0;
    for_each_field(
        [&](auto field, const Endpoint& to) {
            const int tag = span_.tag(kind, from, d, number++);
            if (!layout.keeps(field.kept)) return;
            messages.receive(to.offset(std::size_t(at) * field.bytes).ptr,
                             std::size_t(count) * field.bytes, span_.owner(from), tag);
        },
        landing_arrays(d, into));
}

void DeviceGroup::unpack_particles(int d, std::uint32_t at, std::uint32_t count, Landing into,
                                   const HostStaging& staging) {
    if (count == 0 || direct_) return;  // direct messages land in place
    Device& device = *devices_[d];
    const DeviceLayout& layout = device.layout();
    std::size_t offset = 0;
    for_each_field(
        [&](auto field, const Endpoint& to) {
            if (!layout.keeps(field.kept)) return;
            const std::size_t bytes = std::size_t(count) * field.bytes;
            device.transport().copy(to.offset(std::size_t(at) * field.bytes),
                                    staging.endpoint().offset(offset), bytes);
            offset += bytes;
        },
        landing_arrays(d, into));
}

// Device d's external slots take the forces its neighbours on other ranks compute for them: the
// left ones first in its local arrays, the right ones after its internal particles. Direct
// messages write the slots themselves, so the device's last Euler, which reads them, must be
// done first.
void DeviceGroup::receive_remote_forces(int d) {
    RemoteLink& link = remote_[d];
    Device& device = *devices_[d];
    const auto kind = RankSpan::Message::kForces;
    const int neighbour[2] = {d - 1, d + 1};
    link.forces_in_count[0] = d > 0 && !local(d - 1) ? left_external(d) : 0;
    link.forces_in_count[1] = d + 1 < size() && !local(d + 1) ? left_band_end_[d + 1] : 0;
    const LocalRanges& ranges = device.ranges();
    const std::uint32_t first[2] = {0, ranges.left + ranges.internal};
    if (direct_ && link.forces_in_count[0] + link.forces_in_count[1] > 0) {
        device.wait_for_marker();
    }
    for (int side = 0; side < 2; ++side) {
        const std::size_t bytes = link.forces_in_count[side] * sizeof(Vec4);
        if (bytes == 0) continue;
        traffic_.forces(neighbour[side], d, bytes);  // the sender's worker is on its own rank
        void* into = direct_ ? device.force_buffer().offset(first[side] * sizeof(Vec4)).ptr
                             : link.forces_in[side].reserve(device.transport(), bytes);
        link.messages->receive(into, bytes, span_.owner(neighbour[side]),
                               span_.tag(kind, neighbour[side], d));
    }
}

// Called by the device (ForceSend::landed) once the forces of its edge band on `side` (0 left,
// 1 right) are in host staging; the central stripe may still be computing.
void DeviceGroup::send_remote_forces(int d, int side) {
    const ForceSend& send = side == 0 ? sends_[d].left : sends_[d].right;
    const int neighbour = side == 0 ? d - 1 : d + 1;
    const void* forces =
        direct_ ? devices_[d]->force_buffer().offset(std::size_t(send.first) * sizeof(Vec4)).ptr
                : remote_[d].forces_out[side].data();
    remote_[d].messages->send(forces, send.count * sizeof(Vec4), span_.owner(neighbour),
                              span_.tag(RankSpan::Message::kForces, d, neighbour));
}

// The device's own Forces work is done (minimum_dt waited for it), so its external slots are no
// longer read until the euler that follows.
void DeviceGroup::finish_remote_forces(int d) {
    RemoteLink& link = remote_[d];
    link.messages->wait_all();
    if (direct_) return;  // they arrived in place
    Device& device = *devices_[d];
    const LocalRanges& ranges = device.ranges();
    const std::uint32_t first[2] = {0, ranges.left + ranges.internal};
    for (int side = 0; side < 2; ++side) {
        if (link.forces_in_count[side] == 0) continue;
        device.transport().copy(device.force_buffer().offset(first[side] * sizeof(Vec4)),
                                link.forces_in[side].endpoint(),
                                link.forces_in_count[side] * sizeof(Vec4));
    }
}

void DeviceGroup::end_job(int d, const std::string& message) {
    // One write: the job's other output (mpirun's own abort notice among it) shares the stream,
    // and a line written piecewise can come out cut by it.
    const std::string line = "rank " + std::to_string(span_.rank()) + ": error: device " +
                             std::to_string(d) + " failed (iteration " +
                             std::to_string(request_.iteration) + "): " + message + "\n";
    std::cerr.write(line.data(), std::streamsize(line.size()));
    std::cerr.flush();
    span_.ranks()->abort(1);
    std::abort();  // not reached: abort() ends the process
}

std::vector<HostParticles> DeviceGroup::download_here() {
    std::vector<HostParticles> parts(devices_.size());
    for (int d = span_.first_local(); d < span_.end_local(); ++d) devices_[d]->download(parts[d]);
    return parts;
}

std::vector<HostParticles> DeviceGroup::download() {
    std::vector<HostParticles> parts = download_here();
    if (!span_.spread()) return parts;
    // Rank 0 takes every other rank's parts: a count, then the fields one after the other.
    const std::unique_ptr<MessageBatch> messages = span_.ranks()->messages();
    const auto kind = RankSpan::Message::kDownload;
    if (span_.rank() != 0) {
        std::vector<std::uint64_t> counts(devices_.size());
        std::vector<std::vector<char>> packed(devices_.size());
        for (int d = span_.first_local(); d < span_.end_local(); ++d) {
            counts[d] = parts[d].size();
            for_each_field(
                [&](auto, const auto& values) {
                    const char* raw = reinterpret_cast<const char*>(values.data());
                    packed[d].insert(packed[d].end(), raw, raw + values.size() * sizeof(values[0]));
                },
                parts[d]);
            messages->send(&counts[d], sizeof(std::uint64_t), 0, span_.tag(kind, d, 0));
            messages->send(packed[d].data(), packed[d].size(), 0, span_.tag(kind, d, 0));
        }
        messages->wait_all();
        return parts;
    }
    for (int d = span_.end_local(); d < size(); ++d) {
        std::uint64_t count = 0;
        messages->receive(&count, sizeof count, span_.owner(d), span_.tag(kind, d, 0));
        messages->wait_all();
        parts[d].resize(count);
        std::vector<char> packed(count * kParticleRecordBytes);
        messages->receive(packed.data(), packed.size(), span_.owner(d), span_.tag(kind, d, 0));
        messages->wait_all();
        const char* at = packed.data();
        for_each_field(
            [&](auto, auto& values) {
                const std::size_t bytes = values.size() * sizeof(values[0]);
                std::memcpy(values.data(), at, bytes);
                at += bytes;
            },
            parts[d]);
    }
    return parts;
}

std::vector<InstrumentSums> DeviceGroup::finish_each() {
    std::vector<InstrumentSums> each(devices_.size());
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        each[d] = devices_[d]->finish_measuring();
    }
    if (!span_.spread()) return each;
    ByteWriter mine;
    for (int d = span_.first_local(); d < span_.end_local(); ++d) {
        for (const SiteSums& s : each[d].planes) mine.put(s);
        mine.put(each[d].front_key);
    }
    const std::vector<std::string> all = span_.ranks()->all_gather(mine.bytes());
    for (int r = 0; r < int(all.size()); ++r) {
        ByteReader from(all[std::size_t(r)], "rank " + std::to_string(r) + "'s instruments");
        for (int d = span_.first_of(r); d < span_.first_of(r + 1); ++d) {
            each[d].planes.resize(measured_sites_ * kCellPlanes);
            for (SiteSums& s : each[d].planes) s = from.take<SiteSums>("plane sums");
            each[d].front_key = from.take<float>("front key");
        }
    }
    return each;
}

}  // namespace sph
