// The load balancer's decision (docs/design.md: paper Listing 1), its timing window and its CSV
// log. Timings are chosen so that no mark hinges on rounding: every delta is well clear of its
// threshold or, where the threshold itself is tested, exact in binary floating point.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "multi_device/load_balance_log.h"
#include "multi_device/load_balancer.h"
#include "test_support.h"

namespace sph {
namespace {

// `devices` devices owning `per_device` slices each.
SliceMap even_map(int devices, int per_device) {
    std::vector<int> first;
    for (int d = 0; d < devices; ++d) first.push_back(d * per_device);
    return SliceMap(first, devices * per_device);
}

// Marks written one letter per device: '.' none, 'G' giving, 'T' taking, 'X' giving and taking.
std::string letters(const std::vector<BalanceMark>& marks) {
    std::string s;
    for (BalanceMark m : marks) {
        s += m == BalanceMark::kNone     ? '.'
             : m == BalanceMark::kGiving ? 'G'
             : m == BalanceMark::kTaking ? 'T'
                                         : 'X';
    }
    return s;
}

std::vector<int> firsts(const SliceMap& map) {
    std::vector<int> f;
    for (int d = 0; d < map.devices(); ++d) f.push_back(map.first_slice(d));
    return f;
}

int owned(const SliceMap& map, int d) {
    return map.end_slice(d) - map.first_slice(d);
}

// What every decision must satisfy, whatever the timings.
void expect_consistent(const BalanceDecision& d) {
    ASSERT_EQ(d.from.devices(), d.to.devices());
    EXPECT_EQ(d.from.slice_count(), d.to.slice_count());
    EXPECT_EQ(d.to.end_slice(d.to.devices() - 1), d.to.slice_count());
    for (int g = 0; g < d.to.devices(); ++g) {
        EXPECT_GE(owned(d.to, g), 1) << "device " << g;
        const int change = owned(d.to, g) - owned(d.from, g);
        const int expected = d.marks[g] == BalanceMark::kGiving   ? -1
                             : d.marks[g] == BalanceMark::kTaking ? +1
                                                                  : 0;
        EXPECT_EQ(change, expected) << "device " << g << " marked " << to_string(d.marks[g]);
        if (d.marks[g] == BalanceMark::kGiving) {
            EXPECT_GT(d.average_seconds[g], d.mean_seconds);
        }
        if (d.marks[g] == BalanceMark::kTaking) {
            EXPECT_LT(d.average_seconds[g], d.mean_seconds);
        }
    }
    for (int b = 0; b + 1 < d.to.devices(); ++b) {
        EXPECT_EQ(d.to.first_slice(b + 1) - d.from.first_slice(b + 1), d.boundary_shift[b]);
        EXPECT_LE(std::abs(d.boundary_shift[b]), 1);
    }
}

// One device `odd` of n, off the others' time by a lot: every other device is a candidate of the
// opposite kind, and the scan pairs `odd` with the one just before it, or just after it when it
// is first in the chain. A slow device gives that neighbour a slice; a fast one takes one.
void expect_paired_with_nearest(int n, int odd, bool slow, int slices_each) {
    SCOPED_TRACE("devices " + std::to_string(n) + (slow ? ", slow " : ", fast ") +
                 std::to_string(odd));
    std::vector<double> times(n, slow ? 1.0 : 2.0);
    times[odd] = slow ? 3.0 : 0.5;
    const BalanceDecision d = decide_balance(times, even_map(n, slices_each), 0.5);
    const int partner = odd > 0 ? odd - 1 : 1;
    std::string expected(n, '.');
    expected[odd] = slow ? 'G' : 'T';
    expected[partner] = slow ? 'T' : 'G';
    EXPECT_EQ(letters(d.marks), expected);
    const int moved = slow ? -1 : +1;  // slices `odd` gains
    EXPECT_EQ(owned(d.to, odd), slices_each + moved);
    EXPECT_EQ(owned(d.to, partner), slices_each - moved);
    // -1 hands the lower device's last slice up, +1 the upper device's first slice down.
    EXPECT_EQ(d.boundary_shift[std::min(odd, partner)], (odd < partner) == slow ? -1 : +1);
    expect_consistent(d);
}

TEST(LoadBalanceDecision, OneSlowDeviceGivesToItsNearestNeighbour) {
    for (int n = 2; n <= 8; ++n) {
        for (int slow = 0; slow < n; ++slow) expect_paired_with_nearest(n, slow, true, 4);
    }
}

TEST(LoadBalanceDecision, OneFastDeviceTakesFromItsNearestNeighbour) {
    for (int n = 2; n <= 8; ++n) {
        for (int fast = 0; fast < n; ++fast) expect_paired_with_nearest(n, fast, false, 8);
    }
}

TEST(LoadBalanceDecision, SlowAndFastEndsShiftEveryBoundary) {
    for (int n = 2; n <= 8; ++n) {
        SCOPED_TRACE("devices " + std::to_string(n));
        std::vector<double> times(n, 1.0);
        times.front() = 2.0;
        times.back() = 0.0;
        const BalanceDecision right = decide_balance(times, even_map(n, 4), 0.5);
        EXPECT_EQ(letters(right.marks), "G" + std::string(n - 2, 'X') + "T");
        EXPECT_EQ(right.boundary_shift, std::vector<int>(n - 1, -1));
        std::vector<int> first{0};
        for (int d = 1; d < n; ++d) first.push_back(4 * d - 1);
        EXPECT_EQ(firsts(right.to), first);
        expect_consistent(right);

        std::swap(times.front(), times.back());
        const BalanceDecision left = decide_balance(times, even_map(n, 4), 0.5);
        EXPECT_EQ(letters(left.marks), "T" + std::string(n - 2, 'X') + "G");
        EXPECT_EQ(left.boundary_shift, std::vector<int>(n - 1, +1));
        for (int d = 1; d < n; ++d) first[d] = 4 * d + 1;
        EXPECT_EQ(firsts(left.to), first);
        expect_consistent(left);
    }
}

TEST(LoadBalanceDecision, NothingMovesWithinTheThreshold) {
    const SliceMap map = even_map(4, 4);
    // T_slice = 4.02 / 16 ~ 0.25, T_LB ~ 0.126; the largest |delta| is 0.055.
    BalanceDecision d = decide_balance({1.0, 1.05, 0.95, 1.02}, map, 0.5);
    EXPECT_EQ(letters(d.marks), "....");
    EXPECT_FALSE(d.changed());
    EXPECT_EQ(firsts(d.to), firsts(map));
    // Equal times mark nothing even with a zero threshold, and no timings mark nothing.
    EXPECT_EQ(letters(decide_balance({1.0, 1.0, 1.0, 1.0}, map, 0.0).marks), "....");
    EXPECT_EQ(letters(decide_balance({0.0, 0.0, 0.0, 0.0}, map, 0.5).marks), "....");
    EXPECT_EQ(letters(decide_balance({3.0, 1.0, 1.0, 1.0}, map, 0.5, 0.0).marks), "....");
    // One device: nothing to balance.
    d = decide_balance({5.0}, even_map(1, 3), 0.5);
    EXPECT_EQ(letters(d.marks), ".");
    EXPECT_TRUE(d.boundary_shift.empty());
}

TEST(LoadBalanceDecision, ThresholdIsInclusive) {
    // A_G = 2, deltas +-1, T_slice = 4 / 4 = 1.
    const SliceMap map = even_map(2, 2);
    const BalanceDecision at = decide_balance({3.0, 1.0}, map, 1.0);
    EXPECT_DOUBLE_EQ(at.mean_seconds, 2.0);
    EXPECT_DOUBLE_EQ(at.slice_seconds, 1.0);
    EXPECT_DOUBLE_EQ(at.threshold_seconds, 1.0);
    EXPECT_EQ(letters(at.marks), "GT");
    EXPECT_EQ(letters(decide_balance({3.0, 1.0}, map, 1.0 + 1e-9).marks), "..");
}

TEST(LoadBalanceDecision, PairingTies) {
    const SliceMap map3 = even_map(3, 4), map4 = even_map(4, 4);
    // A taker between two equal givers pairs with the lower-numbered one.
    EXPECT_EQ(letters(decide_balance({2.0, 0.0, 2.0}, map3, 0.5).marks), "GT.");
    // Of two givers on one side, the nearer one gives.
    EXPECT_EQ(letters(decide_balance({2.0, 2.0, 0.0}, map3, 0.5).marks), ".GT");
    EXPECT_EQ(letters(decide_balance({0.0, 2.0, 2.0}, map3, 0.5).marks), "TG.");
    // Alternating candidates form disjoint pairs.
    const BalanceDecision d = decide_balance({2.0, 0.0, 2.0, 0.0}, map4, 0.5);
    EXPECT_EQ(letters(d.marks), "GTGT");
    EXPECT_EQ(d.boundary_shift, (std::vector<int>{-1, 0, -1}));
    expect_consistent(d);
    // Two givers then two takers: only the inner pair, the outer ones wait for a later rebuild.
    EXPECT_EQ(letters(decide_balance({2.0, 2.0, 0.0, 0.0}, map4, 0.5).marks), ".GT.");
}

TEST(LoadBalanceDecision, SingleSliceIsNeverGiven) {
    // Device 0 is slow but owns one slice: it cannot give, and nobody else can.
    const SliceMap lone(std::vector<int>{0, 1, 5, 9}, 13);
    BalanceDecision d = decide_balance({3.0, 1.0, 1.0, 1.0}, lone, 0.5);
    EXPECT_EQ(letters(d.marks), "....");
    EXPECT_EQ(firsts(d.to), firsts(lone));
    // With the one-slice giver dropped, the taker pairs with the giver on its other side.
    const SliceMap three(std::vector<int>{0, 1, 5}, 9);
    d = decide_balance({3.0, 0.0, 3.0}, three, 0.5);
    EXPECT_EQ(letters(d.marks), ".TG");
    EXPECT_EQ(firsts(d.to), (std::vector<int>{0, 1, 6}));
    expect_consistent(d);
    // A one-slice device in between passes a slice on and keeps one.
    const SliceMap middle(std::vector<int>{0, 4, 5, 9}, 13);
    d = decide_balance({2.0, 1.0, 1.0, 0.0}, middle, 0.5);
    EXPECT_EQ(letters(d.marks), "GXXT");
    EXPECT_EQ(firsts(d.to), (std::vector<int>{0, 3, 4, 8}));
    expect_consistent(d);
}

// Under mDBC each device owns at least the slices its neighbours hold of it (SliceMap::halo).
TEST(LoadBalanceDecision, DevicesKeepTheirHaloSlices) {
    const SliceMap map(std::vector<int>{0, 3, 8, 12}, 16, 3);
    // Device 0, slow, owns just the halo's three slices: it cannot give.
    BalanceDecision d = decide_balance({3.0, 1.0, 1.0, 1.0}, map, 0.5);
    EXPECT_EQ(letters(d.marks), "....");
    // Device 1, slow with five, gives one to its faster neighbour.
    d = decide_balance({1.0, 3.0, 1.0, 0.0}, map, 0.5);
    EXPECT_EQ(letters(d.marks), "TG..");
    expect_consistent(d);
    for (int dev = 0; dev < 4; ++dev) EXPECT_GE(d.to.end_slice(dev) - d.to.first_slice(dev), 3);
    EXPECT_EQ(d.to.halo(), 3);
    // A map that leaves a device fewer than the halo is refused.
    EXPECT_THROW(SliceMap(std::vector<int>{0, 2, 8}, 12, 3), std::invalid_argument);
}

TEST(SliceMap, BalancedGivesEveryDeviceItsHalo) {
    // All the particles in the first two slices: the split still gives each device 4 slices.
    std::vector<std::uint64_t> per_slice(20, 0);
    per_slice[0] = per_slice[1] = 1000;
    const SliceMap map = SliceMap::balanced(per_slice, 4, 4);
    for (int d = 0; d < 4; ++d) EXPECT_GE(map.end_slice(d) - map.first_slice(d), 4) << d;
    EXPECT_THROW(SliceMap::balanced(per_slice, 6, 4), std::invalid_argument);
}

TEST(LoadBalanceDecision, RandomTimingsKeepTheInvariants) {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> time(0.0, 2.0);
    int changed = 0;
    for (int trial = 0; trial < 2000; ++trial) {
        const int n = 2 + trial % 7;
        std::uniform_int_distribution<int> width(1, 3);
        std::vector<int> first{0};
        for (int d = 1; d < n; ++d) first.push_back(first.back() + width(random));
        const SliceMap map(first, first.back() + width(random));
        std::vector<double> times(n);
        for (double& t : times) t = time(random);
        SCOPED_TRACE("trial " + std::to_string(trial));
        const BalanceDecision d = decide_balance(times, map, trial % 3 == 0 ? 0.0 : 0.5);
        expect_consistent(d);
        changed += d.changed();
    }
    EXPECT_GT(changed, 1000);  // the invariants were exercised on real moves
}

TEST(LoadBalanceDecision, DefaultSliceTimeIsTotalOverSlices) {
    const BalanceDecision d = decide_balance({3.0, 1.0}, even_map(2, 4), 0.5);
    EXPECT_DOUBLE_EQ(d.slice_seconds, 0.5);
    EXPECT_DOUBLE_EQ(d.threshold_seconds, 0.25);
}

TEST(LoadBalanceDecision, RefusesBadInput) {
    const SliceMap map = even_map(2, 4);
    EXPECT_THROW(decide_balance({1.0}, map, 0.5), std::invalid_argument);
    EXPECT_THROW(decide_balance({1.0, -1.0}, map, 0.5), std::invalid_argument);
    EXPECT_THROW(decide_balance({1.0, std::nan("")}, map, 0.5), std::invalid_argument);
    EXPECT_THROW(decide_balance({1.0, 2.0}, map, -0.5), std::invalid_argument);
    EXPECT_THROW(apply_boundary_shifts(map, {}), std::invalid_argument);
    EXPECT_THROW(apply_boundary_shifts(even_map(3, 1), {-1, 0}), std::invalid_argument);
    EXPECT_THROW(apply_boundary_shifts(even_map(3, 2), {+1, -1}), std::invalid_argument);
    EXPECT_EQ(firsts(apply_boundary_shifts(even_map(3, 2), {+1, +1})), (std::vector<int>{0, 3, 5}));
}

TEST(LoadBalancer, AveragesTheLastWindowOfIterations) {
    LoadBalancer lb(2, 3, 0.5);
    const SliceMap map = even_map(2, 4);
    EXPECT_FALSE(lb.decide(map).has_value());
    // Predictor and corrector samples of one iteration add up.
    for (int i = 0; i < 2; ++i) {
        lb.add_sample(0, 1.0, 2);
        lb.add_sample(0, 1.0, 2);
        lb.add_sample(1, 0.5, 2);
        lb.add_sample(1, 0.5, 2);
        lb.end_iteration();
    }
    EXPECT_EQ(lb.iterations(), 2);
    EXPECT_FALSE(lb.ready());
    EXPECT_FALSE(lb.decide(map).has_value());
    EXPECT_EQ(lb.averages(), (std::vector<double>{2.0, 1.0}));
    // Two more iterations: the window holds the last three.
    for (double t : {4.0, 4.0}) {
        lb.add_sample(0, t, 4);
        lb.add_sample(1, 1.0, 4);
        lb.end_iteration();
    }
    EXPECT_EQ(lb.iterations(), 3);
    EXPECT_TRUE(lb.ready());
    EXPECT_EQ(lb.averages(), (std::vector<double>{10.0 / 3.0, 1.0}));
    // (2 + 1) + 2 x (4 + 1) seconds over 8 + 2 x 8 slices.
    EXPECT_DOUBLE_EQ(lb.slice_seconds(), 13.0 / 24.0);

    const std::optional<BalanceDecision> d = lb.decide(map);
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(letters(d->marks), "GT");
    EXPECT_DOUBLE_EQ(d->slice_seconds, 13.0 / 24.0);
    EXPECT_EQ(firsts(d->to), (std::vector<int>{0, 3}));
    // The averages reset: the next decision waits for three more iterations.
    EXPECT_EQ(lb.iterations(), 0);
    EXPECT_FALSE(lb.decide(d->to).has_value());
    for (int i = 0; i < 3; ++i) {
        lb.add_sample(0, 1.0, 3);
        lb.add_sample(1, 1.0, 5);
        lb.end_iteration();
        EXPECT_EQ(lb.ready(), i == 2);
    }
    const std::optional<BalanceDecision> next = lb.decide(d->to);
    ASSERT_TRUE(next.has_value());
    EXPECT_EQ(letters(next->marks), "..");
}

// A pair moves only where its gap is larger than the dearest slice known between them: less, and
// the move would only swap which side is slower.
TEST(LoadBalanceDecision, APairMovesOnlyWhereItsGapIsLargerThanTheSliceItWouldMove) {
    const SliceMap map = even_map(3, 4);
    const std::vector<double> times{3.0, 2.0, 1.0};  // mean 2, T_slice 0.5, threshold 0.25
    EXPECT_EQ(letters(decide_balance(times, map, 0.5, 0.5).marks), "GXT");
    // The gap between the giver and the taker is 2.
    EXPECT_EQ(letters(decide_balance(times, map, 0.5, 0.5, {0.0, 1.9}).marks), "GXT");
    EXPECT_EQ(letters(decide_balance(times, map, 0.5, 0.5, {2.0, 0.0}).marks), "...");
    const BalanceDecision held = decide_balance(times, map, 0.5, 0.5, {0.0, 2.5});
    EXPECT_EQ(letters(held.marks), "...");
    EXPECT_FALSE(held.changed());
    expect_consistent(held);
    EXPECT_THROW(decide_balance(times, map, 0.5, 0.5, {1.0}), std::invalid_argument);
}

// Two devices over slices of unequal cost, as DamBreak's on two GPUs once its walls cost almost
// nothing: the water column's slices cost a mean slice or more, the walls' a fifth. With Listing 1
// alone the boundary went back and forth at every decision between two places, each side slower
// by more than the threshold in turn; the balancer learns what the slice there costs from its
// last move and lets the boundary settle.
TEST(LoadBalancer, ABoundaryBetweenSlicesOfUnequalCostSettles) {
    std::vector<double> cost(20, 0.2);
    for (int s = 0; s < 9; ++s) cost[s] = 1.0;
    cost[9] = 6.0;
    const auto times_on = [&](const SliceMap& map) {
        std::vector<double> t(2, 0.0);
        for (int d = 0; d < 2; ++d) {
            for (int s = map.first_slice(d); s < map.end_slice(d); ++s) t[d] += cost[s];
        }
        return t;
    };
    const auto moves_in = [&](bool learning, int decisions) {
        LoadBalancer lb(2, 1, 0.5);
        SliceMap map = even_map(2, 10);
        std::vector<int> moves;
        for (int k = 0; k < decisions; ++k) {
            const std::vector<double> t = times_on(map);
            for (int d = 0; d < 2; ++d) {
                lb.add_sample(d, t[d], map.end_slice(d) - map.first_slice(d));
            }
            lb.end_iteration();
            std::optional<BalanceDecision> decision;
            if (learning) {
                decision = lb.decide(map);
            } else {  // Listing 1 alone, on the same timings
                decision = decide_balance(lb.averages(), map, 0.5, lb.slice_seconds());
                lb.decide(map);  // empties the window
            }
            EXPECT_TRUE(decision.has_value());
            if (!decision) break;
            expect_consistent(*decision);
            moves.push_back(decision->changed() ? 1 : 0);
            map = decision->to;
        }
        return moves;
    };
    const std::vector<int> listing = moves_in(false, 20);
    EXPECT_EQ(std::count(listing.end() - 10, listing.end(), 1), 10)
        << "the case no longer oscillates under Listing 1 alone: it tests nothing";
    const std::vector<int> learned = moves_in(true, 20);
    EXPECT_LE(std::count(learned.begin(), learned.end(), 1), 3);
    EXPECT_EQ(std::count(learned.end() - 10, learned.end(), 1), 0) << "the boundary never settled";
}

// Along a chain of devices over slices of random cost, decisions made with what the last moves
// showed keep Listing 1's invariants, and the times end closer together than they began.
TEST(LoadBalancer, LearningAlongAChainKeepsTheInvariants) {
    std::mt19937 random(5);
    std::uniform_real_distribution<double> slice_cost(0.1, 3.0);
    std::vector<double> cost(40);
    for (double& c : cost) c = slice_cost(random);
    const auto times_on = [&](const SliceMap& map) {
        std::vector<double> t(map.devices(), 0.0);
        for (int d = 0; d < map.devices(); ++d) {
            for (int s = map.first_slice(d); s < map.end_slice(d); ++s) t[d] += cost[s];
        }
        return t;
    };
    const auto spread = [](const std::vector<double>& t) {
        return *std::max_element(t.begin(), t.end()) - *std::min_element(t.begin(), t.end());
    };
    LoadBalancer lb(4, 1, 0.5);
    SliceMap map = even_map(4, 10);
    const double spread_at_first = spread(times_on(map));
    for (int k = 0; k < 60; ++k) {
        const std::vector<double> t = times_on(map);
        for (int d = 0; d < 4; ++d) lb.add_sample(d, t[d], map.end_slice(d) - map.first_slice(d));
        lb.end_iteration();
        const std::optional<BalanceDecision> decision = lb.decide(map);
        ASSERT_TRUE(decision.has_value());
        expect_consistent(*decision);
        for (double c : decision->moved_slice_seconds) EXPECT_GE(c, 0.0);
        map = decision->to;
    }
    EXPECT_LT(spread(times_on(map)), spread_at_first);
}

TEST(LoadBalancer, StateRoundTrips) {
    LoadBalancer a(3, 4, 0.5);
    for (int i = 0; i < 3; ++i) {
        for (int d = 0; d < 3; ++d) a.add_sample(d, 0.1 * (i + d), 2);
        a.end_iteration();
    }
    a.add_sample(1, 0.7, 1);  // an open iteration
    LoadBalancer b(3, 4, 0.5);
    b.restore(a.state());
    EXPECT_EQ(b.averages(), a.averages());
    a.end_iteration();
    b.end_iteration();
    EXPECT_EQ(b.averages(), a.averages());
    EXPECT_EQ(b.slice_seconds(), a.slice_seconds());
    LoadBalancer other(2, 4, 0.5);
    EXPECT_THROW(other.restore(a.state()), std::invalid_argument);
}

TEST(LoadBalancer, RefusesBadArguments) {
    EXPECT_THROW(LoadBalancer(0, 10, 0.5), std::invalid_argument);
    EXPECT_THROW(LoadBalancer(2, 0, 0.5), std::invalid_argument);
    EXPECT_THROW(LoadBalancer(2, 10, -1.0), std::invalid_argument);
    LoadBalancer lb(2, 10, 0.5);
    EXPECT_THROW(lb.add_sample(2, 1.0, 1), std::out_of_range);
    EXPECT_THROW(lb.add_sample(0, -1.0, 1), std::invalid_argument);
    EXPECT_THROW(lb.decide(even_map(3, 2)), std::invalid_argument);
}

std::vector<std::string> read_lines(const std::string& path) {
    std::ifstream in(path);
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

TEST(LoadBalanceLog, WritesHeaderAndOneRowPerDevicePerStep) {
    testing::TempDir dir("load_balance_log");
    const std::string path = dir.path() + "/load_balance.csv";
    LoadBalanceLog log(path);
    EXPECT_EQ(read_lines(path), std::vector<std::string>{LoadBalanceLog::kHeader});

    const BalanceDecision first = decide_balance({2.0, 1.0, 0.0}, even_map(3, 4), 0.5);
    log.write(10, 0.25, first, {400, 410, 390});
    const BalanceDecision second = decide_balance({1.0, 1.0, 1.0}, first.to, 0.5);
    log.write(20, 0.5, second, {300, 400, 500});
    EXPECT_EQ(log.steps(), 2);
    EXPECT_EQ(read_lines(path), (std::vector<std::string>{
                                    LoadBalanceLog::kHeader,
                                    "0,10,0.25,0,0,4,400,2,giving,0,3",
                                    "0,10,0.25,1,4,8,410,1,giving_and_taking,3,7",
                                    "0,10,0.25,2,8,12,390,0,taking,7,12",
                                    "1,20,0.5,0,0,3,300,1,none,0,3",
                                    "1,20,0.5,1,3,7,400,1,none,3,7",
                                    "1,20,0.5,2,7,12,500,1,none,7,12",
                                }));
    EXPECT_THROW(log.write(30, 1.0, second, {1, 2}), std::invalid_argument);
}

TEST(LoadBalanceLog, UnwritablePathIsNamed) {
    const std::string path = "/nonexistent-sph-dir/load_balance.csv";
    try {
        LoadBalanceLog log(path);
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace sph
