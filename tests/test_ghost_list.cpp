// mDBC walls' neighbour lists (kernels/ghost_list.h): a wall particle with a ghost node lists the
// fluid within the list radius of its node, in the order the cell walk around the node visits
// it; a dry wall lists nothing; a node outside the grid leaves the wall its own list. Built by
// the host's bodies on hand-made sorted particles and decoded as mdbc_body.h decodes them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "build_neibs_body.h"
#include "cell_grid.h"
#include "cell_walk.h"
#include "ghost_list.h"
#include "list_walk.h"
#include "neighbour_list.h"
#include "particle_type.h"

namespace sph {
namespace {

constexpr float kDp = 0.1f;
constexpr float kRadius = 0.3f;  // the list radius
constexpr std::uint32_t kMaxNeighbours = 128;

// Particles sorted by cell (then by the order given), with their cell ranges and lists.
struct Sorted {
    CellGrid grid;
    std::vector<Vec4> pos;  // w: the type
    std::vector<Vec3> to_ghost;
    std::vector<std::uint32_t> cell, cell_start, cell_end;
    std::vector<NeighbourGroup> list;

    NeighbourArgs args(bool mdbc) {
        NeighbourArgs a{pos.data(),      cell.data(),       cell_start.data(),
                        cell_end.data(), list.data(),       n(),
                        kMaxNeighbours,  kRadius * kRadius, grid};
        if (mdbc) a.to_ghost = to_ghost.data();
        return a;
    }
    std::uint32_t n() const { return std::uint32_t(pos.size()); }
};

// A water block on a lattice over a floor of wall particles whose ghost nodes mirror them a
// spacing up, and one wall particle far from the water (dry), in a box of cells.
Sorted water_over_a_floor() {
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {1.2, 1.2, 1.2};
    std::vector<Vec4> pos;
    std::vector<Vec3> to_ghost;
    for (int x = 0; x < 8; ++x) {
        for (int y = 0; y < 8; ++y) {
            pos.push_back(make_vec4(0.05f + kDp * x, 0.05f + kDp * y, 0.05f, float(kBoundary)));
            to_ghost.push_back(Vec3{0.0f, 0.0f, kDp});
            for (int z = 1; z < 5; ++z) {
                pos.push_back(
                    make_vec4(0.05f + kDp * x, 0.05f + kDp * y, 0.05f + kDp * z, float(kFluid)));
                to_ghost.push_back(Vec3{0.0f, 0.0f, 0.0f});
            }
        }
    }
    pos.push_back(make_vec4(1.15f, 1.15f, 0.05f, float(kBoundary)));  // far from the water
    to_ghost.push_back(Vec3{0.0f, 0.0f, kDp});
    pos.push_back(make_vec4(0.45f, 0.45f, 0.05f, float(kBoundary)));  // its node off the grid
    to_ghost.push_back(Vec3{0.0f, 0.0f, -kDp});

    Sorted s;
    s.grid = make_cell_grid(lo, hi, kRadius, 0);
    std::vector<std::uint32_t> order(pos.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return s.grid.cell_of(pos[a]) < s.grid.cell_of(pos[b]);
    });
    for (std::uint32_t k : order) {
        s.pos.push_back(pos[k]);
        s.to_ghost.push_back(to_ghost[k]);
        s.cell.push_back(s.grid.cell_of(pos[k]));
    }
    s.cell_start.assign(s.grid.cell_count(), kEmptyCell);
    s.cell_end.assign(s.grid.cell_count(), 0);
    for (std::uint32_t i = 0; i < s.n(); ++i) {
        find_cell_range(i, CellRangeArgs{s.cell.data(), s.cell_start.data(), s.cell_end.data(),
                                         s.n(), s.grid.outside_cell()});
    }
    s.list.assign(std::size_t(s.n()) * list_groups(kMaxNeighbours), NeighbourGroup(0xFF));
    return s;
}

// What mdbc_body.h reads of a list: decoded around `cell`.
std::vector<std::uint32_t> decode_around(const Sorted& s, std::uint32_t i, std::uint32_t cell) {
    struct View {
        const NeighbourGroup* list;
        std::uint32_t stride, max_neighbours;
    } view{s.list.data(), s.n(), kMaxNeighbours};
    const NeighbourCellSteps steps = neighbour_cell_steps(s.grid);
    const RowStartsFromCells rows{s.cell_start.data(), steps.by_code, cell,
                                  first_along_fastest(cell, s.grid)};
    std::vector<std::uint32_t> js;
    walk_listed_neighbours(i, view, rows, [&](std::uint32_t j) {
        js.push_back(j);
        return js.size() > s.n();  // a broken list does not run on forever
    });
    return js;
}

// The fluid within the list radius of `point`, in the cell walk's order around it.
std::vector<std::uint32_t> walked_fluid(const Sorted& s, Vec3 point) {
    std::vector<std::uint32_t> js;
    for_each_particle_near(point, s.grid, s.cell_start.data(), s.cell_end.data(),
                           [&](std::uint32_t j) {
                               if (s.pos[j].w == float(kFluid) &&
                                   length_squared(point - xyz(s.pos[j])) < kRadius * kRadius) {
                                   js.push_back(j);
                               }
                               return false;
                           });
    return js;
}

TEST(GhostLists, AWetWallListsTheFluidAroundItsNodeInTheCellWalksOrder) {
    Sorted s = water_over_a_floor();
    NeighbourArgs a = s.args(true);
    int wet = 0;
    for (std::uint32_t i = 0; i < s.n(); ++i) {
        ASSERT_NE(build_neighbour_list(i, a), kCellOverflow);
        const Vec3 p = xyz(s.pos[i]);
        const std::uint32_t node = ghost_cell(p, s.to_ghost[i], s.grid);
        if (s.pos[i].w == float(kFluid) || node == s.grid.outside_cell()) continue;
        const Vec3 g = p + s.to_ghost[i];
        if (walked_fluid(s, p).empty()) {
            EXPECT_TRUE(decode_around(s, i, node).empty()) << "dry wall " << i;
            continue;
        }
        ++wet;
        const std::vector<std::uint32_t> expected = walked_fluid(s, g);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(decode_around(s, i, node), expected) << "wall particle " << i;
    }
    EXPECT_EQ(wet, 64);
}

TEST(GhostLists, AWallKeepsItsOwnListUnderDbcOrWhereItsNodeIsOffTheGrid) {
    Sorted mdbc = water_over_a_floor();
    Sorted dbc = water_over_a_floor();
    NeighbourArgs with_nodes = mdbc.args(true), without = dbc.args(false);
    for (std::uint32_t i = 0; i < mdbc.n(); ++i) {
        build_neighbour_list(i, with_nodes);
        build_neighbour_list(i, without);
    }
    int own_lists = 0;
    for (std::uint32_t i = 0; i < mdbc.n(); ++i) {
        const bool node_on_grid =
            ghost_cell(xyz(mdbc.pos[i]), mdbc.to_ghost[i], mdbc.grid) != mdbc.grid.outside_cell();
        if (mdbc.pos[i].w != float(kFluid) && node_on_grid) continue;
        ++own_lists;
        EXPECT_EQ(decode_around(mdbc, i, mdbc.cell[i]), decode_around(dbc, i, dbc.cell[i]))
            << "particle " << i;
    }
    EXPECT_EQ(own_lists, 64 * 4 + 1);  // the water and the wall whose node is below the floor
}

}  // namespace
}  // namespace sph
