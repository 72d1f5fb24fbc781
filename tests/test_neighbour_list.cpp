// The neighbour list on every back end: the launchers chained as a device chains them at a rebuild
// (tests/kernels/kernel_chain.h), checked against a brute-force O(N^2) search, and cut short
// without writing past its end.
//
// The oracle shares the host's float arithmetic, so on the CPU borderline pairs agree exactly. nvcc
// contracts the distance into fused multiply-adds, so on CUDA a pair within a few float steps of
// the list radius may fall either way: such pairs are allowed on that side and nowhere else.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "build_neibs_body.h"
#include "cell_grid.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "list_walk.h"
#include "neighbour_list.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace sph::testing;

// What for_each_listed_neighbour reads of a kernel's arguments.
struct ListView {
    const NeighbourGroup* list;
    const std::uint32_t* list_rows;
    std::uint32_t max_neighbours;
    const std::uint32_t* cell;
    const std::uint32_t* cell_start;
    CellGrid grid;
};

// Indices j of particle i's listed neighbours, decoded as Forces does, in list order.
std::vector<std::uint32_t> decode_list(const BuiltLists& b, const CellGrid& grid,
                                       std::uint32_t max_neighbours, std::uint32_t i) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    const ListView view{b.list.data(), b.list_rows.data(),  max_neighbours,
                        b.cell.data(), b.cell_start.data(), grid};
    const NeighbourCellSteps steps = neighbour_cell_steps(grid);
    std::vector<std::uint32_t> js;
    for_each_listed_neighbour(i, view, steps.by_code, [&](std::uint32_t j) {
        // An entry must name a particle of one of the 27 cells around i's.
        EXPECT_LT(j, n) << "particle " << i << " entry " << js.size();
        if (j >= n) return true;
        int ci[3], cj[3];
        grid.coordinates(b.cell[i], ci);
        grid.coordinates(b.cell[j], cj);
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_LE(std::abs(ci[axis] - cj[axis]), 1)
                << "particle " << i << " entry " << js.size() << " names particle " << j;
        }
        js.push_back(j);
        return false;
    });
    return js;
}

// Group g of sorted particle i, and its entry k.
NeighbourGroup group_at(const BuiltLists& b, std::uint32_t g, std::uint32_t i) {
    return b.list[group_index(g, i, b.list_rows.data())];
}
NeighbourEntry entry_at(const BuiltLists& b, std::uint32_t k, std::uint32_t i) {
    return entry_of(group_at(b, 1 + k / kEntriesPerGroup, i), k % kEntriesPerGroup);
}

struct Scene {
    CellGrid grid;
    SphParams params;
    std::vector<FixedPos> pos;  // in the grid's frame
    FixedPos fixed(std::uint32_t i) const { return pos[i]; }
};

// A few thousand random particles in a box whose upper faces coincide with the grid's last cell
// faces (hi = lo + dims * side), plus particles exactly on, and one step below, every cell face
// along each axis, particles within 1e-6 m of the upper bound, and one coincident pair.
Scene make_scene(int split_axis) {
    Scene s;
    s.params = params_for_dp(0.01);
    const double side = cell_side_for(s.params);
    double lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        lo[a] = kSceneLo[a];
        hi[a] = lo[a] + kSceneCells[a] * side;
    }
    s.grid = make_cell_grid(lo, hi, side, split_axis, frame_for_domain(lo, hi));
    const PositionFrame& frame = s.grid.frame;

    std::mt19937 rng(20240611u);
    // The grid's last step along `a`, and a step of [lo, hi) near x [m].
    const auto last_step = [&](int a) {
        return std::int32_t(fixed_component(frame.fixed(hi[0], hi[1], hi[2], 0.0f), a) - 1);
    };
    auto inside = [&](double x, int a) {
        const std::int32_t steps = fixed_component(frame.fixed(x, x, x, 0.0f), a);
        return std::min(std::max(steps, fixed_component(frame.fixed(lo[0], lo[1], lo[2], 0), a)),
                        last_step(a));
    };
    auto random_pos = [&]() {
        std::int32_t c[3];
        for (int a = 0; a < 3; ++a) {
            c[a] = inside(std::uniform_real_distribution<double>(lo[a], hi[a])(rng), a);
        }
        return FixedPos{c[0], c[1], c[2], 0.0f};
    };
    const auto set = [](FixedPos& p, int a, std::int32_t steps) {
        (a == 0 ? p.x : a == 1 ? p.y : p.z) = steps;
    };

    for (int k = 0; k < 3000; ++k) s.pos.push_back(random_pos());

    // Face particles: lines along each axis through random points. Each line holds both sides of
    // every face, so pairs one cell side apart straddle two faces, the tightest case for the
    // 27-cell search.
    for (int a = 0; a < 3; ++a) {
        for (int line = 0; line < 3; ++line) {
            const FixedPos base = random_pos();
            for (int k = 0; k < s.grid.dims[a]; ++k) {
                const std::int32_t face = s.grid.origin[a] + k * s.grid.side;
                for (const std::int32_t x : {face, face - 1}) {
                    if (x < fixed_component(frame.fixed(lo[0], lo[1], lo[2], 0), a)) continue;
                    FixedPos p = base;
                    set(p, a, x);
                    s.pos.push_back(p);
                }
            }
            // Within 1e-6 m of the upper bound along this axis, and its last step.
            for (double d : {1e-6, 3e-7, 1e-7, 0.0}) {
                FixedPos p = base;
                set(p, a, d > 0.0 ? inside(hi[a] - d, a) : last_step(a));
                s.pos.push_back(p);
            }
        }
    }
    // The last corner inside hi, and a coincident pair (distance 0 is still within the radius).
    s.pos.push_back(FixedPos{last_step(0), last_step(1), last_step(2), 0.0f});
    const FixedPos twin = s.pos[17];
    s.pos.push_back(twin);

    // Shuffle so that input order says nothing about cells.
    std::shuffle(s.pos.begin(), s.pos.end(), rng);
    return s;
}

// The neighbours each particle must have, and may have: input indices within the list radius, in
// increasing order, by the host's float arithmetic (the one build_neighbour_list uses on the CPU);
// a wall's the fluid alone. `types` by input index (empty: build_lists' tags, fluid for even i, a
// wall for odd). `band`: the relative band around the squared radius where a back end's rounding
// may decide (0 on the CPU).
struct ExpectedNeighbours {
    std::vector<std::vector<std::uint32_t>> sure, possible;
};

ExpectedNeighbours brute_force(const std::vector<FixedPos>& pos, const PositionFrame& frame,
                               float list_radius_sq, float band,
                               const std::vector<std::uint8_t>& types = {}) {
    const std::uint32_t n = std::uint32_t(pos.size());
    const auto is_wall = [&](std::uint32_t k) {
        return types.empty() ? k % 2 == 1 : types[k] != kFluid;
    };
    ExpectedNeighbours e{std::vector<std::vector<std::uint32_t>>(n),
                         std::vector<std::vector<std::uint32_t>>(n)};
    for (std::uint32_t a = 0; a < n; ++a) {
        for (std::uint32_t c = 0; c < n; ++c) {
            if (c == a || (is_wall(a) && is_wall(c))) continue;
            const float d2 = length_squared(frame.between(pos[a], pos[c]));
            if (d2 < list_radius_sq * (1.0f - band)) e.sure[a].push_back(c);
            if (d2 < list_radius_sq * (1.0f + band)) e.possible[a].push_back(c);
        }
    }
    return e;
}

// The relative band of squared distances a back end may round either way.
float rounding_band(BackendChoice backend) {
    return backend == BackendChoice::kCuda ? 8.0f * FLT_EPSILON : 0.0f;
}

std::size_t largest_size(const std::vector<std::vector<std::uint32_t>>& lists) {
    std::size_t largest = 0;
    for (const auto& l : lists) largest = std::max(largest, l.size());
    return largest;
}

// Pairs within the list radius whose cells are two apart along some axis: the 27-cell search
// cannot see them. They would exist if a cell were narrower than the list radius; counted only to
// explain a failure of the set comparison.
int far_pairs(const Scene& s, const ExpectedNeighbours& expected) {
    int far_count = 0;
    for (std::uint32_t a = 0; a < s.pos.size(); ++a) {
        int ca[3];
        s.grid.coordinates(s.grid.cell_of(s.fixed(a)), ca);
        for (std::uint32_t c : expected.sure[a]) {
            int cc[3];
            s.grid.coordinates(s.grid.cell_of(s.fixed(c)), cc);
            bool far = false;
            for (int k = 0; k < 3; ++k) far = far || std::abs(ca[k] - cc[k]) > 1;
            if (far) ++far_count;
        }
    }
    return far_count;
}

// Empty when `got` holds every sure neighbour and nothing beyond the possible ones; otherwise what
// is wrong, for the failure message.
std::string list_error(const Scene& s, std::uint32_t a, const std::vector<std::uint32_t>& got,
                       const ExpectedNeighbours& expected) {
    std::vector<std::uint32_t> missing, extra;
    std::set_difference(expected.sure[a].begin(), expected.sure[a].end(), got.begin(), got.end(),
                        std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), expected.possible[a].begin(),
                        expected.possible[a].end(), std::back_inserter(extra));
    if (missing.empty() && extra.empty()) return "";
    std::ostringstream msg;
    msg.precision(9);
    msg << "particle " << a << " at " << describe(s.pos[a]) << ": " << missing.size()
        << " missing, " << extra.size() << " extra.";
    for (std::uint32_t c : missing) {
        const Vec3 r = s.grid.frame.between(s.fixed(a), s.fixed(c));
        msg << "\n  missing " << c << " at " << describe(s.pos[c]) << " cell "
            << s.grid.cell_of(s.fixed(c)) << ", |r|^2 = " << length_squared(r) << " < "
            << s.params.list_radius_sq;
    }
    for (std::uint32_t c : extra) msg << "\n  extra " << c << " at " << describe(s.pos[c]);
    return msg.str();
}

ListRequest request_for(const Scene& s, std::uint32_t max_neighbours) {
    ListRequest r;
    r.grid = s.grid;
    r.list_radius_sq = s.params.list_radius_sq;
    r.max_neighbours = max_neighbours;
    return r;
}

class NeighbourList : public EveryBackend {};

TEST_P(NeighbourList, MatchesBruteForce) {
    for (int split_axis : {0, 2}) {
        SCOPED_TRACE("split axis " + std::to_string(split_axis));
        const Scene s = make_scene(split_axis);
        const std::uint32_t n = std::uint32_t(s.pos.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            ASSERT_NE(s.grid.cell_of(s.fixed(i)), s.grid.outside_cell())
                << "particle " << i << " at " << describe(s.pos[i]) << " is inside [lo, hi)";
        }
        constexpr std::uint32_t kMaxNeighbours = 256;
        const BuiltLists b = build_lists(backend(), s.pos, request_for(s, kMaxNeighbours));
        ASSERT_FALSE(b.outside);
        const ExpectedNeighbours expected =
            brute_force(s.pos, s.grid.frame, s.params.list_radius_sq, rounding_band(backend()));
        ASSERT_LT(largest_size(expected.possible), kMaxNeighbours)
            << "raise max_neighbours so no list is cut short";
        EXPECT_GE(b.largest, largest_size(expected.sure));
        EXPECT_LE(b.largest, largest_size(expected.possible));

        for (std::uint32_t i = 0; i < n; ++i) {
            // The gather carries every array along with its particle; the sort is by (cell, slab,
            // id).
            ASSERT_EQ(b.velrho[i].x, float(b.id[i])) << "sorted particle " << i;
            ASSERT_EQ(b.type[i], std::uint8_t(b.id[i] % 2)) << "sorted particle " << i;
            if (i + 1 < n) {
                ASSERT_LE(b.cell[i], b.cell[i + 1]);
            }
        }
        ASSERT_EQ(cell_split_error(b, s.grid), "");  // what the lists' rows were trimmed by

        int reported = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            const std::vector<std::uint32_t> js = decode_list(b, s.grid, kMaxNeighbours, i);
            std::vector<std::uint32_t> got;
            for (std::size_t k = 0; k < js.size(); ++k) {
                ASSERT_LT(js[k], n);
                if (k > 0) {
                    ASSERT_LT(js[k - 1], js[k]) << "list of sorted particle " << i;
                }
                got.push_back(b.id[js[k]]);
            }
            std::sort(got.begin(), got.end());
            const std::string error = list_error(s, b.id[i], got, expected);
            if (!error.empty() && ++reported <= 10) ADD_FAILURE() << error;
        }
        EXPECT_EQ(reported, 0) << "particles whose list differs from the brute-force set; "
                               << far_pairs(s, expected)
                               << " ordered pairs within the list radius lie in cells two apart";
    }
}

// Walls two and a half cells deep under fluid, as a tank's floor: the deeper cells hold walls
// alone, which a wall's list build passes over (kWetByte, cell_grid.h), and the walls' lists are
// still the fluid within the list radius, every one of them (empty for the deep walls).
TEST_P(NeighbourList, WallsListTheFluidAloneAndPassOverCellsOfWallsAlone) {
    const Scene s = make_scene(0);
    const std::uint32_t n = std::uint32_t(s.pos.size());
    const float floor_top = float(s.grid.origin_metres(2) + 2.5 * s.grid.cell_side);
    std::vector<std::uint8_t> types(n);
    for (std::uint32_t k = 0; k < n; ++k) {
        types[k] = s.grid.frame.metres(s.pos[k].z, 2) < floor_top
                       ? (k % 2 == 0 ? kBoundary : kFreeSlipBoundary)
                       : kFluid;
    }
    constexpr std::uint32_t kMaxNeighbours = 256;
    const BuiltLists b = build_lists(backend(), s.pos, request_for(s, kMaxNeighbours), {}, types);
    ASSERT_FALSE(b.outside);
    ASSERT_EQ(cell_split_error(b, s.grid), "");  // the wet bytes among them
    int dry_cells = 0;
    for (std::uint32_t c = 0; c < s.grid.cell_count(); ++c) {
        dry_cells += b.cell_start[c] != kEmptyCell &&
                     b.cell_split[std::size_t(c) * kCellSplitBytes + kWetByte] == 0;
    }
    EXPECT_GT(dry_cells, 0) << "no cell held walls alone";
    const ExpectedNeighbours expected =
        brute_force(s.pos, s.grid.frame, s.params.list_radius_sq, rounding_band(backend()), types);
    ASSERT_LT(largest_size(expected.possible), kMaxNeighbours);
    int reported = 0, wet_walls = 0, dry_walls = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::vector<std::uint32_t> js = decode_list(b, s.grid, kMaxNeighbours, i);
        std::vector<std::uint32_t> got;
        for (std::uint32_t j : js) got.push_back(b.id[j]);
        std::sort(got.begin(), got.end());
        if (types[b.id[i]] != kFluid) (got.empty() ? dry_walls : wet_walls) += 1;
        const std::string error = list_error(s, b.id[i], got, expected);
        if (!error.empty() && ++reported <= 10) ADD_FAILURE() << error;
    }
    EXPECT_EQ(reported, 0) << "particles whose list differs from the brute-force set";
    EXPECT_GT(wet_walls, 0) << "no wall listed fluid";
    EXPECT_GT(dry_walls, 0) << "no wall was dry";
}

TEST_P(NeighbourList, ReportsOverflowWithoutWritingPastTheEnd) {
    const Scene s = make_scene(0);
    const std::uint32_t n = std::uint32_t(s.pos.size());
    constexpr std::uint32_t kFull = 256, kSmall = 16;
    constexpr NeighbourGroup kCanary = 0xA5A5A5A5A5A5A5A5u;

    // The reference is the back end's own complete list, not the brute-force set, so that this
    // test checks truncation alone and does not repeat MatchesBruteForce's verdict.
    const BuiltLists full = build_lists(backend(), s.pos, request_for(s, kFull));
    ASSERT_FALSE(full.outside);
    std::vector<std::uint32_t> count(n);
    std::uint32_t largest = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        count[i] = std::uint32_t(decode_list(full, s.grid, kFull, i).size());
        largest = std::max(largest, count[i]);
    }
    ASSERT_LT(largest, kFull);
    ASSERT_EQ(full.largest, largest);
    ASSERT_GT(largest, kSmall) << "the scene must overflow the small list";

    ListRequest small = request_for(s, kSmall);
    small.fill = kCanary;
    const BuiltLists cut = build_lists(backend(), s.pos, small);
    ASSERT_FALSE(cut.outside);
    // The true count comes back, so the driver can tell the user how far to raise the limit.
    EXPECT_EQ(cut.largest, largest);

    int overflowing = 0;
    std::vector<std::uint32_t> height(list_warps(n), 0);
    for (std::uint32_t i = 0; i < n; ++i) {
        height[i / kListWarp] = std::max(height[i / kListWarp], groups_used(count[i], kSmall));
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        if (count[i] > kSmall) ++overflowing;
        // The header counts every neighbour found, kept or not.
        ASSERT_EQ(group_at(cut, 0, i), group_at(full, 0, i))
            << "sorted particle " << i << "'s row counts";
        for (std::uint32_t k = 0; k < kSmall && k <= count[i]; ++k) {
            // The kept entries are the first ones of the complete list, then the end marker.
            const NeighbourEntry want = k < count[i] ? entry_at(full, k, i) : kListEnd;
            ASSERT_EQ(entry_at(cut, k, i), want)
                << "sorted particle " << i << " (" << count[i] << " neighbours), entry " << k;
        }
        // The rest of the warp's block, past the particle's last group: untouched.
        for (std::uint32_t g = groups_used(count[i], kSmall); g < height[i / kListWarp]; ++g) {
            ASSERT_EQ(group_at(cut, g, i), kCanary) << "sorted particle " << i << ", group " << g;
        }
    }
    EXPECT_GT(overflowing, 0);
    // The blocks take their warps' heights, and nothing past them is written.
    std::uint64_t rows = 0;
    for (std::uint32_t h : height) rows += h;
    EXPECT_EQ(cut.rows, rows);
    for (std::size_t k = std::size_t(rows) * kListWarp; k < cut.list.size(); ++k) {
        ASSERT_EQ(cut.list[k], kCanary) << "group " << k << " past the blocks' " << rows << " rows";
    }
}

// A list whose blocks need more rows than it has says so (the device then builds again into a
// larger one), writes nothing past its rows, and, built again with room, is the same list.
TEST_P(NeighbourList, SaysWhenItNeedsMoreRowsThanItHas) {
    const Scene s = make_scene(0);
    const std::uint32_t n = std::uint32_t(s.pos.size());
    constexpr NeighbourGroup kCanary = 0x5A5A5A5A5A5A5A5Au;
    constexpr std::uint32_t kMax = 256;
    const BuiltLists roomy = build_lists(backend(), s.pos, request_for(s, kMax));
    ASSERT_FALSE(roomy.outside);
    ASSERT_LT(roomy.rows, roomy.pool_rows) << "the warps use fewer rows than their largest lists";

    ListRequest tight = request_for(s, kMax);
    tight.pool_rows = roomy.rows / 2;
    tight.fill = kCanary;
    const BuiltLists cut = build_lists(backend(), s.pos, tight);
    EXPECT_EQ(cut.rows, roomy.rows) << "the rows the blocks need, counted past the pool";
    EXPECT_EQ(cut.largest, roomy.largest);
    for (std::size_t k = std::size_t(tight.pool_rows) * kListWarp; k < cut.list.size(); ++k) {
        ASSERT_EQ(cut.list[k], kCanary)
            << "group " << k << " past the pool's " << tight.pool_rows << " rows";
    }

    ListRequest exact = request_for(s, kMax);
    exact.pool_rows = roomy.rows;  // just enough
    const BuiltLists fitted = build_lists(backend(), s.pos, exact);
    ASSERT_EQ(fitted.rows, roomy.rows);
    for (std::uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(decode_list(fitted, s.grid, kMax, i), decode_list(roomy, s.grid, kMax, i))
            << "sorted particle " << i;
    }
}

// A row of cells too crowded to encode (neighbour_list.h) is reported, as kCellOverflow, not
// listed wrongly: a particle with more than 255 neighbours in one row, or with two neighbours more
// than 255 particles apart in it; its list is left empty (the step's Forces walks it before the
// run stops), every other particle's is whole. One fewer crowding particle in each scene is
// listed in full.
TEST_P(NeighbourList, ReportsARowTooCrowdedToEncode) {
    Scene s = make_scene(0);  // the grid's fastest axis is z
    const double side = s.grid.cell_side;
    const auto at = [&](int cx, int cy, double fx, double fy, double z) {
        return make_vec4(float(s.grid.origin_metres(0) + (cx + fx) * side),
                         float(s.grid.origin_metres(1) + (cy + fy) * side), float(z), 0.0f);
    };
    const auto z_in = [&](int cz, double f) { return s.grid.origin_metres(2) + (cz + f) * side; };

    // A clump of `count` particles in one cell: each has count - 1 neighbours in its own row.
    const auto clump = [&](int count) {
        std::vector<Vec4> pos;
        std::mt19937 rng(7u);
        std::uniform_real_distribution<double> jitter(0.4, 0.6);
        for (int k = 0; k < count; ++k)
            pos.push_back(at(3, 3, jitter(rng), jitter(rng), z_in(3, jitter(rng))));
        return pos;
    };
    // P near the low z face of cell (3, 3, 3), and its only neighbours: Q just below that face,
    // and R just above the next one, after `between` particles of cell (3, 3, 4) in two of its
    // far corners, in the same slab as R (cell_grid.h; R's id is the largest, so it is sorted
    // last): P's step from Q to R is between + 2 (P itself lies between them too).
    const auto gap = [&](int between) {
        std::vector<Vec4> pos{at(3, 3, 0.5, 0.5, z_in(3, 0.05)),
                              at(3, 3, 0.5, 0.5, z_in(3, -0.05))};
        for (int k = 0; k < between; ++k) {
            const double corner = k % 2 == 0 ? 0.05 : 0.95, f = 0.001 * (k / 2);
            pos.push_back(at(3, 3, corner + (k % 2 == 0 ? f : -f), corner, z_in(4, 0.02)));
        }
        pos.push_back(at(3, 3, 0.5, 0.5, z_in(4, 0.01)));
        return pos;
    };
    for (const auto& [name, pos, fits] :
         {std::tuple{"a clump of 256", clump(256), true},
          std::tuple{"a clump of 257", clump(257), false},
          std::tuple{"253 between", gap(253), true}, std::tuple{"254 between", gap(254), false}}) {
        SCOPED_TRACE(name);
        s.pos = fixed_positions(pos, s.grid.frame);
        const BuiltLists b = build_lists(backend(), s.pos, request_for(s, 512));
        ASSERT_FALSE(b.outside);
        if (fits) {
            ASSERT_NE(b.largest, kCellOverflow);
        } else {
            EXPECT_EQ(b.largest, kCellOverflow);
        }
        const std::uint32_t n = std::uint32_t(s.pos.size());
        int emptied = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            std::vector<std::uint32_t> want;  // a wall's the fluid alone
            for (std::uint32_t j = 0; j < n; ++j) {
                if (j != i && (b.type[i] == kFluid || b.type[j] == kFluid) &&
                    length_squared(between(b, i, j, s.grid)) < s.params.list_radius_sq) {
                    want.push_back(j);
                }
            }
            const std::vector<std::uint32_t> listed = decode_list(b, s.grid, 512, i);
            if (!fits && listed.empty() && !want.empty()) {
                ++emptied;
                continue;
            }
            ASSERT_EQ(listed, want) << "sorted particle " << i;
        }
        EXPECT_EQ(emptied > 0, !fits);
    }
}

SPH_ON_EVERY_BACKEND(NeighbourList);

}  // namespace
}  // namespace sph
