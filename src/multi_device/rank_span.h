// Where the devices of one DeviceGroup live: all in this process, or spread over the ranks of an
// MPI job (issue 25; the paper's design kept): rank r holds the group's devices [first(r),
// first(r + 1)), contiguous in slice order, and drives each with its own host thread as a
// single process does. Devices of one rank exchange by copies (Transport); devices of different
// ranks by MPI messages staged in host memory.
#pragma once

#include <memory>
#include <vector>

#include "ranks/ranks.h"

namespace sph {

class RankSpan {
public:
    // One process: every device of the group is here.
    explicit RankSpan(int devices = 1) : first_{0, devices} {}
    // Collective: each rank brings `local_devices`; the group has them all, in rank order.
    static RankSpan join(const Ranks& ranks, int local_devices);

    bool spread() const { return ranks_ != nullptr && ranks_->size() > 1; }
    int devices() const { return first_.back(); }
    int first_local() const { return first_[std::size_t(rank())]; }
    int end_local() const { return first_[std::size_t(rank()) + 1]; }
    bool local(int device) const { return device >= first_local() && device < end_local(); }
    int owner(int device) const;                                        // the rank that holds it
    int first_of(int rank) const { return first_[std::size_t(rank)]; }  // rank's first device
    int rank() const { return ranks_ != nullptr ? ranks_->rank() : 0; }
    const Ranks* ranks() const { return ranks_; }

    // What a message between devices of two ranks carries.
    enum class Message { kMigration, kExternalSlices, kForces, kDownload };
    // Its tag: unique for the kind, the particle field (direct messages carry one field each)
    // and the two devices, given the sender's rank.
    int tag(Message kind, int from, int to, int field = 0) const;
    // Ranks may bring at most this many devices each, and a particle at most this many fields
    // (tags stay below MPI's guaranteed bound).
    static constexpr int kMostLocalDevices = 16;
    static constexpr int kMostFields = 8;

private:
    const Ranks* ranks_ = nullptr;
    std::vector<int> first_;  // first_[r]: rank r's first device; first_.back(): all
};

}  // namespace sph
