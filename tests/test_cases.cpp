// Case files (src/cases/, docs/cases.md): every compiled problem's case file lays out the same
// particles, bit for bit and in the same order, with the same domain, reach, depth and
// instruments; bad case files are refused naming the file and the line.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/command_line.h"
#include "bore_in_a_box.h"
#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "column_collapse.h"
#include "common/errors.h"
#include "dam_break.h"
#include "driver/geometry_change.h"
#include "driver/run_setup.h"
#include "geometry/terrain.h"
#include "lobovsky.h"
#include "still_water.h"

namespace sph {
namespace {

std::vector<SetupParticle> laid_out(const Problem& problem, double dp) {
    std::vector<SetupParticle> out;
    problem.fill(dp, [&](const SetupParticle& p) { out.push_back(p); });
    return out;
}

// How many particles differ in any bit of position, type, depth or ghost offset; the sequences
// must also be as long.
std::size_t differences(const std::vector<SetupParticle>& a, const std::vector<SetupParticle>& b) {
    EXPECT_EQ(a.size(), b.size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
        const SetupParticle &p = a[i], &q = b[i];
        const bool same = p.x == q.x && p.y == q.y && p.z == q.z && p.type == q.type &&
                          p.depth == q.depth && p.to_ghost[0] == q.to_ghost[0] &&
                          p.to_ghost[1] == q.to_ghost[1] && p.to_ghost[2] == q.to_ghost[2];
        differ += !same;
    }
    return differ;
}

void expect_same_box(const Box& a, const Box& b) {
    for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(a.lo[k], b.lo[k]);
        EXPECT_EQ(a.hi[k], b.hi[k]);
    }
}

void expect_same_instruments(const Instruments& a, const Instruments& b) {
    ASSERT_EQ(a.gauges.size(), b.gauges.size());
    for (std::size_t i = 0; i < a.gauges.size(); ++i) {
        EXPECT_EQ(a.gauges[i].name, b.gauges[i].name);
        EXPECT_EQ(a.gauges[i].x, b.gauges[i].x);
        EXPECT_EQ(a.gauges[i].y, b.gauges[i].y);
    }
    ASSERT_EQ(a.probes.size(), b.probes.size());
    for (std::size_t i = 0; i < a.probes.size(); ++i) {
        EXPECT_EQ(a.probes[i].name, b.probes[i].name);
        EXPECT_EQ(a.probes[i].x, b.probes[i].x);
        EXPECT_EQ(a.probes[i].z, b.probes[i].z);
    }
    ASSERT_EQ(a.walls.size(), b.walls.size());
    for (std::size_t i = 0; i < a.walls.size(); ++i) {
        const WallSensor &w = a.walls[i], &v = b.walls[i];
        EXPECT_EQ(w.name, v.name);
        EXPECT_TRUE(w.x == v.x && w.y == v.y && w.z == v.z && w.axis == v.axis &&
                    w.direction == v.direction && w.diameter == v.diameter &&
                    w.side_u == v.side_u && w.side_v == v.side_v && w.arm_axis == v.arm_axis &&
                    w.arm_direction == v.arm_direction)
            << w.name;
    }
    ASSERT_EQ(a.front.has_value(), b.front.has_value());
    if (a.front) {
        EXPECT_EQ(a.front->axis, b.front->axis);
        EXPECT_EQ(a.front->direction, b.front->direction);
        EXPECT_EQ(a.front->band, b.front->band);
    }
}

void expect_same_problem(const Problem& compiled, const std::string& file,
                         std::initializer_list<double> dps) {
    const CaseProblem from_file(read_case_file(std::string(SPH_CASES_DIR) + "/" + file));
    EXPECT_EQ(from_file.name(), compiled.name());
    EXPECT_EQ(from_file.default_dp(), compiled.default_dp());
    EXPECT_EQ(from_file.default_t_end(), compiled.default_t_end());
    EXPECT_EQ(from_file.still_water_depth(), compiled.still_water_depth());
    expect_same_instruments(from_file.instruments(), compiled.instruments());
    for (const double dp : dps) {
        SCOPED_TRACE(file + " at dp " + std::to_string(dp));
        expect_same_box(from_file.domain(dp), compiled.domain(dp));
        expect_same_box(from_file.fluid_reach(dp), compiled.fluid_reach(dp));
        const std::vector<SetupParticle> a = laid_out(compiled, dp), b = laid_out(from_file, dp);
        EXPECT_GT(a.size(), 1000u);
        EXPECT_EQ(differences(a, b), 0u);
    }
}

TEST(CaseFiles, DamBreakLaysOutTheCompiledParticlesBitForBit) {
    const DamBreak compiled;
    // 0.0185 puts the obstacle's faces between lattice planes, where its ghost nodes are snapped.
    expect_same_problem(compiled, "dam_break.yaml", {0.04, 0.0185});
    const CaseProblem from_file(read_case_file(std::string(SPH_CASES_DIR) + "/dam_break.yaml"));
    ASSERT_EQ(from_file.regions(0.02).size(), 1u);
    expect_same_box(from_file.regions(0.02)[0].box, compiled.regions(0.02)[0].box);
}

// SPHERIC's obstacle as an STL mesh lays out the box's particles: the same positions, types and
// densities, the ghost offsets as the devices keep them (float; the mesh's corners are floats).
TEST(CaseFiles, DamBreakWithItsObstacleAsAMeshLaysOutTheBoxsParticles) {
    const CaseProblem box(read_case_file(std::string(SPH_CASES_DIR) + "/dam_break.yaml"));
    const CaseProblem mesh(read_case_file(std::string(SPH_CASES_DIR) + "/dam_break_mesh.yaml"));
    for (const double dp : {0.02, 0.0185}) {
        const std::vector<SetupParticle> a = laid_out(box, dp), b = laid_out(mesh, dp);
        ASSERT_EQ(a.size(), b.size());
        std::size_t differ = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            bool same = a[i].x == b[i].x && a[i].y == b[i].y && a[i].z == b[i].z &&
                        a[i].type == b[i].type && a[i].depth == b[i].depth;
            for (int k = 0; k < 3; ++k) {
                same = same && float(a[i].to_ghost[k]) == float(b[i].to_ghost[k]);
            }
            differ += !same;
        }
        EXPECT_EQ(differ, 0u) << "at dp " << dp;
    }
}

// A mesh solid with a name is a region a what-if branch removes, as a box is.
TEST(CaseFiles, AMeshSolidIsARegionABranchRemovesByName) {
    const CaseProblem box(read_case_file(std::string(SPH_CASES_DIR) + "/dam_break.yaml"));
    const CaseProblem mesh(read_case_file(std::string(SPH_CASES_DIR) + "/dam_break_mesh.yaml"));
    ASSERT_EQ(mesh.regions(0.04).size(), 1u);
    EXPECT_NE(mesh.regions(0.04)[0].shape, nullptr);
    RunOptions o;
    o.dp = 0.04;
    const std::vector<GeometryChange> remove{GeometryChange::removing("obstacle")};
    std::size_t removed[2], left[2];
    const CaseProblem* problems[2] = {&box, &mesh};
    for (int k = 0; k < 2; ++k) {
        HostParticles particles =
            make_particles(*problems[k], o, make_sph_params(o, problems[k]->still_water_depth()));
        removed[k] = apply_geometry_changes(remove, *problems[k], o, particles).walls_removed;
        left[k] = particles.size();
    }
    EXPECT_GT(removed[0], 100u);
    EXPECT_EQ(removed[1], removed[0]);
    EXPECT_EQ(left[1], left[0]);
}

TEST(CaseFiles, StillWaterLaysOutTheCompiledParticlesBitForBit) {
    expect_same_problem(StillWater(1.0, 0.5, 0.5), "still_water.yaml", {0.025, 0.04});
}

TEST(CaseFiles, LobovskyLaysOutTheCompiledParticlesBitForBit) {
    expect_same_problem(Lobovsky(), "lobovsky.yaml", {0.01, 0.0075});
}

TEST(CaseFiles, BoreInABoxLaysOutTheCompiledParticlesBitForBit) {
    expect_same_problem(BoreInABox(BoreInABox::Variant::kCorridor), "bore_in_a_box_corridor.yaml",
                        {0.05, 0.0325});
    // Where the 2 cm wall is two rows thick or more (coarser, the compiled one thickens it).
    expect_same_problem(BoreInABox(BoreInABox::Variant::kWall), "bore_in_a_box_wall.yaml",
                        {0.0125, 0.01});
}

TEST(CaseFiles, ColumnCollapseLaysOutTheCompiledParticlesBitForBit) {
    expect_same_problem(ColumnCollapse(), "column_collapse.yaml", {0.1, 0.05});
}

// The message of the OptionError `text` is refused with, as a case file at "bad.yaml".
std::string refusal(const std::string& text) {
    try {
        const CaseDescription c = parse_case_text(text, "bad.yaml");
        CaseProblem problem(c);
        problem.check_resolution(problem.default_dp());
        (void)laid_out(problem, problem.default_dp());
    } catch (const OptionError& e) {
        return e.what();
    }
    return "(accepted)";
}

const char* const kSmallCase = R"(domain:
  inside: {lo: [0, 0, 0], hi: [1, 1, 1]}
  margin: 0.1
tanks:
  - inside: {lo: [0, 0, 0], hi: [1, 1, 0.5]}
    top: 0.5
water:
  - box: {lo: [0, 0, 0], hi: [0.5, 1, 0.25]}
settings:
  dp: 0.1
)";

TEST(CaseFiles, ASmallCaseIsAccepted) {
    EXPECT_EQ(refusal(kSmallCase), "(accepted)");
}

TEST(CaseFiles, BadCasesAreRefusedNamingTheFileAndLine) {
    const std::string good = kSmallCase;
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string text = good;
        const std::size_t at = text.find(from);
        EXPECT_NE(at, std::string::npos) << from;
        return text.replace(at, from.size(), to);
    };
    EXPECT_EQ(
        refusal(with("margin: 0.1", "margni: 0.1")).rfind("bad.yaml:3: unknown key 'margni'", 0),
        0u)
        << refusal(with("margin: 0.1", "margni: 0.1"));
    EXPECT_NE(
        refusal(with("top: 0.5", "top: high")).find("bad.yaml:6: a tank's top must be a length"),
        std::string::npos);
    EXPECT_NE(refusal(with("top: 0.5", "top: 5 ft")).find("bad.yaml:6"), std::string::npos);
    EXPECT_NE(refusal(with("top: 0.5", "top: 5 ft")).find("'ft' is not a unit of length"),
              std::string::npos);
    EXPECT_EQ(refusal(with("top: 0.5", "top: 500 mm")), "(accepted)");
    EXPECT_NE(refusal(with("  dp: 0.1\n", "  t-end: 1\n")).find("settings need dp"),
              std::string::npos);
    EXPECT_NE(refusal(with("hi: [0.5, 1, 0.25]", "hi: [0.5, 1]")).find("bad.yaml:8: "),
              std::string::npos);
    EXPECT_NE(refusal(with("hi: [0.5, 1, 0.25]", "hi: [0.5, 1, 0.25")).find("bad.yaml:"),
              std::string::npos);
    EXPECT_NE(refusal(with("lo: [0, 0, 0], hi: [0.5, 1, 0.25]", "lo: [0, 0, 0], hi: [0.5, 1, 3]"))
                  .find("reaches outside the domain"),
              std::string::npos);
    EXPECT_NE(refusal(good + "solids:\n  - box: {lo: [0.2, 0.2, 0], hi: [0.4, 0.4, 0.2]}\n")
                  .find("bad.yaml:8: water at"),
              std::string::npos);
    EXPECT_NE(refusal(good + "solids:\n  - mesh: nowhere.stl\n").find("bad.yaml:12"),
              std::string::npos);
    EXPECT_NE(refusal("[1, 2").find("bad.yaml:"), std::string::npos);
    EXPECT_NE(refusal("just text").find("a case file is a map"), std::string::npos);
}

TEST(CaseFiles, WaterBelowALevelKeepsOutOfSolidsTankWallsAndOtherWater) {
    std::string text = kSmallCase;
    text.replace(text.find("settings:"), 0, R"(  - below: 0.3
    region: {lo: [-0.2, -0.2, -0.2], hi: [1.2, 1.2, 1]}
solids:
  - box: {lo: [0.6, 0.2, 0], hi: [0.8, 0.4, 0.2]}
)");
    const CaseProblem problem(parse_case_text(text, "below.yaml"));
    std::size_t fluid_in_solid = 0, fluid = 0;
    for (const SetupParticle& p : laid_out(problem, 0.1)) {
        if (p.type != kFluid) continue;
        ++fluid;
        if (p.x > 0.6 && p.x < 0.8 && p.y > 0.2 && p.y < 0.4 && p.z < 0.2) ++fluid_in_solid;
        EXPECT_TRUE(p.x > 0 && p.x < 1 && p.y > 0 && p.y < 1 && p.z > 0 && p.z < 0.3) << p.x;
    }
    EXPECT_EQ(fluid_in_solid, 0u);
    // The box of water (5 x 10 x 2), then below 0.3 m the tank's 10 x 10 x 3 less the solid's
    // 2 x 2 x 2 and less the box already filled.
    EXPECT_EQ(fluid, 100u + 300u - 8u - 100u);
}

// The flood case's reservoir lies above its terrain, whose solid ends above the tank's floor:
// none of it beneath the terrain's surface, none inside the house.
TEST(CaseFiles, WaterBelowALevelLiesAboveTheTerrain) {
    const CaseProblem flood(read_case_file(std::string(SPH_CASES_DIR) + "/flood_street.yaml"));
    const auto& terrain = dynamic_cast<const TerrainShape&>(flood.solid_shape(0));
    const Shape& house = flood.solid_shape(1);
    std::size_t fluid = 0, beneath = 0, in_house = 0;
    for (const SetupParticle& p : laid_out(flood, 0.04)) {
        if (p.type != kFluid) continue;
        ++fluid;
        beneath += terrain.covers(p.x, p.y) && p.z < terrain.elevation(p.x, p.y);
        in_house += house.inside({p.x, p.y, p.z});
        EXPECT_LT(p.x, 1.5);
        EXPECT_LT(p.z, 0.35);
    }
    EXPECT_GT(fluid, 1000u);
    EXPECT_EQ(beneath, 0u);
    EXPECT_EQ(in_house, 0u);
}

TEST(CaseFiles, OverlappingWaterShapesAreRefused) {
    std::string text = kSmallCase;
    text.replace(text.find("settings:"), 0, "  - box: {lo: [0.4, 0, 0], hi: [0.6, 1, 0.25]}\n");
    EXPECT_NE(refusal(text).find("bad.yaml:9: water at"), std::string::npos) << refusal(text);
    EXPECT_NE(refusal(text).find("the water of line 8"), std::string::npos) << refusal(text);
}

TEST(CaseFiles, SettingsAreOptionsBelowTheCommandLine) {
    const std::string path = ::testing::TempDir() + "/settings_case.yaml";
    std::ofstream(path) << kSmallCase << "  boundary: mdbc\n  cfl: 0.2\n";
    const char* argv[] = {"case", "--case", path.c_str(), "--cfl", "0.25"};
    std::unique_ptr<Problem> problem = case_problem_from_arguments(5, argv);
    std::ostringstream help;
    const std::optional<RunOptions> o = parse_command_line(5, argv, *problem, help);
    ASSERT_TRUE(o.has_value());
    EXPECT_EQ(o->boundary, BoundaryModel::kMdbc);  // from the file
    EXPECT_EQ(o->cfl, 0.25);                       // the command line wins
    EXPECT_EQ(o->dp, 0.1);
    std::ofstream(path) << kSmallCase << "  cfl: fast\n";
    try {
        std::unique_ptr<Problem> bad = case_problem_from_arguments(3, argv);
        (void)parse_command_line(3, argv, *bad, help);
        FAIL() << "a bad setting was accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("settings_case.yaml:11: setting 'cfl'"),
                  std::string::npos)
            << e.what();
    }
    std::ofstream(path) << kSmallCase << "  cfll: 0.2\n";
    try {
        std::unique_ptr<Problem> bad = case_problem_from_arguments(3, argv);
        (void)parse_command_line(3, argv, *bad, help);
        FAIL() << "an unknown setting was accepted";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("settings_case.yaml:11: setting 'cfll'"),
                  std::string::npos)
            << e.what();
    }
}

}  // namespace
}  // namespace sph
