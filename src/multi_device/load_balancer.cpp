#include "multi_device/load_balancer.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

namespace sph {

const char* to_string(BalanceMark mark) {
    switch (mark) {
        case BalanceMark::kNone:
            return "none";
        case BalanceMark::kGiving:
            return "giving";
        case BalanceMark::kTaking:
            return "taking";
        case BalanceMark::kGivingAndTaking:
            return "giving_and_taking";
    }
    return "unknown";
}

bool BalanceDecision::changed() const {
    for (int s : boundary_shift) {
        if (s != 0) return true;
    }
    return false;
}

SliceMap apply_boundary_shifts(const SliceMap& map, const std::vector<int>& shift) {
    if (static_cast<int>(shift.size()) != map.devices() - 1) {
        throw std::invalid_argument("apply_boundary_shifts: " + std::to_string(shift.size()) +
                                    " shifts for " + std::to_string(map.devices()) + " devices");
    }
    std::vector<int> first(map.devices());
    for (int d = 0; d < map.devices(); ++d) {
        first[d] = map.first_slice(d) + (d > 0 ? shift[d - 1] : 0);
    }
    // Throws if a device is left with fewer slices than the halo.
    return SliceMap(std::move(first), map.slice_count(), map.halo());
}

namespace {

void check_inputs(const std::vector<double>& average_seconds, const SliceMap& map, double h_lb) {
    if (static_cast<int>(average_seconds.size()) != map.devices()) {
        throw std::invalid_argument("load balancer: " + std::to_string(average_seconds.size()) +
                                    " Forces times for " + std::to_string(map.devices()) +
                                    " devices");
    }
    for (std::size_t d = 0; d < average_seconds.size(); ++d) {
        if (!std::isfinite(average_seconds[d]) || average_seconds[d] < 0.0) {
            throw std::invalid_argument("load balancer: device " + std::to_string(d) +
                                        " has Forces time " + std::to_string(average_seconds[d]));
        }
    }
    if (!(h_lb >= 0.0) || !std::isfinite(h_lb)) {
        throw std::invalid_argument(
            "load balancer: threshold coefficient --lb-threshold must be "
            ">= 0, got " +
            std::to_string(h_lb));
    }
}

enum class Candidate { kNone, kGiving, kTaking };

void check_moved_slice_seconds(const std::vector<double>& moved_slice_seconds,
                               const SliceMap& map) {
    if (!moved_slice_seconds.empty() &&
        moved_slice_seconds.size() != std::size_t(map.devices() - 1)) {
        throw std::invalid_argument("load balancer: " + std::to_string(moved_slice_seconds.size()) +
                                    " slice costs for " + std::to_string(map.devices() - 1) +
                                    " boundaries");
    }
}

// The devices off the mean by the threshold or more: givers above it, takers below.
std::vector<Candidate> candidates(const BalanceDecision& out, const SliceMap& map) {
    const int devices = map.devices();
    std::vector<Candidate> candidate(devices, Candidate::kNone);
    for (int d = 0; d < devices; ++d) {
        const double delta = out.average_seconds[d] - out.mean_seconds;
        if (delta == 0.0 || std::abs(delta) < out.threshold_seconds) continue;
        if (delta > 0.0) {
            // A device keeps at least the halo's slices, so a giver needs one more.
            if (map.end_slice(d) - map.first_slice(d) > map.halo()) {
                candidate[d] = Candidate::kGiving;
            }
        } else {
            candidate[d] = Candidate::kTaking;
        }
    }
    return candidate;
}

// Pairs the candidates in one scan: a candidate pairs with the last one before it of the other
// kind, if no pair has taken that one yet. A pair moves a slice across each boundary between them
// (marked, with the devices between them) where that would shrink their gap.
void pair_candidates(const std::vector<Candidate>& candidate, BalanceDecision& out) {
    const int devices = int(candidate.size());
    int held = -1;  // the latest unpaired candidate of the scan
    for (int d = 0; d < devices; ++d) {
        if (candidate[d] == Candidate::kNone) continue;
        if (held < 0 || candidate[d] == candidate[held]) {
            held = d;
            continue;
        }
        const int giver = candidate[d] == Candidate::kGiving ? d : held;
        const int taker = candidate[d] == Candidate::kGiving ? held : d;
        double dearest = 0.0;  // the dearest slice known to move between them
        for (int b = held; b < d; ++b) dearest = std::max(dearest, out.moved_slice_seconds[b]);
        if (out.average_seconds[giver] - out.average_seconds[taker] <= dearest) {
            held = -1;  // the move would not shrink the gap: neither moves
            continue;
        }
        out.marks[giver] = BalanceMark::kGiving;
        out.marks[taker] = BalanceMark::kTaking;
        for (int between = held + 1; between < d; ++between) {
            out.marks[between] = BalanceMark::kGivingAndTaking;
        }
        // Slices flow from the giver towards the taker across every boundary between them.
        const int direction = giver < taker ? -1 : +1;
        for (int b = held; b < d; ++b) out.boundary_shift[b] = direction;
        held = -1;
    }
}

}  // namespace

BalanceDecision decide_balance(const std::vector<double>& average_seconds, const SliceMap& map,
                               double h_lb, double slice_seconds,
                               const std::vector<double>& moved_slice_seconds) {
    check_inputs(average_seconds, map, h_lb);
    check_moved_slice_seconds(moved_slice_seconds, map);
    const int devices = map.devices();
    double sum = 0.0;
    for (double a : average_seconds) sum += a;

    BalanceDecision out{
        average_seconds,
        sum / devices,
        slice_seconds,
        h_lb * slice_seconds,
        moved_slice_seconds.empty() ? std::vector<double>(devices - 1, 0.0) : moved_slice_seconds,
        std::vector<BalanceMark>(devices, BalanceMark::kNone),
        std::vector<int>(devices - 1, 0),
        map,
        map};
    if (!(slice_seconds > 0.0) || !std::isfinite(slice_seconds)) return out;
    pair_candidates(candidates(out, map), out);
    out.to = apply_boundary_shifts(map, out.boundary_shift);
    return out;
}

BalanceDecision decide_balance(const std::vector<double>& average_seconds, const SliceMap& map,
                               double h_lb) {
    check_inputs(average_seconds, map, h_lb);
    double sum = 0.0;
    for (double a : average_seconds) sum += a;
    return decide_balance(average_seconds, map, h_lb, sum / map.slice_count());
}

LoadBalancer::LoadBalancer(int devices, int window, double h_lb)
    : devices_(devices),
      window_(window),
      h_lb_(h_lb),
      open_seconds_(devices > 0 ? devices : 0, 0.0),
      open_slices_(devices > 0 ? devices : 0, 0) {
    if (devices < 1) {
        throw std::invalid_argument("load balancer: needs at least one device, got " +
                                    std::to_string(devices));
    }
    if (window < 1) {
        throw std::invalid_argument("load balancer: window must be >= 1 iteration, got " +
                                    std::to_string(window));
    }
    if (!(h_lb >= 0.0) || !std::isfinite(h_lb)) {
        throw std::invalid_argument(
            "load balancer: threshold coefficient --lb-threshold must be "
            ">= 0, got " +
            std::to_string(h_lb));
    }
}

void LoadBalancer::add_sample(int device, double seconds, int slices) {
    if (device < 0 || device >= devices_) {
        throw std::out_of_range("load balancer: no device " + std::to_string(device));
    }
    if (!std::isfinite(seconds) || seconds < 0.0 || slices < 0) {
        throw std::invalid_argument("load balancer: device " + std::to_string(device) +
                                    " reported " + std::to_string(seconds) + " s over " +
                                    std::to_string(slices) + " slices");
    }
    open_seconds_[device] += seconds;
    open_slices_[device] += slices;
}

void LoadBalancer::end_iteration() {
    seconds_.push_back(open_seconds_);
    slices_.push_back(open_slices_);
    if (iterations() > window_) {
        seconds_.pop_front();
        slices_.pop_front();
    }
    open_seconds_.assign(devices_, 0.0);
    open_slices_.assign(devices_, 0);
}

std::vector<double> LoadBalancer::averages() const {
    std::vector<double> mean(devices_, 0.0);
    if (seconds_.empty()) return mean;
    for (const auto& iteration : seconds_) {
        for (int d = 0; d < devices_; ++d) mean[d] += iteration[d];
    }
    for (double& m : mean) m /= iterations();
    return mean;
}

double LoadBalancer::slice_seconds() const {
    double seconds = 0.0;
    long long slices = 0;
    for (int i = 0; i < iterations(); ++i) {
        for (int d = 0; d < devices_; ++d) {
            seconds += seconds_[i][d];
            slices += slices_[i][d];
        }
    }
    return slices > 0 ? seconds / static_cast<double>(slices) : 0.0;
}

std::optional<BalanceDecision> LoadBalancer::decide(const SliceMap& map) {
    if (map.devices() != devices_) {
        throw std::invalid_argument("load balancer: slice map of " + std::to_string(map.devices()) +
                                    " devices, balancer of " + std::to_string(devices_));
    }
    if (!ready()) return std::nullopt;
    const std::vector<double> a = averages();
    const int boundaries = devices_ - 1;
    std::vector<double> difference(boundaries);
    for (int b = 0; b < boundaries; ++b) difference[b] = a[b] - a[b + 1];
    // How far boundary k moved since the last decision (0 outside the chain).
    const auto shift = [&](int k) {
        return last_map_ && k >= 0 && k < boundaries
                   ? map.first_slice(k + 1) - last_map_->first_slice(k + 1)
                   : 0;
    };
    moved_slice_seconds_.resize(boundaries, 0.0);
    for (int b = 0; b < boundaries; ++b) {
        // Moved by one slice, and nothing beside it (a neighbouring boundary's move would change
        // the difference too).
        if (std::abs(shift(b)) == 1 && shift(b - 1) == 0 && shift(b + 1) == 0) {
            moved_slice_seconds_[b] = 0.5 * std::abs(difference[b] - last_difference_[b]);
        }
    }
    BalanceDecision decision = decide_balance(a, map, h_lb_, slice_seconds(), moved_slice_seconds_);
    last_map_ = map;
    last_difference_ = difference;
    seconds_.clear();
    slices_.clear();
    return decision;
}

LoadBalancer::State LoadBalancer::state() const {
    return State{seconds_, slices_, open_seconds_, open_slices_};
}

void LoadBalancer::restore(State state) {
    bool fits = state.seconds.size() == state.slices.size() &&
                static_cast<int>(state.seconds.size()) <= window_ &&
                static_cast<int>(state.open_seconds.size()) == devices_ &&
                static_cast<int>(state.open_slices.size()) == devices_;
    for (std::size_t i = 0; fits && i < state.seconds.size(); ++i) {
        fits = static_cast<int>(state.seconds[i].size()) == devices_ &&
               static_cast<int>(state.slices[i].size()) == devices_;
    }
    if (!fits) {
        throw std::invalid_argument("load balancer: saved state does not fit " +
                                    std::to_string(devices_) + " devices and a window of " +
                                    std::to_string(window_));
    }
    seconds_ = std::move(state.seconds);
    slices_ = std::move(state.slices);
    open_seconds_ = std::move(state.open_seconds);
    open_slices_ = std::move(state.open_slices);
}

}  // namespace sph
