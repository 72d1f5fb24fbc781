// A posteriori load balancing (docs/design.md: paper section 3.5, Listing 1).
//
// Each device's Forces time is averaged over the last k iterations (A_g). At a rebuild, devices
// whose A_g is at least T_LB = H_LB x T_slice away from the mean A_G become giving (slower than
// the mean) or taking (faster) candidates; candidates are paired, and each pair moves one slice
// from the giver towards the taker along the chain, every device in between taking one slice at
// the giver's side and giving one at the taker's side. The decision is pure (decide_balance);
// LoadBalancer only gathers the timings it is made from, and what the last move of each boundary
// changed.
//
// A move must also pay: slices differ in cost (one in a water column may cost several mean
// slice-times where the walls cost almost nothing), and a pair whose gap is less than the slice
// it would move only swaps which device is the slower, so the boundary would go back at the next
// rebuild and forth at the one after, migrating a slice each time. Where the last move of a
// boundary showed what a slice there costs (half the change it made to the two sides'
// difference), a pair across it moves only while its gap is larger than that.
#pragma once

#include <deque>
#include <optional>
#include <vector>

#include "multi_device/slice_map.h"

namespace sph {

enum class BalanceMark { kNone, kGiving, kTaking, kGivingAndTaking };

// "none", "giving", "taking", "giving_and_taking": the names written to the balancing log.
const char* to_string(BalanceMark mark);

struct BalanceDecision {
    std::vector<double> average_seconds;  // A_g, per device
    double mean_seconds = 0.0;            // A_G
    double slice_seconds = 0.0;           // T_slice
    double threshold_seconds = 0.0;       // T_LB = H_LB x T_slice
    // Per boundary, what a slice moved across it costs as its last move showed (0: not known).
    std::vector<double> moved_slice_seconds;
    std::vector<BalanceMark> marks;  // per device
    // Per boundary b (between devices b and b + 1): how far it moves, in slices. -1 hands device
    // b's last slice to b + 1; +1 hands device b + 1's first slice to b. Each is -1, 0 or +1.
    std::vector<int> boundary_shift;
    SliceMap from, to;  // the slice map the timings were measured on, and the one to use next

    bool changed() const;
};

// Moves every boundary b of `map` by shift[b] slices (shift has devices - 1 entries). Throws
// std::invalid_argument if the sizes disagree or a device would be left with no slice.
SliceMap apply_boundary_shifts(const SliceMap& map, const std::vector<int>& shift);

// Listing 1 on the averages A_g (seconds, one per device of `map`) with an explicit T_slice.
//
// Candidates: |A_g - A_G| >= T_LB and A_g != A_G; giving if A_g > A_G, taking if below. A giving
// candidate that owns a single slice cannot give and is dropped. Pairing: the chain is scanned
// from device 0 up, holding the latest unpaired candidate; a candidate of the same kind replaces
// it (the nearer one wins), one of the opposite kind pairs with it and the scan goes on with none
// held. Pairs are thus disjoint, no candidate lies between the two of a pair (every device in
// between is within the threshold and becomes giving_and_taking), a device is in at most one
// pair, and a taker with givers at equal distance on both sides pairs with the lower-numbered one.
// Unpaired candidates stay kNone: they get their turn at a later rebuild. Each device's slice
// count thus changes by at most one, and only a giver (owning >= 2 slices) loses one.
// If T_slice is not positive and finite (no timings), nothing is marked. With
// `moved_slice_seconds` (per boundary, 0 where not known; empty: none known), a pair stays
// unmarked where its gap A_giver - A_taker is not larger than the dearest slice known along the
// boundaries between them: that move would not shrink the gap.
// Throws std::invalid_argument on a size mismatch, a negative or non-finite A_g, or H_LB < 0.
BalanceDecision decide_balance(const std::vector<double>& average_seconds, const SliceMap& map,
                               double h_lb, double slice_seconds,
                               const std::vector<double>& moved_slice_seconds = {});

// The same with T_slice = sum of A_g / slice count of `map`: the mean Forces time of one slice
// when each A_g times all of device g's slices.
BalanceDecision decide_balance(const std::vector<double>& average_seconds, const SliceMap& map,
                               double h_lb);

// Gathers the per-device Forces timings of the iterations since the last decision.
//
// Threads: add_sample for distinct devices may run concurrently (each device worker reports its
// own); end_iteration, decide and the accessors must not overlap any add_sample (call them from
// the main thread between barriers).
class LoadBalancer {
public:
    // The timings that make up the balancer's state, for checkpoints.
    struct State {
        std::deque<std::vector<double>> seconds;  // per closed iteration, per device
        std::deque<std::vector<int>> slices;      // per closed iteration, per device
        std::vector<double> open_seconds;         // the iteration still open, per device
        std::vector<int> open_slices;
    };

    // `window`: k, the number of iterations averaged (the rebuild interval); `h_lb`: H_LB.
    LoadBalancer(int devices, int window, double h_lb);

    // Adds `seconds`, Forces seconds (KernelTimes) of `device` in a stage that covered `slices`
    // slices, to the current iteration; several calls in one iteration (predictor and corrector)
    // add up.
    void add_sample(int device, double seconds, int slices);
    // Closes the current iteration; only the last `window` closed iterations are kept.
    void end_iteration();

    int devices() const { return devices_; }
    int window() const { return window_; }
    double h_lb() const { return h_lb_; }
    // Closed iterations held, at most window().
    int iterations() const { return static_cast<int>(seconds_.size()); }
    bool ready() const { return iterations() == window_; }
    // A_g: each device's Forces seconds per iteration, over the iterations held.
    std::vector<double> averages() const;
    // T_slice: all Forces seconds held over all slices they covered (0 when none was covered).
    double slice_seconds() const;

    // Nothing until `window` iterations have closed since the last decision. Then the
    // decision on the timings held, which are dropped: the next one waits for `window` more.
    // `map` is the slices the timings were measured on: where a boundary moved since the last
    // decision, what that move changed is what a slice there costs (moved_slice_seconds).
    std::optional<BalanceDecision> decide(const SliceMap& map);

    State state() const;
    // Throws std::invalid_argument if `state` does not fit this balancer's devices and window.
    void restore(State state);

private:
    int devices_, window_;
    double h_lb_;
    std::deque<std::vector<double>> seconds_;
    std::deque<std::vector<int>> slices_;
    std::vector<double> open_seconds_;
    std::vector<int> open_slices_;
    // What the last moves showed (not kept in checkpoints: a restart learns them again). The
    // last decision's slices and each boundary's difference A_b - A_(b+1) then; per boundary,
    // a slice's cost as its last move showed.
    std::optional<SliceMap> last_map_;
    std::vector<double> last_difference_;
    std::vector<double> moved_slice_seconds_;
};

}  // namespace sph
