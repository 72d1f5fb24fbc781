// The mDBC boundary density on every back end (kernels/mdbc_body.h through the kernel chain):
// the first-order extrapolation reproduces a linear density field at wall, edge and corner
// particles; thin fluid falls back to the Shepard average; no fluid leaves rho0.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cell_grid.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "lattice.h"
#include "mdbc_body.h"
#include "particle_type.h"
#include "test_support.h"
#include "wendland.h"

namespace sph {
namespace {

using namespace sph::testing;

constexpr double kDp = 0.01;
constexpr int kWall = 3;  // wall layers

// Particles on the shared lattice: fluid in `fluid`, walls in the three layers around it on the
// sides given (the fluid's side of each wall is `fluid` itself, so ghost nodes mirror into it).
struct WallScene {
    std::vector<Vec4> pos;
    std::vector<Vec3> to_ghost;
    std::vector<std::uint8_t> type;  // by input index
    ListRequest request;
    SphParams params;
};

// Fluid fills the cube [0, side)^3; walls lie below it (z < 0) and, with `corner`, also at x < 0
// and y < 0, so that the scene has wall, edge and corner particles.
WallScene corner_scene(double side, bool corner) {
    WallScene s;
    s.params = params_for_dp(kDp);
    const double t = kWall * kDp;
    const Box fluid{{0, 0, 0}, {side, side, side}};
    const Box fluid_side{{corner ? 0.0 : -1e300, corner ? 0.0 : -1e300, 0.0},
                         {1e300, 1e300, 1e300}};
    const Box all{{-t, -t, -t}, {side, side, side}};
    for_each_lattice_point(all, kDp, [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kFluid, 0.0};
        if (!fluid.contains(x, y, z)) {
            const bool wall = z < 0.0 || (corner && (x < 0.0 || y < 0.0));
            if (!wall) return;
            p.type = kBoundary;
            ghost_outside(fluid_side, kDp, p);
        }
        s.pos.push_back(make_vec4(float(x), float(y), float(z), 0.0f));
        s.to_ghost.push_back(
            make_vec3(float(p.to_ghost[0]), float(p.to_ghost[1]), float(p.to_ghost[2])));
        s.type.push_back(p.type);
    });
    const double lo[3] = {-t - 0.05, -t - 0.05, -t - 0.05};
    const double hi[3] = {side + 0.05, side + 0.05, side + 0.05};
    s.request.grid = make_cell_grid(lo, hi, cell_side_for(s.params), 0, frame_for_domain(lo, hi));
    s.request.list_radius_sq = s.params.list_radius_sq;
    s.request.max_neighbours = 256;
    return s;
}

// Builds the lists of `s` on `backend` and gives every particle the density rho_of(position)
// (boundary particles start at `wall_start`); returns the densities after mDBC, by input index.
template <class Density>
std::vector<float> mdbc_on(BackendChoice backend, const WallScene& s, Density rho_of,
                           float wall_start, BuiltLists* lists_out = nullptr) {
    const BuiltLists b = build_lists(backend, s.pos, s.request, s.to_ghost, s.type);
    EXPECT_FALSE(b.outside);
    const std::size_t n = b.pos.size();
    SortedState state{std::vector<Vec4>(n), std::vector<std::uint8_t>(n)};
    for (std::size_t i = 0; i < n; ++i) {
        state.type[i] = s.type[b.id[i]];
        const Vec3 x = s.request.grid.frame.metres(b.pos[i]);
        const float rho =
            state.type[i] == kFluid ? rho_of(make_vec4(x.x, x.y, x.z, 0.0f)) : wall_start;
        state.velrho[i] = make_vec4(0.0f, 0.0f, 0.0f, rho);
    }
    const std::vector<Vec4> out = mdbc_densities(backend, b, state, s.request, s.params);
    std::vector<float> by_input(n);
    for (std::size_t i = 0; i < n; ++i) by_input[b.id[i]] = out[i].w;
    if (lists_out != nullptr) *lists_out = b;
    return by_input;
}

// A linear field that rises with depth, as hydrostatic density does, and varies along x and y.
float linear_density(const Vec4& p) {
    return float(1100.0 + 30.0 * p.x - 20.0 * p.y - 400.0 * p.z);
}

// The squared distance from particle i to the nearest fluid particle of `s`.
double nearest_fluid_sq(const WallScene& s, std::size_t i) {
    double nearest = 1e300;
    for (std::size_t j = 0; j < s.pos.size(); ++j) {
        if (s.type[j] == kFluid) {
            nearest = std::min(nearest, double(length_squared(xyz(s.pos[i]) - xyz(s.pos[j]))));
        }
    }
    return nearest;
}

std::string kind_of(const Vec4& p) {
    const int outside = (p.x < 0) + (p.y < 0) + (p.z < 0);
    return outside == 1 ? "wall" : outside == 2 ? "edge" : "corner";
}

class Mdbc : public EveryBackend {};

// The fit's 4x4 solve (unrolled on the GPU, its pivot row swapped by predicated exchanges):
// pivoting past a zero diagonal, the determinant's sign through the swaps, and a singular system
// reported as det 0 (the fit then falls back to the Shepard average).
TEST(MdbcSolve, PivotsPastZerosKeepsTheDeterminantsSignAndReportsASingularSystem) {
    double a[4][4] = {{0, 2, 1, 0}, {1, 0, 0, 3}, {4, 1, 0, 0}, {0, 0, 5, 1}};
    double b[4] = {-1.0, 2.5, 2.0, 15.5};  // a times (1, -2, 3, 0.5)
    double x[4] = {0, 0, 0, 0};
    EXPECT_NEAR(solve_4x4(a, b, x), -119.0, 1e-12);
    const double expected[4] = {1.0, -2.0, 3.0, 0.5};
    for (int k = 0; k < 4; ++k) EXPECT_NEAR(x[k], expected[k], 1e-12) << "x[" << k << "]";

    double singular[4][4] = {{1, 2, 0, 0}, {2, 4, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    double c[4] = {1, 2, 3, 4};
    EXPECT_EQ(solve_4x4(singular, c, x), 0.0);
}

// Set-up's ghost nodes (problems/lattice.h) for a block whose faces lie between lattice planes,
// as SPHERIC's obstacle's do at any dp (here 0.15 dp and 0.65 dp from the first layer's points
// along x, 0.65 dp on top; mirrored across those faces, the nodes would lie 0.3 and 1.3 dp from
// their particles): the wall's surface is the lattice's, dp/2 beyond its first
// layer, so every first-layer particle's ghost node lies dp across it, an edge's and a corner's
// dp along each face's normal, a second layer's 3 dp away; a tank's walls (ghost_outside) too,
// and its walls' top (ghost_below_top).
TEST(GhostNodes, LieAcrossTheLatticesSurfaceWhereAGeometrysFacesFallBetweenItsPlanes) {
    const Box block{{0.2035, 0.2, 0.0}, {0.3615, 0.3, 0.1615}};  // lattice faces 0.2, 0.36, 0.16
    const Faces wet{{true, true, true, true, false, true}};
    auto ghost_at = [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        ghost_inside(block, wet, kDp, kWall, p);
        return std::vector<double>{p.to_ghost[0] / kDp, p.to_ghost[1] / kDp, p.to_ghost[2] / kDp};
    };
    using G = std::vector<double>;
    auto expect_ghost = [&](const G& got, const G& want, const char* what) {
        for (int a = 0; a < 3; ++a) EXPECT_NEAR(got[a], want[a], 1e-9) << what << ", axis " << a;
    };
    expect_ghost(ghost_at(0.205, 0.255, 0.075), {-1, 0, 0}, "-x face");
    expect_ghost(ghost_at(0.355, 0.255, 0.075), {1, 0, 0}, "+x face");
    expect_ghost(ghost_at(0.255, 0.205, 0.075), {0, -1, 0}, "-y face");
    expect_ghost(ghost_at(0.255, 0.255, 0.155), {0, 0, 1}, "top");
    expect_ghost(ghost_at(0.355, 0.255, 0.155), {1, 0, 1}, "top +x edge");
    expect_ghost(ghost_at(0.205, 0.205, 0.155), {-1, -1, 1}, "top corner");
    expect_ghost(ghost_at(0.215, 0.255, 0.075), {-3, 0, 0}, "second layer");
    // A tank whose far wall lies between lattice planes (x = 0.3035): its first layer's ghost
    // nodes lie dp inside, its concave edge's diagonally.
    const Box tank_side{{0.0, 0.0, 0.0}, {0.3035, 0.3, 1e300}};
    auto outside_at = [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        ghost_outside(tank_side, kDp, p);
        return G{p.to_ghost[0] / kDp, p.to_ghost[1] / kDp, p.to_ghost[2] / kDp};
    };
    expect_ghost(outside_at(0.305, 0.155, 0.105), {-1, 0, 0}, "far wall");
    expect_ghost(outside_at(0.305, 0.155, -0.005), {-1, 0, 1}, "far wall's edge with the floor");
    // The walls' top (z = 0.2 m) is a surface too: the rim's top row mirrors up, its inner edge
    // through the edge, and a row below keeps facing the inside.
    auto rim_at = [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        ghost_outside(tank_side, kDp, p);
        ghost_below_top(0.2, kDp, p);
        return G{p.to_ghost[0] / kDp, p.to_ghost[1] / kDp, p.to_ghost[2] / kDp};
    };
    expect_ghost(rim_at(-0.005, 0.155, 0.195), {1, 0, 1}, "the rim's inner edge");
    expect_ghost(rim_at(-0.015, 0.155, 0.195), {0, 0, 1}, "the rim's top");
    expect_ghost(rim_at(-0.025, -0.025, 0.195), {0, 0, 1}, "the rim's top at a corner");
    expect_ghost(rim_at(-0.005, 0.155, 0.185), {1, 0, 0}, "below the rim");
}

TEST_P(Mdbc, ReproducesALinearDensityAtWallsEdgesAndCorners) {
    const WallScene s = corner_scene(16 * kDp, true);
    const std::vector<float> rho = mdbc_on(backend(), s, linear_density, 0.0f);
    int checked[3] = {0, 0, 0}, dry = 0;
    const double list_radius_sq = s.params.list_radius_sq;
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        if (s.type[i] == kFluid) continue;
        const Vec4& p = s.pos[i];
        // Walls beside the fluid cube, not beyond its far faces (where the ghost node would lie
        // outside the fluid).
        if (p.x >= 16 * kDp - 3 * kDp || p.y >= 16 * kDp - 3 * kDp) continue;
        // A wall with no fluid within the list radius is dry (rho0); near that radius rounding
        // decides, and such walls are left out.
        const double nearest = nearest_fluid_sq(s, i);
        if (std::fabs(nearest / list_radius_sq - 1.0) < 1e-5) continue;
        if (nearest >= list_radius_sq) {
            EXPECT_EQ(rho[i], s.params.rho0) << "dry wall particle at " << describe(p);
            ++dry;
            continue;
        }
        const std::string kind = kind_of(p);
        ++checked[kind == "wall" ? 0 : kind == "edge" ? 1 : 2];
        // Exact but for float rounding: within a few ulps of 1100 (one is 1.2e-4).
        EXPECT_NEAR(rho[i], linear_density(p), 1e-3)
            << kind << " particle at " << describe(p) << ", ghost offset (" << s.to_ghost[i].x
            << ", " << s.to_ghost[i].y << ", " << s.to_ghost[i].z << ")";
    }
    std::printf("%d wall, %d edge and %d corner particles checked, %d dry\n", checked[0],
                checked[1], checked[2], dry);
    EXPECT_GT(checked[0], 100);
    EXPECT_GT(checked[1], 20);
    EXPECT_GT(checked[2], 0);
    EXPECT_GT(dry, 100);
}

// One layer of fluid on a floor: the fitted gradient has nothing to go on across the layer (the
// 4x4 system is singular), so the wall takes the Shepard average of the fluid around its ghost.
TEST_P(Mdbc, ThinFluidFallsBackToTheShepardAverage) {
    WallScene s = corner_scene(16 * kDp, false);
    // Keep the floor and the lowest fluid layer only.
    WallScene thin = s;
    thin.pos.clear();
    thin.to_ghost.clear();
    thin.type.clear();
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        if (s.type[i] == kFluid && s.pos[i].z > 0.6 * kDp) continue;
        thin.pos.push_back(s.pos[i]);
        thin.to_ghost.push_back(s.to_ghost[i]);
        thin.type.push_back(s.type[i]);
    }
    auto field = [](const Vec4& p) { return float(1005.0 + 50.0 * p.x); };
    const std::vector<float> rho = mdbc_on(backend(), thin, field, 0.0f);
    const SphParams& params = thin.params;
    int checked = 0;
    for (std::size_t i = 0; i < thin.pos.size(); ++i) {
        if (thin.type[i] == kFluid) continue;
        const Vec4& b = thin.pos[i];
        if (b.x < 0.05 || b.x > 0.11 || b.y < 0.05 || b.y > 0.11) continue;  // away from the ends
        if (b.z < -2.0 * kDp) continue;  // the third layer is dry: no fluid within the list radius
        const Vec3 g = xyz(b) + thin.to_ghost[i];
        double mass_w = 0.0, volume_w = 0.0;
        for (std::size_t j = 0; j < thin.pos.size(); ++j) {
            if (thin.type[j] != kFluid) continue;
            const double r = std::sqrt(double(length_squared(g - xyz(thin.pos[j]))));
            const double w = wendland_w(float(r), params);
            mass_w += params.mass * w;
            volume_w += params.mass / field(thin.pos[j]) * w;
        }
        ASSERT_GT(volume_w, 0.0);
        const double shepard = std::max(mass_w / volume_w, double(params.rho0));
        EXPECT_NEAR(rho[i], shepard, 2e-3) << "wall particle at " << describe(b);
        // Not the linear extrapolation, which would differ by the field's slope times the offset.
        ++checked;
    }
    EXPECT_GT(checked, 50);
}

TEST_P(Mdbc, WallsWithNoFluidNearTheirGhostNodeTakeRho0) {
    WallScene s = corner_scene(16 * kDp, false);
    // Only fluid far above the floor: nothing within 2h of any ghost node.
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        if (s.type[i] == kFluid && s.pos[i].z < 0.1) s.type[i] = kFreeSlipBoundary;
    }
    // The former fluid now walls too: give them no ghost node offset so they read the floor only.
    const std::vector<float> rho = mdbc_on(backend(), s, linear_density, 1234.0f);
    int checked = 0;
    for (std::size_t i = 0; i < s.pos.size(); ++i) {
        if (s.type[i] == kFluid || s.pos[i].z > 0.0) continue;
        EXPECT_EQ(rho[i], s.params.rho0) << "floor particle at " << describe(s.pos[i]);
        ++checked;
    }
    EXPECT_GT(checked, 500);
}

SPH_ON_EVERY_BACKEND(Mdbc);

}  // namespace
}  // namespace sph
