// BoreInABox: the lay-out of both variants (counts, volume, spacing, a watertight block, an open
// corridor), its --variant option, and a short run of each variant.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <deque>
#include <set>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>

#include "app/command_line.h"
#include "app/run_app.h"
#include "bore_in_a_box.h"
#include "test_support.h"

namespace sph {
namespace {

using Variant = BoreInABox::Variant;
constexpr Variant kVariants[] = {Variant::kWall, Variant::kCorridor};
constexpr double kCoarse = 0.03;                  // [m]: 16 000 fluid particles
constexpr double kWaterVolume = 1.2 * 0.6 * 0.6;  // [m^3]

std::vector<SetupParticle> lay_out(const BoreInABox& problem, double dp) {
    std::vector<SetupParticle> particles;
    problem.fill(dp, [&](const SetupParticle& p) { particles.push_back(p); });
    return particles;
}

std::size_t count_type(const std::vector<SetupParticle>& particles, ParticleType type) {
    std::size_t n = 0;
    for (const SetupParticle& p : particles) n += p.type == type;
    return n;
}

bool inside(const Box& b, const SetupParticle& p) {
    return b.contains(p.x, p.y, p.z);
}

struct Outcome {
    int code;
    std::string out, err;
    Variant variant;  // the problem's after parsing
};

Outcome run(const std::vector<std::string>& args) {
    BoreInABox problem;
    const testing::AppResult r = testing::run_program(problem, args, 1);
    return {r.code, r.out, r.err, problem.variant()};
}

TEST(BoreInABox, DefaultSpacingGivesThePapersParticleCount) {
    // The paper: 0.43 m^3 of water in 1.6 million particles. Counted, not stored.
    for (Variant v : kVariants) {
        const BoreInABox problem(v);
        const double dp = problem.default_dp();
        const Box obstacle = problem.obstacle(dp);
        std::size_t fluid = 0, boundary = 0, in_obstacle = 0;
        problem.fill(dp, [&](const SetupParticle& p) {
            ++(p.type == kFluid ? fluid : boundary);
            in_obstacle += p.type == kBoundary && inside(obstacle, p);
        });
        std::printf("%s at dp %.4f m: %zu fluid, %zu boundary particles (%zu in the %s)\n",
                    to_string(v).c_str(), dp, fluid, boundary, in_obstacle,
                    v == Variant::kWall ? "wall" : "block");
        EXPECT_GE(fluid, 1500000u) << to_string(v);
        EXPECT_LE(fluid, 1700000u) << to_string(v);
        // The block is a shell: a solid one would hold 1.17 million particles.
        EXPECT_LT(in_obstacle, 200000u) << to_string(v);
        EXPECT_NO_THROW(problem.check_resolution(problem.default_dp()));
    }
}

TEST(BoreInABox, FluidFillsTheColumnsVolume) {
    for (Variant v : kVariants) {
        for (double dp : {0.02, 0.0137}) {
            const BoreInABox problem(v);
            const std::vector<SetupParticle> particles = lay_out(problem, dp);
            const double volume = double(count_type(particles, kFluid)) * dp * dp * dp;
            EXPECT_NEAR(volume, kWaterVolume, 0.03 * kWaterVolume) << to_string(v) << " dp " << dp;
            // At rest and hydrostatic: depth below the 0.6 m surface.
            for (const SetupParticle& p : particles) {
                if (p.type == kFluid) {
                    ASSERT_DOUBLE_EQ(p.depth, 0.6 - p.z);
                }
            }
        }
    }
}

TEST(BoreInABox, NoTwoParticlesCloserThanHalfASpacing) {
    for (Variant v : kVariants) {
        for (double dp : {kCoarse, 0.0137}) {
            const std::vector<SetupParticle> particles = lay_out(BoreInABox(v), dp);
            // Cells one spacing wide: a pair closer than dp / 2 lies in neighbouring cells.
            auto cell_of = [&](const SetupParticle& p) {
                return std::array<long, 3>{long(std::floor(p.x / dp)), long(std::floor(p.y / dp)),
                                           long(std::floor(p.z / dp))};
            };
            auto key = [](const std::array<long, 3>& c) {
                return (std::uint64_t(c[0] + 1000) << 40) | (std::uint64_t(c[1] + 1000) << 20) |
                       std::uint64_t(c[2] + 1000);
            };
            std::unordered_map<std::uint64_t, std::vector<std::size_t>> cells;
            for (std::size_t i = 0; i < particles.size(); ++i) {
                cells[key(cell_of(particles[i]))].push_back(i);
            }
            std::size_t close = 0;
            for (std::size_t i = 0; i < particles.size(); ++i) {
                const SetupParticle& a = particles[i];
                const std::array<long, 3> c = cell_of(a);
                for (long dx = -1; dx <= 1; ++dx) {
                    for (long dy = -1; dy <= 1; ++dy) {
                        for (long dz = -1; dz <= 1; ++dz) {
                            const auto it = cells.find(key({c[0] + dx, c[1] + dy, c[2] + dz}));
                            if (it == cells.end()) continue;
                            for (std::size_t j : it->second) {
                                if (j <= i) continue;
                                const SetupParticle& b = particles[j];
                                const double d = std::hypot(a.x - b.x, a.y - b.y, a.z - b.z);
                                close += d < 0.5 * dp;
                            }
                        }
                    }
                }
            }
            EXPECT_EQ(close, 0u) << to_string(v) << " dp " << dp;
        }
    }
}

TEST(BoreInABox, NoFluidInsideTheWallOrBlock) {
    for (Variant v : kVariants) {
        for (double dp : {kCoarse, 0.0137}) {
            const BoreInABox problem(v);
            const Box obstacle = problem.obstacle(dp);
            // The nominal geometry, whatever the rounding to the lattice.
            const Box nominal = v == Variant::kWall ? Box{{0, 0.89, 0}, {1.2, 0.91, 0.15}}
                                                    : Box{{0.3, 0.6, 0}, {1.2, 1.2, 0.6}};
            for (const SetupParticle& p : lay_out(problem, dp)) {
                if (p.type != kFluid) continue;
                ASSERT_FALSE(inside(obstacle, p) || inside(nominal, p))
                    << to_string(v) << " dp " << dp << ": fluid at " << p.x << ", " << p.y << ", "
                    << p.z;
            }
        }
    }
}

TEST(BoreInABox, WallSpansTheBoxAndIsAtLeastTwoParticlesThick) {
    for (double dp : {BoreInABox().default_dp(), kCoarse}) {
        const BoreInABox problem(Variant::kWall);
        const Box wall = problem.obstacle(dp);
        std::set<long> rows, columns;
        for (const SetupParticle& p : lay_out(problem, dp)) {
            if (p.type != kBoundary || !inside(wall, p)) continue;
            rows.insert(std::lround(p.y / dp - 0.5));
            columns.insert(std::lround(p.x / dp - 0.5));
        }
        EXPECT_GE(rows.size(), 2u) << "dp " << dp;
        EXPECT_EQ(columns.size(), std::size_t(std::ceil(1.2 / dp - 0.5))) << "dp " << dp;
        // Its faces stay within half a spacing of the nominal 0.02 m where that holds two rows.
        if (dp <= 0.01) {
            EXPECT_NEAR(wall.lo[1], 0.89, 0.5 * dp);
            EXPECT_NEAR(wall.hi[1], 0.91, 0.5 * dp);
        }
    }
}

TEST(BoreInABox, CorridorIsFreeOfBoundaryParticles) {
    const double dp = kCoarse;
    const Box corridor{{dp, 0.6, dp}, {0.3 - dp, 1.2, 0.6}};
    for (const SetupParticle& p : lay_out(BoreInABox(Variant::kCorridor), dp)) {
        ASSERT_FALSE(p.type == kBoundary && inside(corridor, p))
            << "boundary particle in the corridor at " << p.x << ", " << p.y << ", " << p.z;
    }
}

// Flood fill from the water over the free lattice points of the box, up to 0.3 m above its
// walls (26-connected: a particle cannot slip between lattice points held by boundary particles).
// The water must reach the far end of the box and never the inside of the wall or block.
TEST(BoreInABox, WaterReachesTheFarEndButNeverTheInsideOfTheBlock) {
    const double dp = kCoarse;
    const long n[3] = {long(std::ceil(1.2 / dp - 0.5)), long(std::ceil(1.8 / dp - 0.5)),
                       long(std::ceil(0.9 / dp - 0.5))};
    auto index = [&](long i, long j, long k) { return (k * n[1] + j) * n[0] + i; };
    for (Variant v : kVariants) {
        const BoreInABox problem(v);
        std::vector<char> state(std::size_t(n[0] * n[1] * n[2]), 0);  // 1 held, 2 reached
        std::deque<std::array<long, 3>> queue;
        for (const SetupParticle& p : lay_out(problem, dp)) {
            const long c[3] = {std::lround(p.x / dp - 0.5), std::lround(p.y / dp - 0.5),
                               std::lround(p.z / dp - 0.5)};
            if (c[0] < 0 || c[1] < 0 || c[2] < 0 || c[0] >= n[0] || c[1] >= n[1] || c[2] >= n[2]) {
                continue;
            }
            if (p.type == kBoundary) {
                state[index(c[0], c[1], c[2])] = 1;
            } else {
                queue.push_back({c[0], c[1], c[2]});
            }
        }
        for (const auto& c : queue) state[index(c[0], c[1], c[2])] = 2;
        while (!queue.empty()) {
            const std::array<long, 3> c = queue.front();
            queue.pop_front();
            for (long dk = -1; dk <= 1; ++dk) {
                for (long dj = -1; dj <= 1; ++dj) {
                    for (long di = -1; di <= 1; ++di) {
                        const long i = c[0] + di, j = c[1] + dj, k = c[2] + dk;
                        if (i < 0 || j < 0 || k < 0 || i >= n[0] || j >= n[1] || k >= n[2]) {
                            continue;
                        }
                        char& s = state[index(i, j, k)];
                        if (s != 0) continue;
                        s = 2;
                        queue.push_back({i, j, k});
                    }
                }
            }
        }
        const Box obstacle = problem.obstacle(dp);
        bool far_end = false;
        for (long k = 0; k < n[2]; ++k) {
            for (long j = 0; j < n[1]; ++j) {
                for (long i = 0; i < n[0]; ++i) {
                    if (state[index(i, j, k)] != 2) continue;
                    const double x = (i + 0.5) * dp, y = (j + 0.5) * dp, z = (k + 0.5) * dp;
                    ASSERT_FALSE(obstacle.contains(x, y, z))
                        << to_string(v) << ": water reaches " << x << ", " << y << ", " << z;
                    far_end = far_end || (y > 1.7 && z < 0.1);
                }
            }
        }
        EXPECT_TRUE(far_end) << to_string(v);
    }
}

TEST(BoreInABox, VariantOptionIsParsed) {
    const Outcome help = run({"--help"});
    EXPECT_EQ(help.code, 0);
    EXPECT_NE(help.out.find("--variant"), std::string::npos);
    EXPECT_NE(help.out.find("corridor"), std::string::npos);

    const Outcome bogus = run({"--variant", "bogus", "--backend", "cpu", "--no-output"});
    EXPECT_EQ(bogus.code, 2);
    EXPECT_NE(bogus.err.find("--variant"), std::string::npos) << bogus.err;
    EXPECT_NE(bogus.err.find("bogus"), std::string::npos) << bogus.err;

    // Through the parser alone: the variant is set before the resolution is checked.
    for (const char* name : {"wall", "corridor"}) {
        BoreInABox problem(name == std::string("wall") ? Variant::kCorridor : Variant::kWall);
        const char* argv[] = {"bore_in_a_box", "--variant", name};
        std::ostringstream help_out;
        ASSERT_TRUE(parse_command_line(3, argv, problem, help_out).has_value());
        EXPECT_EQ(to_string(problem.variant()), name);
    }
    {
        // The executable's problem: without --variant, the paper's main case. (A problem built
        // with a variant keeps it as the option's default.)
        BoreInABox problem;
        const char* argv[] = {"bore_in_a_box"};
        std::ostringstream help_out;
        ASSERT_TRUE(parse_command_line(1, argv, problem, help_out).has_value());
        EXPECT_EQ(problem.variant(), Variant::kCorridor);
    }
}

TEST(BoreInABox, TooCoarseSpacingIsRefusedNamingDp) {
    // The wall needs four particles up its 0.15 m, the corridor four across its 0.3 m.
    EXPECT_THROW(BoreInABox(Variant::kWall).check_resolution(0.05), std::invalid_argument);
    EXPECT_NO_THROW(BoreInABox(Variant::kCorridor).check_resolution(0.05));
    EXPECT_THROW(BoreInABox(Variant::kCorridor).check_resolution(0.08), std::invalid_argument);

    const Outcome wall = run({"--variant", "wall", "--dp", "0.05", "--backend", "cpu"});
    EXPECT_EQ(wall.code, 2);
    EXPECT_NE(wall.err.find("--dp"), std::string::npos) << wall.err;
}

TEST(BoreInABox, ShortRunOfEachVariantCompletes) {
    for (const char* name : {"wall", "corridor"}) {
        testing::TempDir dir(std::string("bore_") + name);
        // About 30 iterations (dt ~ 2.7e-4 s) of some 22 000 particles.
        const Outcome o = run({"--variant", name, "--backend", "cpu", "--dp", "0.035", "--t-end",
                               "0.008", "--no-output", "--output-dir", dir.path()});
        ASSERT_EQ(o.code, 0) << name << ": " << o.err;
        EXPECT_NE(o.out.find("completed"), std::string::npos) << o.out;
        EXPECT_EQ(to_string(o.variant), name);
    }
}

}  // namespace
}  // namespace sph
