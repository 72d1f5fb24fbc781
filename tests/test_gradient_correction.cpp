// The kernel gradient correction (kernels/gradient_correction.h): the matrix itself, and Forces
// with it on every back end, where it makes the pressure force of a linear pressure field exact
// on particles that are off any lattice.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cell_grid.h"
#include "gradient_correction.h"
#include "kernels/kernel_chain.h"
#include "kernels/kernel_test_support.h"
#include "particle_type.h"
#include "tait.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace sph::testing;

SymmetricMatrix3 diagonal(float x, float y, float z) {
    SymmetricMatrix3 m;
    m.xx = x;
    m.yy = y;
    m.zz = z;
    return m;
}

TEST(GradientCorrection, InvertsAWellConditionedMoment) {
    SymmetricMatrix3 m = diagonal(0.97f, 0.99f, 1.01f);
    m.xy = 0.02f;
    m.xz = -0.01f;
    m.yz = 0.015f;
    const SymmetricMatrix3 c = gradient_correction(m);
    const Vec3 axes[3] = {make_vec3(1, 0, 0), make_vec3(0, 1, 0), make_vec3(0, 0, 1)};
    for (int a = 0; a < 3; ++a) {  // c m = I, column by column
        const Vec3 column = c * (m * axes[a]);
        EXPECT_NEAR(column.x, axes[a].x, 1e-6f);
        EXPECT_NEAR(column.y, axes[a].y, 1e-6f);
        EXPECT_NEAR(column.z, axes[a].z, 1e-6f);
    }
}

TEST(GradientCorrection, FadesOutWhereTheKernelIsTruncated) {
    // A free-surface particle: half its kernel missing along z.
    const SymmetricMatrix3 none = gradient_correction(diagonal(0.98f, 0.98f, 0.5f));
    EXPECT_EQ(none.xx, 1.0f);
    EXPECT_EQ(none.zz, 1.0f);
    EXPECT_EQ(none.xy, 0.0f);
    // Halfway between kGradientCorrectionNoDet and kGradientCorrectionFullDet: half of m^-1.
    const float det = 0.5f * (kGradientCorrectionNoDet + kGradientCorrectionFullDet);
    const float zz = det / (0.98f * 0.98f);
    const SymmetricMatrix3 half = gradient_correction(diagonal(0.98f, 0.98f, zz));
    EXPECT_NEAR(half.zz, 0.5f / zz + 0.5f, 1e-5f);
    EXPECT_NEAR(half.xx, 0.5f / 0.98f + 0.5f, 1e-5f);
    // A degenerate or broken moment leaves the forces as they are.
    EXPECT_EQ(gradient_correction(diagonal(0.0f, 0.0f, 0.0f)).xx, 1.0f);
    EXPECT_EQ(gradient_correction(diagonal(NAN, 1.0f, 1.0f)).yy, 1.0f);
}

// Fluid at rest on a lattice of spacing dp jittered by up to `jitter` dp on each axis, with the
// pressure G.(x - x_c) (x_c the block's centre particle, whose own pressure is then zero: the
// (p_i + p_j) form's zeroth-order term drops out) through a Tait law with gamma 1. Returns the
// centre particle's acceleration less gravity, and sets `rho_c` to its density.
Vec3 centre_acceleration(BackendChoice backend, bool corrected, Vec3 gradient, float jitter,
                         float& rho_c) {
    const double dp = 0.02;
    SphParams params = params_for_dp(dp);
    params.gamma = 1.0f;
    params.tait_b = params.c0 * params.c0 * params.rho0;
    params.viscosity_alpha = 0.0f;
    params.gradient_correction = corrected;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> offset(-jitter, jitter);
    std::vector<Vec4> pos_in;
    constexpr int kHalf = 5;  // beyond 2h = 2.6 dp on every side of the centre
    for (int i = -kHalf; i <= kHalf; ++i) {
        for (int j = -kHalf; j <= kHalf; ++j) {
            for (int k = -kHalf; k <= kHalf; ++k) {
                const bool centre = i == 0 && j == 0 && k == 0;
                const float dx = centre ? 0.0f : offset(random),
                            dy = centre ? 0.0f : offset(random),
                            dz = centre ? 0.0f : offset(random);
                pos_in.push_back(make_vec4(float((i + dx) * dp), float((j + dy) * dp),
                                           float((k + dz) * dp), 0.0f));
            }
        }
    }
    const std::uint32_t n = std::uint32_t(pos_in.size());
    const std::uint32_t centre_input = n / 2;  // (0, 0, 0)
    const double lo[3] = {-0.2, -0.2, -0.2}, hi[3] = {0.2, 0.2, 0.2};
    ListRequest request;
    request.grid = make_cell_grid(lo, hi, cell_side_for(params), 0, frame_for_domain(lo, hi));
    request.list_radius_sq = params.list_radius_sq;
    request.max_neighbours = 256;
    const std::vector<std::uint8_t> types(n, std::uint8_t(kFluid));
    const BuiltLists b = build_lists(backend, pos_in, request, {}, types);
    EXPECT_FALSE(b.outside);

    SortedState input{std::vector<Vec4>(n), std::vector<std::uint8_t>(n, kFluid)};
    std::uint32_t centre = n;
    for (std::uint32_t s = 0; s < n; ++s) {
        const Vec4 x = pos_in[b.id[s]];
        const float p = dot(gradient, xyz(x));
        input.velrho[s] = make_vec4(
            0.0f, 0.0f, 0.0f, float(tait_density(p, params.rho0, params.tait_b, params.gamma)));
        if (b.id[s] == centre_input) centre = s;
    }
    rho_c = input.velrho[centre].w;
    const std::vector<Vec4> force = forces(backend, b, input, request, params);
    return xyz(force[centre]) - params.gravity;
}

class GradientCorrectionForces : public EveryBackend {};

TEST_P(GradientCorrectionForces, MakeALinearPressureFieldsForceExactOffTheLattice) {
    // Steep enough for the densities' float rounding to be far below the test's 1e-4.
    const Vec3 gradient = make_vec3(3e5f, -2e5f, 9.81e5f);  // [Pa/m]
    for (const float jitter : {0.0f, 0.15f}) {
        float rho = 0.0f;
        const Vec3 plain = centre_acceleration(backend(), false, gradient, jitter, rho);
        const Vec3 corrected = centre_acceleration(backend(), true, gradient, jitter, rho);
        const Vec3 exact = (-1.0f / rho) * gradient;
        const float size = std::sqrt(length_squared(exact));
        const Vec3 plain_error = plain - exact, corrected_error = corrected - exact;
        // The kernel's first moment is 0.979 on the lattice, and off it anything near that.
        EXPECT_GT(std::sqrt(length_squared(plain_error)), 0.01f * size) << "jitter " << jitter;
        EXPECT_LT(std::sqrt(length_squared(corrected_error)), 1e-4f * size)
            << "jitter " << jitter << ": (" << corrected.x << ", " << corrected.y << ", "
            << corrected.z << ") against (" << exact.x << ", " << exact.y << ", " << exact.z << ")";
    }
}

SPH_ON_EVERY_BACKEND(GradientCorrectionForces);

}  // namespace
}  // namespace sph
