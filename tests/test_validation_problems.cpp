// The problems of the validation cases: ColumnCollapse (its lay-out, options and instruments),
// the walls Lobovsky sets free-slip, and the options of StillWater. Their runs are exercised by
// validation/test_cases.py.
#include <gtest/gtest.h>

#include <cmath>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "app/run_app.h"
#include "column_collapse.h"
#include "lobovsky.h"
#include "still_water.h"
#include "test_support.h"

namespace sph {
namespace {

std::optional<RunOptions> parse(Problem& problem, const std::vector<std::string>& args) {
    return testing::parse_options(problem, args);
}

// run_app's exit code and error text for `args`.
std::pair<int, std::string> run(Problem& problem, std::vector<std::string> args) {
    args.insert(args.begin(), "program");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = run_app(int(argv.size()), argv.data(), problem, 0, out, err);
    return {code, err.str()};
}

TEST(ColumnCollapse, FillsTheColumnAndNothingElse) {
    ColumnCollapse problem;
    ASSERT_TRUE(parse(problem, {"--column-width", "0.4", "--column-height", "0.8", "--tank-length",
                                "2", "--slab-width", "0.15", "--dp", "0.05"}));
    std::size_t fluid = 0, boundary = 0, free_slip = 0;
    problem.fill(0.05, [&](const SetupParticle& p) {
        if (p.type == kFluid) {
            ++fluid;
            EXPECT_TRUE(p.x > 0 && p.x < 0.4 && p.y > 0 && p.y < 0.15 && p.z > 0 && p.z < 0.8);
            EXPECT_DOUBLE_EQ(p.depth, 0.8 - p.z);
        } else {
            ++boundary;
            // Walls: outside the tank's interior, within 3 layers of it, up to 1.25 x 0.8 m.
            const bool inside = p.x > 0 && p.x < 2 && p.y > 0 && p.y < 0.15 && p.z > 0;
            EXPECT_FALSE(inside) << p.x << ", " << p.y << ", " << p.z;
            EXPECT_LT(p.z, 1.0);
            EXPECT_GT(p.x, -0.15);
            EXPECT_LT(p.x, 2.15);
            // Hydrostatic beside the column, dry beyond it.
            EXPECT_DOUBLE_EQ(p.depth, p.x < 0.4 ? std::max(0.0, 0.8 - p.z) : 0.0);
            // The side walls (beyond the slab in y) are free-slip; floor and end walls are not.
            const bool side_wall = p.y < 0 || p.y > 0.15;
            EXPECT_EQ(p.type, side_wall ? kFreeSlipBoundary : kBoundary)
                << p.x << ", " << p.y << ", " << p.z;
            free_slip += p.type == kFreeSlipBoundary;
        }
    });
    EXPECT_FALSE(problem.free_slip_back_wall());  // no-slip unless asked
    EXPECT_EQ(fluid, 8u * 16u * 3u);
    EXPECT_GT(free_slip, 0u);
    EXPECT_GT(boundary, free_slip);
    EXPECT_NO_THROW(problem.check_resolution(0.05));
}

TEST(ColumnCollapse, AFreeSlipBackWallIsFreeSlipAndTheOtherWallsAreNot) {
    ColumnCollapse problem;
    ASSERT_TRUE(parse(problem, {"--column-width", "0.4", "--column-height", "0.8", "--tank-length",
                                "2", "--slab-width", "0.15", "--back-wall", "free-slip"}));
    EXPECT_TRUE(problem.free_slip_back_wall());
    std::size_t back = 0;
    problem.fill(0.05, [&](const SetupParticle& p) {
        if (p.type == kFluid) return;
        const bool free_slip_wall = p.x < 0 || p.y < 0 || p.y > 0.15;  // back or side wall
        EXPECT_EQ(p.type, free_slip_wall ? kFreeSlipBoundary : kBoundary)
            << p.x << ", " << p.y << ", " << p.z;
        back += p.x < 0;
    });
    EXPECT_GT(back, 0u);

    ColumnCollapse bad;
    const auto [code, err] = run(bad, {"--back-wall", "slippery"});
    EXPECT_EQ(code, 2);
    EXPECT_NE(err.find("--back-wall"), std::string::npos) << err;
}

TEST(ColumnCollapse, InstrumentsReadTheColumnAndTheFront) {
    ColumnCollapse problem;
    ASSERT_TRUE(parse(problem, {"--slab-width", "0.2", "--height-gauge-x", "0.06"}));
    const Instruments in = problem.instruments();
    ASSERT_EQ(in.gauges.size(), 1u);
    EXPECT_EQ(in.gauges[0].name, "H");
    EXPECT_DOUBLE_EQ(in.gauges[0].x, 0.06);
    EXPECT_DOUBLE_EQ(in.gauges[0].y, 0.1);  // the middle of the slab
    ASSERT_TRUE(in.front.has_value());
    EXPECT_EQ(in.front->axis, 0);
    EXPECT_EQ(in.front->direction, +1);
    EXPECT_DOUBLE_EQ(in.front->band, 0.2 * problem.column_width());
    EXPECT_DOUBLE_EQ(problem.still_water_depth(), 2.0);  // the default column: c0 from its height
}

TEST(ColumnCollapse, RefusesBadGeometryNamingTheOption) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> bad = {
        {{"--column-width", "-1"}, "--column-width"},
        {{"--column-height", "0"}, "--column-height"},
        {{"--tank-length", "0.5"}, "--tank-length"},  // shorter than the 1 m column
        {{"--height-gauge-x", "1.5"}, "--height-gauge-x"},
        {{"--slab-width", "0.01", "--dp", "0.02"}, "--dp"},
        {{"--dp", "0.3"}, "--dp"},  // fewer than 4 particles across the 1 m column
    };
    for (const auto& [args, named] : bad) {
        ColumnCollapse problem;
        const auto [code, err] = run(problem, args);
        EXPECT_EQ(code, 2) << named;
        EXPECT_NE(err.find(named), std::string::npos) << err;
    }
}

// Lobovsky's walls are all no-slip unless --free-slip-walls names them; a particle in an edge or
// a corner is free-slip when any wall it belongs to is named.
TEST(Lobovsky, FreeSlipWallsAreTheOnesNamed) {
    const auto free_slip_of = [](const std::vector<std::string>& args) {
        Lobovsky problem;
        EXPECT_TRUE(parse(problem, args));
        std::vector<SetupParticle> walls;
        problem.fill(0.05, [&](const SetupParticle& p) {
            if (p.type != kFluid) walls.push_back(p);
        });
        return walls;
    };
    constexpr double kLength = Lobovsky::kTank[0], kWidth = Lobovsky::kTank[1];
    for (const SetupParticle& p : free_slip_of({})) EXPECT_EQ(p.type, kBoundary);
    std::size_t side = 0, floor_only = 0;
    for (const SetupParticle& p : free_slip_of({"--free-slip-walls", "sides,downstream"})) {
        const bool side_wall = p.y < 0.0 || p.y > kWidth;
        const bool named = side_wall || p.x > kLength;
        EXPECT_EQ(p.type, named ? kFreeSlipBoundary : kBoundary)
            << p.x << ", " << p.y << ", " << p.z;
        side += side_wall;
        floor_only += p.z < 0.0 && !named;
    }
    EXPECT_GT(side, 0u);
    EXPECT_GT(floor_only, 0u);  // the floor stays no-slip between the side walls
    for (const SetupParticle& p : free_slip_of({"--free-slip-walls", "floor"})) {
        EXPECT_EQ(p.type, p.z < 0.0 ? kFreeSlipBoundary : kBoundary)
            << p.x << ", " << p.y << ", " << p.z;
    }
    EXPECT_EQ(Lobovsky::parse_walls("floor,sides,upstream,downstream"),
              unsigned(Lobovsky::kFloor | Lobovsky::kSides | Lobovsky::kUpstream |
                       Lobovsky::kDownstream));
    for (const std::string bad : {"roof", "floor,", "floor,,sides", ""}) {
        Lobovsky problem;
        const auto [code, err] = run(problem, {"--free-slip-walls", bad, "--no-output"});
        EXPECT_EQ(code, 2) << bad;
        EXPECT_NE(err.find("--free-slip-walls"), std::string::npos) << err;
    }
}

TEST(StillWater, OptionsSetTheTank) {
    StillWater tank(1.0, 0.5, 0.5);
    ASSERT_TRUE(parse(tank, {"--length", "0.6", "--width", "0.3", "--depth", "0.2"}));
    EXPECT_DOUBLE_EQ(tank.length(), 0.6);
    EXPECT_DOUBLE_EQ(tank.width(), 0.3);
    EXPECT_DOUBLE_EQ(tank.depth(), 0.2);
    EXPECT_DOUBLE_EQ(tank.still_water_depth(), 0.2);
    std::size_t fluid = 0;
    tank.fill(0.05, [&](const SetupParticle& p) { fluid += p.type == kFluid; });
    EXPECT_EQ(fluid, 12u * 6u * 4u);

    StillWater bad(1.0, 0.5, 0.5);
    const auto [code, err] = run(bad, {"--depth", "-0.1"});
    EXPECT_EQ(code, 2);
    EXPECT_NE(err.find("--depth"), std::string::npos) << err;
}

}  // namespace
}  // namespace sph
