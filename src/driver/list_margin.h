// Whether the neighbour list's margin held between rebuilds.
//
// The list (and, without one, the cells) holds the pairs within 2h (1 + skin) at a rebuild, so
// that a pair that closes to 2h before the next one is already there; the margin, 2h x skin, is
// what the particles may move meanwhile. Nothing in the kernels checks it: a particle that moved
// further reaches its new neighbours (and mDBC's ghost nodes) only at the next rebuild. This
// bounds that motion from the time steps alone: the stable dt the forces give obeys
// dt_cfl <= cfl h / (c0 + |v|) for every particle (forces_body.h: particle_dt_max), so no particle
// is faster than cfl h / dt_cfl - c0. The larger of that bound at the start and at the end of an
// iteration, times its dt, summed over a rebuild interval, is how far the fastest particle can
// have gone; against the margin, it says whether a fast flow (a surge meeting a wall) outran the
// list. It is tight where the fastest particle sets dt_cfl and an overestimate where forces do.
// (For two moving particles their relative motion counts, usually less than twice this.)
//
// The same bound, taken one iteration ahead, says when to rebuild early (--early-rebuild): the
// next iteration's dt is at most the dt limit the last corrector left, and its fastest particle
// at most cfl h / dt_limit - c0 fast as it begins. The bound depends on the global dt alone, so
// every device and rank decides alike and the invariants hold.
//
// That bound is exact where the fastest particle's acoustic limit sets dt, as it does in SPHERIC
// test 2 after the impacts: a measured largest speed rebuilt at the same iterations at dp 0.04,
// 0.02 and 0.01 m (bench/NOTES.md entry 35). Violent runs rebuild often because their spray is
// fast, not because the bound overstates it.
#pragma once

namespace sph {

class ListMargin {
public:
    // cfl, h [m] and c0 [m/s] as the run steps with them; margin [m]: 2h x the list's skin.
    ListMargin(double cfl, double h, double c0, double margin)
        : cfl_h_(cfl * h), c0_(c0), margin_(margin) {}

    // An iteration of `dt` seconds, whose particles' stable time steps were cfl_dt_before as it
    // began and cfl_dt_after as it ended (infinite: no bound, as before the first step).
    void add_iteration(double dt, double cfl_dt_before, double cfl_dt_after);
    // A rebuild: the interval since the last one closes (none closes before any iteration).
    void at_rebuild();
    // Whether one more iteration, with a dt of at most `dt_limit` (the stable dt as it begins),
    // could take the bound past the margin. The step's own bound counts kSafety times over, for
    // a flow that speeds up within it.
    bool next_iteration_may_pass(double dt_limit) const;
    static constexpr double kSafety = 1.1;

    double margin() const { return margin_; }
    // The largest travel bound of an interval so far (the open one included), over the margin.
    double largest_share() const;
    // Closed intervals whose bound passed the margin, and all closed intervals.
    long exceeded() const { return exceeded_; }
    long intervals() const { return intervals_; }

private:
    double cfl_h_, c0_, margin_;
    double travel_ = 0.0;  // the bound over the open interval [m]
    long open_iterations_ = 0;
    double largest_ = 0.0;  // the largest bound of a closed interval [m]
    long exceeded_ = 0, intervals_ = 0;
};

}  // namespace sph
