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
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "build_neibs_body.h"
#include "cell_grid.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "neighbour_list.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace sph::testing;

// Sorted indices j of particle i's listed neighbours, decoded as Forces does.
std::vector<std::uint32_t> decode_list(const BuiltLists& b, const CellGrid& grid,
                                       std::uint32_t max_neighbours, std::uint32_t i) {
    const std::uint32_t stride = std::uint32_t(b.pos.size());
    std::vector<std::uint32_t> js;
    for (std::uint32_t k = 0; k < max_neighbours; ++k) {
        const NeighbourEntry e = b.list[entry_index(k, i, stride)];
        if (e == kListEnd) break;
        const std::uint32_t nc = b.cell[i] + neighbour_cell_delta(grid, neighbour_code(e));
        const std::uint32_t j = b.cell_start[nc] + neighbour_offset(e);
        // An entry must name an occupied cell and an offset inside it.
        EXPECT_NE(b.cell_start[nc], kEmptyCell) << "particle " << i << " entry " << k;
        EXPECT_LT(j, b.cell_end[nc]) << "particle " << i << " entry " << k;
        js.push_back(j);
    }
    return js;
}

// The smallest float x whose cell coordinate along `axis` is at least k: the face between cells
// k - 1 and k exactly as the grid's float arithmetic places it.
float face(const CellGrid& g, int axis, int k) {
    float x = g.origin[axis] + float(k) * g.cell_side;
    while (g.coordinate(x, axis) >= k) x = std::nextafter(x, -1e9f);
    while (g.coordinate(x, axis) < k) x = std::nextafter(x, 1e9f);
    return x;
}

struct Scene {
    CellGrid grid;
    SphParams params;
    std::vector<Vec4> pos;
};

// A few thousand random particles in a box whose upper faces coincide with the grid's last cell
// faces (hi = lo + dims * side), plus particles exactly on, and one float below, every cell face
// along each axis, particles within 1e-6 of the upper bound, and one coincident pair.
Scene make_scene(int split_axis) {
    Scene s;
    s.params = params_for_dp(0.01);
    const double side = cell_side_for(s.params);
    double lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        lo[a] = kSceneLo[a];
        hi[a] = lo[a] + kSceneCells[a] * side;
    }
    s.grid = make_cell_grid(lo, hi, side, split_axis);

    std::mt19937 rng(20240611u);
    // A float strictly inside [lo, hi): rounding a double may land on hi, so step back.
    auto inside = [&](double x, int a) {
        float f = float(x);
        while (double(f) >= hi[a]) f = std::nextafter(f, -1e9f);
        while (double(f) < lo[a]) f = std::nextafter(f, 1e9f);
        return f;
    };
    auto random_coord = [&](int a) {
        return inside(std::uniform_real_distribution<double>(lo[a], hi[a])(rng), a);
    };
    auto random_pos = [&]() {
        return make_vec4(random_coord(0), random_coord(1), random_coord(2), 0.0f);
    };

    for (int k = 0; k < 3000; ++k) s.pos.push_back(random_pos());

    // Face particles: lines along each axis through random points. Each line holds both sides of
    // every face, so pairs one cell side apart straddle two faces, the tightest case for the
    // 27-cell search.
    for (int a = 0; a < 3; ++a) {
        for (int line = 0; line < 3; ++line) {
            const Vec4 base = random_pos();
            for (int k = 0; k < s.grid.dims[a]; ++k) {
                const float f = face(s.grid, a, k);
                for (float x : {f, std::nextafter(f, -1e9f)}) {
                    Vec4 p = base;
                    (a == 0 ? p.x : a == 1 ? p.y : p.z) = inside(x, a);
                    s.pos.push_back(p);
                }
            }
            // Within 1e-6 of the upper bound along this axis.
            for (double d : {1e-6, 3e-7, 1e-7}) {
                Vec4 p = base;
                (a == 0 ? p.x : a == 1 ? p.y : p.z) = inside(hi[a] - d, a);
                s.pos.push_back(p);
            }
        }
    }
    // A corner 1e-7 inside hi, and a coincident pair (distance 0 is still within the radius).
    // The very last floats below hi are left to the CellGrid test: float rounding in cell_of can
    // hash them outside, which would stop the list build before anything here is checked.
    s.pos.push_back(
        make_vec4(inside(hi[0] - 1e-7, 0), inside(hi[1] - 1e-7, 1), inside(hi[2] - 1e-7, 2), 0.0f));
    const Vec4 twin = s.pos[17];
    s.pos.push_back(twin);

    // Shuffle so that input order says nothing about cells.
    std::shuffle(s.pos.begin(), s.pos.end(), rng);
    return s;
}

// The neighbours each particle must have, and may have: input indices within the list radius, in
// increasing order, by the host's float arithmetic (the one build_neighbour_list uses on the CPU).
// `band`: the relative band around the squared radius where a back end's rounding may decide
// (0 on the CPU).
struct ExpectedNeighbours {
    std::vector<std::vector<std::uint32_t>> sure, possible;
};

ExpectedNeighbours brute_force(const std::vector<Vec4>& pos, float list_radius_sq, float band) {
    const std::uint32_t n = std::uint32_t(pos.size());
    ExpectedNeighbours e{std::vector<std::vector<std::uint32_t>>(n),
                         std::vector<std::vector<std::uint32_t>>(n)};
    for (std::uint32_t a = 0; a < n; ++a) {
        const Vec3 pa = xyz(pos[a]);
        for (std::uint32_t c = 0; c < n; ++c) {
            if (c == a) continue;
            const float d2 = length_squared(pa - xyz(pos[c]));
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
// cannot see them. They exist when float rounding in cell_of leaves a cell narrower than the list
// radius; counted only to explain a failure of the set comparison.
int far_pairs(const Scene& s, const ExpectedNeighbours& expected) {
    int far_count = 0;
    for (std::uint32_t a = 0; a < s.pos.size(); ++a) {
        int ca[3];
        s.grid.coordinates(s.grid.cell_of(s.pos[a]), ca);
        for (std::uint32_t c : expected.sure[a]) {
            int cc[3];
            s.grid.coordinates(s.grid.cell_of(s.pos[c]), cc);
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
        const Vec3 r = xyz(s.pos[a]) - xyz(s.pos[c]);
        msg << "\n  missing " << c << " at " << describe(s.pos[c]) << " cell "
            << s.grid.cell_of(s.pos[c]) << ", |r|^2 = " << length_squared(r) << " < "
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
            ASSERT_NE(s.grid.cell_of(s.pos[i]), s.grid.outside_cell())
                << "particle " << i << " at " << describe(s.pos[i]) << " is inside [lo, hi)";
        }
        constexpr std::uint32_t kMaxNeighbours = 256;
        const BuiltLists b = build_lists(backend(), s.pos, request_for(s, kMaxNeighbours));
        ASSERT_FALSE(b.outside);
        const ExpectedNeighbours expected =
            brute_force(s.pos, s.params.list_radius_sq, rounding_band(backend()));
        ASSERT_LT(largest_size(expected.possible), kMaxNeighbours)
            << "raise max_neighbours so no list is cut short";
        EXPECT_GE(b.largest, largest_size(expected.sure));
        EXPECT_LE(b.largest, largest_size(expected.possible));

        for (std::uint32_t i = 0; i < n; ++i) {
            // The gather carries every array along with its particle; the sort is by (cell, id).
            ASSERT_EQ(b.velrho[i].x, float(b.id[i])) << "sorted particle " << i;
            ASSERT_EQ(b.type[i], std::uint8_t(b.id[i] % 2)) << "sorted particle " << i;
            if (i + 1 < n) {
                ASSERT_LE(b.cell[i], b.cell[i + 1]);
            }
        }

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

TEST_P(NeighbourList, ReportsOverflowWithoutWritingPastTheEnd) {
    const Scene s = make_scene(0);
    const std::uint32_t n = std::uint32_t(s.pos.size());
    constexpr std::uint32_t kFull = 256, kSmall = 16;
    constexpr NeighbourEntry kCanary = 0xA5A5u;
    constexpr std::uint32_t kCanaryRows = 4;

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
    small.extra_rows = kCanaryRows;
    small.fill = kCanary;
    const BuiltLists cut = build_lists(backend(), s.pos, small);
    ASSERT_FALSE(cut.outside);
    // The true count comes back, so the driver can tell the user how far to raise the limit.
    EXPECT_EQ(cut.largest, largest);

    int overflowing = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (count[i] > kSmall) ++overflowing;
        for (std::uint32_t k = 0; k < kSmall + kCanaryRows; ++k) {
            NeighbourEntry want = kCanary;  // rows past max_neighbours must stay untouched
            if (k < kSmall) {
                if (k < count[i]) {
                    // The kept entries are the first ones of the complete list.
                    want = full.list[entry_index(k, i, n)];
                } else if (k == count[i]) {
                    want = kListEnd;
                } else {
                    continue;  // past the end marker: unspecified
                }
            }
            ASSERT_EQ(cut.list[entry_index(k, i, n)], want)
                << "sorted particle " << i << " (" << count[i] << " neighbours), entry " << k;
        }
    }
    EXPECT_GT(overflowing, 0);
}

SPH_ON_EVERY_BACKEND(NeighbourList);

}  // namespace
}  // namespace sph
