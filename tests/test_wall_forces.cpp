// Forces near a wall, on every back end: the Forces launcher on lists the chain built
// (tests/kernels/kernel_chain.h).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "cell_grid.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "particle_type.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace sph::testing;

// The acceleration of one fluid particle sliding along x at 1 m/s, 0.5 dp over the first layer
// of a three-layer wall of `wall_type` particles (at rest), all at density rho0.
Vec3 sliding_particle_acceleration(BackendChoice backend, ParticleType wall_type) {
    const double dp = 0.02;
    const SphParams params = params_for_dp(dp);
    std::vector<Vec4> pos_in;
    for (int i = -6; i <= 6; ++i) {
        for (int j = -6; j <= 6; ++j) {
            for (int k = 1; k <= 3; ++k) {
                pos_in.push_back(make_vec4(float(i * dp), float(j * dp), float(-k * dp), 0.0f));
            }
        }
    }
    pos_in.push_back(make_vec4(0.0f, 0.0f, 0.0f, 0.0f));  // the fluid particle, last
    const std::uint32_t n = std::uint32_t(pos_in.size());
    const double lo[3] = {-0.2, -0.2, -0.1}, hi[3] = {0.2, 0.2, 0.1};
    ListRequest request;
    request.grid = make_cell_grid(lo, hi, cell_side_for(params), 0, frame_for_domain(lo, hi));
    request.list_radius_sq = params.list_radius_sq;
    request.max_neighbours = 256;
    std::vector<std::uint8_t> types(n, std::uint8_t(wall_type));
    types[n - 1] = kFluid;
    const BuiltLists b = build_lists(backend, pos_in, request, {}, types);
    EXPECT_FALSE(b.outside);

    SortedState input{std::vector<Vec4>(n), std::vector<std::uint8_t>(n)};
    std::uint32_t fluid = n;
    for (std::uint32_t i = 0; i < n; ++i) {
        const bool is_fluid = b.id[i] == n - 1;
        if (is_fluid) fluid = i;
        input.velrho[i] = make_vec4(is_fluid ? 1.0f : 0.0f, 0.0f, 0.0f, params.rho0);
        input.type[i] = std::uint8_t(is_fluid ? kFluid : wall_type);
    }
    const std::vector<Vec4> force = forces(backend, b, input, request, params);
    return xyz(force[fluid]);
}

class WallForces : public EveryBackend {};

TEST_P(WallForces, FreeSlipWallsExertNoViscousDrag) {
    const Vec3 no_slip = sliding_particle_acceleration(backend(), kBoundary);
    const Vec3 free_slip = sliding_particle_acceleration(backend(), kFreeSlipBoundary);
    // A dynamic wall drags the particle back through artificial viscosity...
    EXPECT_LT(no_slip.x, -1.0f) << "no-slip x acceleration " << no_slip.x << " m/s^2";
    // ...a free-slip one does not (at rho0 there is no pressure either: gravity is all).
    EXPECT_NEAR(free_slip.x, 0.0f, 1e-3f * std::fabs(no_slip.x));
    EXPECT_FLOAT_EQ(free_slip.z, params_for_dp(0.02).gravity.z);
}

SPH_ON_EVERY_BACKEND(WallForces);

}  // namespace
}  // namespace sph
