// mDBC walls' neighbour lists (kernels/ghost_list.h): a wall particle with a ghost node lists the
// fluid within the list radius of its node, in the order the cell walk around the node visits
// it; a dry wall lists nothing; a node outside the grid leaves the wall its own list. Built by
// the host's launchers chained as a device chains them (tests/kernels/kernel_chain.h) and
// decoded as mdbc_body.h decodes them.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cell_grid.h"
#include "cell_walk.h"
#include "ghost_list.h"
#include "kernels/kernel_chain.h"
#include "list_walk.h"
#include "neighbour_list.h"
#include "particle_type.h"

namespace sph {
namespace {

constexpr float kDp = 0.1f;
constexpr float kRadius = 0.3f;  // the list radius
constexpr std::uint32_t kMaxNeighbours = 128;

// Particles as set up (w: the type), their types and ghost offsets, and the lists they ask for.
struct Scene {
    std::vector<Vec4> pos;
    std::vector<std::uint8_t> type;
    std::vector<Vec3> to_ghost;
    testing::ListRequest request;
};

// A water block on a lattice over a floor of wall particles whose ghost nodes mirror them a
// spacing up, and one wall particle far from the water (dry), in a box of cells.
Scene water_over_a_floor() {
    Scene s;
    auto add = [&](float x, float y, float z, ParticleType type, float ghost_dz) {
        s.pos.push_back(make_vec4(x, y, z, float(type)));
        s.type.push_back(type);
        s.to_ghost.push_back(Vec3{0.0f, 0.0f, ghost_dz});
    };
    for (int x = 0; x < 8; ++x) {
        for (int y = 0; y < 8; ++y) {
            add(0.05f + kDp * x, 0.05f + kDp * y, 0.05f, kBoundary, kDp);
            for (int z = 1; z < 5; ++z) {
                add(0.05f + kDp * x, 0.05f + kDp * y, 0.05f + kDp * z, kFluid, 0.0f);
            }
        }
    }
    add(1.15f, 1.15f, 0.05f, kBoundary, kDp);   // far from the water
    add(0.45f, 0.45f, 0.05f, kBoundary, -kDp);  // its node off the grid
    const double lo[3] = {0.0, 0.0, 0.0}, hi[3] = {1.2, 1.2, 1.2};
    s.request.grid = make_cell_grid(lo, hi, kRadius, 0, frame_for_domain(lo, hi));
    s.request.list_radius_sq = kRadius * kRadius;
    s.request.max_neighbours = kMaxNeighbours;
    s.request.fill = NeighbourGroup(0xFF);
    return s;
}

// The scene sorted and listed on the CPU, the walls around their ghost nodes (mDBC) or not.
testing::BuiltLists built(const Scene& s, bool mdbc) {
    testing::BuiltLists b = testing::build_lists(BackendChoice::kCpu, s.pos, s.request,
                                                 mdbc ? s.to_ghost : std::vector<Vec3>{}, s.type);
    EXPECT_FALSE(b.outside);
    EXPECT_NE(b.largest, kCellOverflow);
    return b;
}

// What mdbc_body.h reads of a list: decoded around `cell`.
std::vector<std::uint32_t> decode_around(const testing::BuiltLists& b, const CellGrid& grid,
                                         std::uint32_t i, std::uint32_t cell) {
    const std::uint32_t n = std::uint32_t(b.pos.size());
    struct View {
        const NeighbourGroup* list;
        const std::uint32_t* list_rows;
        std::uint32_t max_neighbours;
    } view{b.list.data(), b.list_rows.data(), kMaxNeighbours};
    const NeighbourCellSteps steps = neighbour_cell_steps(grid);
    const RowStartsFromCells rows{b.cell_start.data(), steps.by_code, cell,
                                  first_along_fastest(cell, grid)};
    std::vector<std::uint32_t> js;
    walk_listed_neighbours(i, view, rows, [&](std::uint32_t j) {
        js.push_back(j);
        return js.size() > n;  // a broken list does not run on forever
    });
    return js;
}

// The fluid within the list radius of `point`, in the cell walk's order around it; within as the
// list build's candidate test rounds it (squared_length_less, cell_walk.h): the scene's lattice
// puts candidates at the radius itself, where the last bit decides.
std::vector<std::uint32_t> walked_fluid(const testing::BuiltLists& b, const CellGrid& grid,
                                        FixedPos point) {
    std::vector<std::uint32_t> js;
    for_each_particle_near(
        point, grid, b.cell_start.data(), b.cell_end.data(), [&](std::uint32_t j) {
            if (b.type[j] == kFluid && squared_length_less(grid.frame.between(point, b.pos[j]),
                                                           kRadius * kRadius) < 0.0f) {
                js.push_back(j);
            }
            return false;
        });
    return js;
}

TEST(GhostLists, AWetWallListsTheFluidAroundItsNodeInTheCellWalksOrder) {
    const Scene s = water_over_a_floor();
    const CellGrid& grid = s.request.grid;
    const testing::BuiltLists b = built(s, true);
    int wet = 0;
    for (std::uint32_t i = 0; i < b.pos.size(); ++i) {
        const FixedPos p = b.pos[i];
        const GhostNode node = ghost_node(p, b.to_ghost[i], grid);
        if (b.type[i] == kFluid || node.cell == grid.outside_cell()) continue;
        const FixedPos g = grid.frame.moved(p, b.to_ghost[i]);
        EXPECT_EQ(node.at.x, g.x);  // the node the list is built around is the node mDBC fits at
        EXPECT_EQ(node.at.y, g.y);
        EXPECT_EQ(node.at.z, g.z);
        if (walked_fluid(b, grid, p).empty()) {
            EXPECT_TRUE(decode_around(b, grid, i, node.cell).empty()) << "dry wall " << i;
            continue;
        }
        ++wet;
        const std::vector<std::uint32_t> expected = walked_fluid(b, grid, g);
        ASSERT_FALSE(expected.empty());
        EXPECT_EQ(decode_around(b, grid, i, node.cell), expected) << "wall particle " << i;
    }
    EXPECT_EQ(wet, 64);
}

TEST(GhostLists, AWallKeepsItsOwnListUnderDbcOrWhereItsNodeIsOffTheGrid) {
    const Scene s = water_over_a_floor();
    const CellGrid& grid = s.request.grid;
    const testing::BuiltLists mdbc = built(s, true), dbc = built(s, false);
    int own_lists = 0;
    for (std::uint32_t i = 0; i < mdbc.pos.size(); ++i) {
        const bool node_on_grid =
            ghost_node(mdbc.pos[i], mdbc.to_ghost[i], grid).cell != grid.outside_cell();
        if (mdbc.type[i] != kFluid && node_on_grid) continue;
        ++own_lists;
        EXPECT_EQ(decode_around(mdbc, grid, i, mdbc.cell[i]),
                  decode_around(dbc, grid, i, dbc.cell[i]))
            << "particle " << i;
    }
    EXPECT_EQ(own_lists, 64 * 4 + 1);  // the water and the wall whose node is below the floor
}

}  // namespace
}  // namespace sph
