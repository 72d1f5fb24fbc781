// What-if branches (--branches): the branch file is read or refused naming its line; a branch
// with no change is bitwise the base going on; a branch's result does not depend on the other
// branches sharing its base.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "branches/branch_plan.h"
#include "branches/branch_runner.h"
#include "common/errors.h"
#include "dam_break.h"
#include "mesh_samples.h"
#include "test_support.h"

namespace sph {
namespace {

TEST(BranchPlan, ReadsDecisionPointsBranchesAndChanges) {
    const BranchPlan plan = parse_branch_plan(
        "# settle, then decide\n"
        "at 0.5\n"
        "branch as_is\n"
        "branch more-viscous   # a comment\n"
        "  alpha 0.1\n"
        "  delta 0.05\n"
        "at 1.5\n"
        "branch late\n",
        "plan.txt");
    ASSERT_EQ(plan.decisions.size(), 2u);
    EXPECT_EQ(plan.decisions[0].time, 0.5);
    ASSERT_EQ(plan.decisions[0].branches.size(), 2u);
    EXPECT_TRUE(plan.decisions[0].branches[0].changes.empty());
    const Branch& viscous = plan.decisions[0].branches[1];
    EXPECT_EQ(viscous.name, "more-viscous");
    ASSERT_EQ(viscous.changes.size(), 2u);
    EXPECT_EQ(viscous.changes[0].kind, BranchChange::Kind::kAlpha);
    EXPECT_EQ(viscous.changes[1].value, 0.05);
    EXPECT_EQ(plan.decisions[1].branches[0].name, "late");
}

std::string refusal(const std::string& text) {
    try {
        parse_branch_plan(text, "plan.txt");
    } catch (const OptionError& e) {
        return e.what();
    }
    return "";
}

TEST(BranchPlan, MalformedFilesAreRefusedNamingTheLine) {
    EXPECT_NE(refusal("at 0.5\nbranch a\n  viscosity 2\n").find("line 3: unknown statement"),
              std::string::npos);
    EXPECT_NE(refusal("branch a\n").find("line 1: a branch before any decision point"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nbranch a\n").find("line 3: branch name 'a' is taken"),
              std::string::npos);
    EXPECT_NE(refusal("at 1\nbranch a\nat 0.5\n")
                  .find("line 3: decision points must come in "
                        "increasing time"),
              std::string::npos);
    EXPECT_NE(refusal("at x\n").find("line 1: 'at' takes"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch ../up\n").find("line 2"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nalpha -1\n").find("line 3: 'alpha' takes one number"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nalpha nan\n").find("line 3"), std::string::npos);
    EXPECT_NE(refusal("at 0.5\n").find("has no branch"), std::string::npos);
    EXPECT_NE(refusal("# nothing\n").find("no decision point"), std::string::npos);
}

testing::AppResult run_dambreak(const std::string& out, const std::vector<std::string>& more) {
    DamBreak problem;
    std::vector<std::string> args = {"--backend",      "cpu",  "--threads",    "1",
                                     "--dp",           "0.08", "--t-end",      "0.2",
                                     "--output-every", "0.05", "--output-dir", out};
    args.insert(args.end(), more.begin(), more.end());
    return testing::run_program(problem, args, 0);
}

std::string write_plan(const std::string& dir, const std::string& name, const std::string& text) {
    const std::string path = dir + "/" + name;
    std::ofstream(path) << text;
    return path;
}

TEST(Branches, AnEmptyBranchIsTheBaseGoingOnAndSharingChangesNothing) {
    testing::TempDir dir("branches");
    ASSERT_EQ(run_dambreak(dir.path() + "/straight", {}).code, 0);
    const std::string two = write_plan(dir.path(), "two.txt",
                                       "at 0.05\nbranch early\n  delta 0.2\n"
                                       "at 0.1\nbranch same\nbranch viscous\n  alpha 0.1\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/tree", {"--branches", two});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string straight = testing::read_text(dir.path() + "/straight/gauges.csv");
    // No change: the base going on, byte for byte.
    EXPECT_EQ(testing::read_text(dir.path() + "/tree/same/gauges.csv"), straight);
    // A change changes the result...
    const std::string viscous = testing::read_text(dir.path() + "/tree/viscous/gauges.csv");
    EXPECT_NE(viscous, straight);
    EXPECT_NE(testing::read_text(dir.path() + "/tree/early/gauges.csv"), straight);
    // ... and does not depend on the other branches of the run.
    const std::string one =
        write_plan(dir.path(), "one.txt", "at 0.1\nbranch viscous\nalpha 0.1\n");
    ASSERT_EQ(run_dambreak(dir.path() + "/alone", {"--branches", one}).code, 0);
    EXPECT_EQ(testing::read_text(dir.path() + "/alone/viscous/gauges.csv"), viscous);
    const std::string summary = testing::read_text(dir.path() + "/tree/branches.csv");
    EXPECT_NE(summary.find("early,base,0.050000,completed"), std::string::npos) << summary;
    EXPECT_NE(summary.find("viscous,base,0.100000,completed"), std::string::npos) << summary;
}

// Two levels: a branch with decision points of its own stops there, and its branches go on from
// it with its changes and theirs. A child with no change is its parent going on.
TEST(Branches, ATreeOfTwoLevelsGoesOnFromEachBranch) {
    testing::TempDir dir("tree");
    const std::string tree = write_plan(dir.path(), "tree.txt",
                                        "at 0.05\nbranch viscous\nalpha 0.1\n"
                                        "at 0.1 in viscous\nbranch viscous_same\n"
                                        "branch viscous_diffusive\ndelta 0.2\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/tree", {"--branches", tree});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string one =
        write_plan(dir.path(), "one.txt", "at 0.05\nbranch viscous\nalpha 0.1\n");
    ASSERT_EQ(run_dambreak(dir.path() + "/one", {"--branches", one}).code, 0);
    const std::string viscous = testing::read_text(dir.path() + "/one/viscous/gauges.csv");
    EXPECT_EQ(testing::read_text(dir.path() + "/tree/viscous_same/gauges.csv"), viscous);
    EXPECT_NE(testing::read_text(dir.path() + "/tree/viscous_diffusive/gauges.csv"), viscous);
    const std::string summary = testing::read_text(dir.path() + "/tree/branches.csv");
    EXPECT_NE(summary.find("viscous,base,0.050000,branched"), std::string::npos) << summary;
    EXPECT_NE(summary.find("viscous_diffusive,viscous,0.100000,completed"), std::string::npos)
        << summary;
}

TEST(BranchPlan, ReadsWallAndInstrumentChanges) {
    const BranchPlan plan = parse_branch_plan(
        "at 0.5\n"
        "branch changed\n"
        "  remove obstacle\n"
        "  add_box 1.6 0 0 1.84 1 0.16\n"
        "  gauge G_box 1.9 0.5\n"
        "  probe Q_box 1.88 0.5 0.04\n"
        "  sensor S_box 1.84 0.5 0.08 +x 0.1\n"
        "  panel F_box 1.84 0.3 0 1.84 0.7 0.16 +x\n"
        "  moment M_box 1.84 0.3 0 1.84 0.7 0.16 +x +z\n",
        "plan.txt");
    const std::vector<BranchChange>& c = plan.decisions[0].branches[0].changes;
    ASSERT_EQ(c.size(), 7u);
    EXPECT_EQ(c[0].kind, BranchChange::Kind::kRemove);
    EXPECT_EQ(c[0].name, "obstacle");
    EXPECT_EQ(c[1].kind, BranchChange::Kind::kAddBox);
    EXPECT_EQ(c[1].box.lo[0], 1.6);
    EXPECT_EQ(c[1].box.hi[2], 0.16);
    EXPECT_EQ(c[1].line, 4);
    EXPECT_EQ(c[2].gauge.name, "G_box");
    EXPECT_EQ(c[2].gauge.y, 0.5);
    EXPECT_EQ(c[3].probe.z, 0.04);
    EXPECT_EQ(c[4].sensor.axis, 0);
    EXPECT_EQ(c[4].sensor.direction, 1);
    EXPECT_EQ(c[4].sensor.diameter, 0.1);
    EXPECT_EQ(c[5].kind, BranchChange::Kind::kSensor);
    EXPECT_EQ(c[5].name, "F_box");
    EXPECT_TRUE(c[5].sensor.panel());
    EXPECT_DOUBLE_EQ(c[5].sensor.y, 0.5);
    EXPECT_DOUBLE_EQ(c[5].sensor.side_u, 0.4);   // along y
    EXPECT_DOUBLE_EQ(c[5].sensor.side_v, 0.16);  // along z
    EXPECT_FALSE(c[5].sensor.moment());
    EXPECT_EQ(c[6].kind, BranchChange::Kind::kSensor);
    EXPECT_EQ(c[6].name, "M_box");
    EXPECT_TRUE(c[6].sensor.moment());
    EXPECT_EQ(c[6].sensor.arm_axis, 2);
    EXPECT_EQ(c[6].sensor.arm_direction, 1);
    EXPECT_DOUBLE_EQ(c[6].sensor.side_v, 0.16);
}

TEST(BranchPlan, MalformedChangesAreRefusedNamingTheLine) {
    const std::string head = "at 0.5\nbranch a\n";
    EXPECT_NE(refusal(head + "remove\n").find("line 3: 'remove' takes"), std::string::npos);
    EXPECT_NE(refusal(head + "add_box 1 0 0 0.5 1 1\n").find("line 3: 'add_box' takes"),
              std::string::npos);
    EXPECT_NE(refusal(head + "add_box 0 0 0 1 1\n").find("line 3"), std::string::npos);
    EXPECT_NE(refusal(head + "gauge 1.0 0.5\n").find("line 3: 'gauge' takes"), std::string::npos);
    EXPECT_NE(refusal(head + "probe P 1 2\n").find("line 3: 'probe' takes"), std::string::npos);
    EXPECT_NE(refusal(head + "sensor S 1 0.5 0.1 x 0.1\n").find("line 3: 'sensor' takes"),
              std::string::npos);
    EXPECT_NE(refusal(head + "sensor S 1 0.5 0.1 +x 0\n").find("line 3"), std::string::npos);
    EXPECT_NE(refusal(head + "panel F 1 0 0 1.1 1 0.2 +x\n").find("line 3: 'panel' takes"),
              std::string::npos);  // off the face's plane
    EXPECT_NE(refusal(head + "panel F 1 0 0 1 1 0 +x\n").find("line 3"), std::string::npos);
    EXPECT_NE(refusal(head + "moment M 1 0 0 1 1 0.2 +x\n").find("line 3: 'moment' takes"),
              std::string::npos);  // no arm
    EXPECT_NE(refusal(head + "moment M 1 0 0 1 1 0.2 +x -x\n").find("line 3: 'moment' takes"),
              std::string::npos);  // the arm along the normal
    EXPECT_NE(refusal("at 0.5\nremove obstacle\n").find("line 2: 'remove' before any branch"),
              std::string::npos);
    for (const char* bad : {"add_mesh\n", "add_mesh w.stl scale 0\n", "add_mesh w.stl turn 1\n",
                            "add_mesh w.stl translate 1 0\n", "add_mesh w.stl scale 2 scale 2\n"}) {
        EXPECT_NE(refusal(head + bad).find("line 3: 'add_mesh' takes"), std::string::npos) << bad;
    }
}

// A mesh's path is taken relative to the branch file, its placement as written.
TEST(BranchPlan, ReadsAnAddedMesh) {
    const BranchPlan plan = parse_branch_plan(
        "at 0.5\nbranch a\n  add_mesh walls/w.stl translate 1 2 3 scale 0.001 rotate 0 0 90\n"
        "  add_mesh /abs/x.obj\n",
        "plans/plan.txt");
    const std::vector<BranchChange>& c = plan.decisions[0].branches[0].changes;
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].kind, BranchChange::Kind::kAddMesh);
    EXPECT_EQ(c[0].mesh, "plans/walls/w.stl");
    EXPECT_EQ(c[0].transform.translate, (Vec3d{1, 2, 3}));
    EXPECT_EQ(c[0].transform.scale, 0.001);
    EXPECT_EQ(c[0].transform.rotate_deg, (Vec3d{0, 0, 90}));
    EXPECT_EQ(c[1].mesh, "/abs/x.obj");
    EXPECT_TRUE(c[1].transform.identity());
}

TEST(BranchPlan, ANestedDecisionPointNeedsItsBranchBeforeIt) {
    EXPECT_NE(refusal("at 0.5\nbranch a\nat 1 in b\n").find("line 3: no branch 'b'"),
              std::string::npos);
    EXPECT_NE(refusal("at 0.5\nbranch a\nat 0.4 in a\n")
                  .find("line 3: a decision point of branch 'a' must come after"),
              std::string::npos);
}

TEST(Branches, ADecisionPointAtOrPastTheEndIsRefused) {
    testing::TempDir dir("late-branch");
    const std::string plan = write_plan(dir.path(), "late.txt", "at 0.3\nbranch a\n");
    const testing::AppResult r = run_dambreak(dir.path() + "/out", {"--branches", plan});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("not before --t-end"), std::string::npos) << r.err;
}

// Changes that do not fit the problem are refused before anything runs, naming the line.
TEST(Branches, ChangesThatDoNotFitTheProblemAreRefusedNamingTheLine) {
    testing::TempDir dir("unfit");
    auto refused = [&](const std::string& text) {
        const std::string plan = write_plan(dir.path(), "plan.txt", text);
        const testing::AppResult r = run_dambreak(dir.path() + "/out", {"--branches", plan});
        EXPECT_EQ(r.code, 2) << text;
        return r.err;
    };
    const std::string head = "at 0.1\nbranch a\n";
    const std::string region = refused(head + "remove gate\n");
    EXPECT_NE(region.find("line 3: DamBreak has no region 'gate' (it has: obstacle)"),
              std::string::npos)
        << region;
    EXPECT_NE(refused(head + "add_box 1 0 0 9 1 1\n")
                  .find("line 3: add_box 1 0 0 9 1 1: the box "
                        "leaves DamBreak's domain"),
              std::string::npos);
    EXPECT_NE(refused(head + "add_box 1.01 0 0 1.02 1 1\n")
                  .find("line 3: add_box 1.01 0 0 1.02 1 1: no particle fits"),
              std::string::npos);
    write_plan(dir.path(), "open.stl", "solid open\nendsolid open\n");
    EXPECT_NE(refused(head + "add_mesh open.stl\n").find("line 3: "), std::string::npos);
    EXPECT_NE(refused(head + "add_mesh missing.stl\n").find("line 3: "), std::string::npos);
    EXPECT_NE(refused(head + "gauge H1 1 0.5\n").find("line 3: the instrument name 'H1' is taken"),
              std::string::npos);
    EXPECT_NE(refused(head + "probe Q 1 0.5 40\n").find("line 3: 'Q' lies outside the domain"),
              std::string::npos);
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out/base")) << "nothing ran";
}

// Every kind of change: the branch sharing the base is bitwise the scenario run alone from t = 0
// with its changes applied at the decision time (--scenario: one run, the state handed over in
// memory, no checkpoint file).
TEST(Branches, EachKindOfChangeEqualsItsScenarioRunAlone) {
    testing::TempDir dir("kinds");
    const std::string plan =
        write_plan(dir.path(), "kinds.txt",
                   "at 0.05\n"
                   "branch viscous\n  alpha 0.1\n"
                   "branch diffusive\n  delta 0.2\n"
                   "branch no_obstacle\n  remove obstacle\n"
                   "branch wall\n  add_box 1.6 0 0 1.84 1 0.16\n"
                   "  sensor S_wall 1.84 0.5 0.08 +x 0.1\n"
                   "branch instruments\n  gauge G_new 1.9 0.5\n  probe Q_new 1.88 0.5 0.04\n"
                   "at 0.1 in wall\n"
                   "branch wall_no_obstacle\n  remove obstacle\n");
    const testing::AppResult tree = run_dambreak(dir.path() + "/tree", {"--branches", plan});
    ASSERT_EQ(tree.code, 0) << tree.err;
    const std::string base = testing::read_text(dir.path() + "/tree/base/gauges.csv");
    for (const std::string name :
         {"viscous", "diffusive", "no_obstacle", "wall", "instruments", "wall_no_obstacle"}) {
        // (wall stops at its own decision point in the tree: alone it runs on to the end, its
        // rows up to there the same)
        SCOPED_TRACE(name);
        const std::string alone = dir.path() + "/alone_" + name;
        const testing::AppResult r = run_dambreak(alone, {"--branches", plan, "--scenario", name});
        ASSERT_EQ(r.code, 0) << r.err;
        const std::string shared = testing::read_text(dir.path() + "/tree/" + name + "/gauges.csv");
        const std::string by_itself = testing::read_text(alone + "/gauges.csv");
        if (name == "wall") {
            EXPECT_EQ(by_itself.substr(0, shared.size()), shared);
            continue;
        }
        EXPECT_EQ(by_itself, shared);
        EXPECT_NE(shared.substr(shared.rfind('\n', shared.size() - 2)),
                  base.substr(base.rfind('\n', base.size() - 2)))
            << "the change changed nothing";
    }
    // Added instruments: their columns read nan before the decision point, numbers after.
    const std::vector<std::string> rows =
        testing::read_lines(dir.path() + "/tree/instruments/gauges.csv");
    EXPECT_NE(rows[0].find("G_new"), std::string::npos);
    EXPECT_NE(rows[1].find("nan"), std::string::npos);
    EXPECT_EQ(rows.back().find("nan"), std::string::npos) << rows.back();
    const std::string wall = testing::read_text(dir.path() + "/tree/wall/gauges.csv");
    EXPECT_NE(wall.find("S_wall"), std::string::npos);
    // Each scenario's folder holds its report.html beside its run_report.json, with the
    // instruments a branch added plotted among the others.
    for (const std::string name : {"base", "viscous", "diffusive", "no_obstacle", "wall",
                                   "instruments", "wall_no_obstacle"}) {
        EXPECT_TRUE(std::filesystem::exists(dir.path() + "/tree/" + name + "/run_report.json"))
            << name;
        EXPECT_TRUE(std::filesystem::exists(dir.path() + "/tree/" + name + "/report.html")) << name;
    }
    const std::string page = testing::read_text(dir.path() + "/tree/instruments/report.html");
    for (const char* added : {"G_new", "Q_new"})
        EXPECT_NE(page.find(std::string("font-weight=\"bold\">") + added + "</text>"),
                  std::string::npos)
            << added;
    // The tree report compares the scenarios' instruments.
    const std::string report = testing::read_text(dir.path() + "/tree/tree_report.md");
    EXPECT_NE(report.find("G_new"), std::string::npos);
    EXPECT_TRUE(std::filesystem::exists(dir.path() + "/tree/tree_report/H1.svg"));
}

// A box added as a closed mesh runs as the same box added by add_box, to the bit, in the tree and
// as its scenario run alone.
TEST(Branches, AnAddedMeshRunsAsTheSameBox) {
    testing::TempDir dir("mesh-branch");
    testing::write_stl_binary(testing::box_mesh({0, 0, 0}, {0.24, 1.0, 0.16}),
                              dir.path() + "/block.stl");
    const std::string plan = write_plan(dir.path(), "plan.txt",
                                        "at 0.05\n"
                                        "branch box\n  add_box 1.6 0 0 1.84 1 0.16\n"
                                        "  sensor S_wall 1.84 0.5 0.08 +x 0.1\n"
                                        "branch mesh\n  add_mesh block.stl translate 1.6 0 0\n"
                                        "  sensor S_wall 1.84 0.5 0.08 +x 0.1\n");
    const testing::AppResult tree = run_dambreak(dir.path() + "/tree", {"--branches", plan});
    ASSERT_EQ(tree.code, 0) << tree.err;
    const std::string box = testing::read_text(dir.path() + "/tree/box/gauges.csv");
    const std::string mesh = testing::read_text(dir.path() + "/tree/mesh/gauges.csv");
    EXPECT_EQ(mesh, box);
    const testing::AppResult alone =
        run_dambreak(dir.path() + "/alone", {"--branches", plan, "--scenario", "mesh"});
    ASSERT_EQ(alone.code, 0) << alone.err;
    EXPECT_EQ(testing::read_text(dir.path() + "/alone/gauges.csv"), mesh);
    const std::string base = testing::read_text(dir.path() + "/tree/base/gauges.csv");
    EXPECT_NE(mesh.substr(mesh.size() / 2), base.substr(base.size() / 2))
        << "the mesh changed nothing";
}

// With --gauge-average a decision point falls inside a row's interval and a filtered row's window:
// each branch takes both up, its added instruments starting theirs at the decision point, as the
// scenario run alone does.
TEST(Branches, AveragedGaugesGoOnThroughADecisionPoint) {
    testing::TempDir dir("averaged");
    const std::string plan = write_plan(dir.path(), "plan.txt",
                                        "at 0.05\nbranch same\nbranch instruments\n"
                                        "  gauge G_new 1.9 0.5\n  probe Q_new 1.88 0.5 0.04\n");
    const std::vector<std::string> averaged = {"--gauge-average", "--gauge-every", "0.03",
                                               "--gauge-filter", "20"};
    std::vector<std::string> args = averaged;
    args.insert(args.end(), {"--branches", plan});
    ASSERT_EQ(run_dambreak(dir.path() + "/straight", averaged).code, 0);
    const testing::AppResult tree = run_dambreak(dir.path() + "/tree", args);
    ASSERT_EQ(tree.code, 0) << tree.err;
    for (const char* file : {"/gauges.csv", "/gauges_filtered.csv", "/gauges_peaks.csv"}) {
        EXPECT_EQ(testing::read_text(dir.path() + "/tree/same" + file),
                  testing::read_text(dir.path() + "/straight" + file))
            << file;
    }
    args.insert(args.end(), {"--scenario", "instruments"});
    const testing::AppResult alone = run_dambreak(dir.path() + "/alone", args);
    ASSERT_EQ(alone.code, 0) << alone.err;
    const std::string shared = testing::read_text(dir.path() + "/tree/instruments/gauges.csv");
    EXPECT_EQ(testing::read_text(dir.path() + "/alone/gauges.csv"), shared);
    for (const char* file : {"/gauges_filtered.csv", "/gauges_peaks.csv"}) {
        EXPECT_EQ(testing::read_text(dir.path() + "/alone" + file),
                  testing::read_text(dir.path() + "/tree/instruments" + file))
            << file;
    }
    const std::vector<std::string> rows =
        testing::read_lines(dir.path() + "/tree/instruments/gauges.csv");
    EXPECT_NE(rows[0].find("G_new"), std::string::npos);
    EXPECT_EQ(rows.back().find("nan"), std::string::npos) << rows.back();
}

// A two-level tree on 2 CPU devices: the base on both (slices), then the branches, one per
// device at once; every scenario bitwise as on one device one after another.
TEST(Branches, ATwoLevelTreeOnTwoDevicesEqualsItOnOne) {
    testing::TempDir dir("two-devices");
    const std::string plan = write_plan(dir.path(), "tree.txt",
                                        "at 0.05\nbranch a\n  alpha 0.1\n"
                                        "branch b\n  remove obstacle\n"
                                        "at 0.1 in a\nbranch a_same\nbranch a_box\n"
                                        "  add_box 1.6 0 0 1.84 1 0.16\n"
                                        "at 0.1\nbranch late\n  delta 0.2\n");
    ASSERT_EQ(run_dambreak(dir.path() + "/one", {"--branches", plan}).code, 0);
    const testing::AppResult two =
        run_dambreak(dir.path() + "/two", {"--branches", plan, "--devices", "2"});
    ASSERT_EQ(two.code, 0) << two.err;
    for (const std::string name : {"a", "b", "a_same", "a_box", "late"}) {
        EXPECT_EQ(testing::read_text(dir.path() + "/two/" + name + "/gauges.csv"),
                  testing::read_text(dir.path() + "/one/" + name + "/gauges.csv"))
            << name;
    }
    const std::string summary = testing::read_text(dir.path() + "/two/branches.csv");
    EXPECT_NE(summary.find(",cpu0,"), std::string::npos) << summary;
    EXPECT_NE(summary.find(",cpu1,"), std::string::npos) << summary;
    EXPECT_NE(two.out.find("2 at once"), std::string::npos) << two.out;
}

// Where a GPU's memory is short, fewer branches run at once (the others wait their turn), never
// none.
TEST(Branches, AGpuTakesAsManyBranchesAsItsMemoryHolds) {
    constexpr std::uint64_t kGiB = std::uint64_t(1) << 30;
    EXPECT_EQ(branches_that_fit(4, 80 * kGiB, kGiB), 4);
    EXPECT_EQ(branches_that_fit(4, 3 * kGiB, kGiB), 3);
    EXPECT_EQ(branches_that_fit(4, kGiB / 2, kGiB), 1);
    EXPECT_EQ(branches_that_fit(2, 0, 0), 2);
}

// The ranks of an MPI job share a level's branches by cost: the costliest first, each to the rank
// with the least so far.
TEST(Branches, RanksTakeTheCostliestBranchesFirstEachToTheLeastLoaded) {
    EXPECT_EQ(assign_to_ranks({1.0, 5.0, 3.0, 2.0}, 2), (std::vector<int>{0, 0, 1, 1}));
    EXPECT_EQ(assign_to_ranks({2.0, 2.0, 2.0}, 3), (std::vector<int>{0, 1, 2}));
    EXPECT_EQ(assign_to_ranks({4.0, 1.0}, 1), (std::vector<int>{0, 0}));
}

TEST(Branches, ScenarioAndSlotOptionsAreChecked) {
    testing::TempDir dir("scenario-options");
    const std::string plan = write_plan(dir.path(), "p.txt", "at 0.1\nbranch a\n");
    const testing::AppResult unknown =
        run_dambreak(dir.path() + "/o", {"--branches", plan, "--scenario", "b"});
    EXPECT_EQ(unknown.code, 2);
    EXPECT_NE(unknown.err.find("--scenario b: no branch of that name"), std::string::npos)
        << unknown.err;
    const testing::AppResult alone = run_dambreak(dir.path() + "/o", {"--scenario", "a"});
    EXPECT_EQ(alone.code, 2);
    EXPECT_NE(alone.err.find("give --branches too"), std::string::npos) << alone.err;
    const testing::AppResult slots =
        run_dambreak(dir.path() + "/o", {"--branches", plan, "--branch-slots", "0"});
    EXPECT_EQ(slots.code, 2);
    EXPECT_NE(slots.err.find("--branch-slots must be 1 to 64"), std::string::npos) << slots.err;
}

}  // namespace
}  // namespace sph
