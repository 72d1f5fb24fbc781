// Bodies moved by a law in whole runs (cases/gate_release.yaml: a water column held by a gate
// lifted at 1.5 m/s): every particle of the gate where its law puts it, at its velocity, the water
// let out; the same bits on any device count, balancing on and off; lists and cells alike; a
// restart goes on bitwise; a law that would carry the body out of the domain, or a region without
// walls, is refused; the case file's bodies read, and refused where they cannot be.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <string>
#include <unordered_map>

#include "bodies/wave_maker.h"
#include "cases/case_file.h"
#include "cases/case_problem.h"
#include "restart_support.h"
#include "test_support.h"

namespace sph {
namespace {

using namespace restart_testing;

CaseDescription gate_description() {
    return read_case_file(std::string(SPH_CASES_DIR) + "/gate_release.yaml");
}

const CaseProblem& gate_case() {
    static const CaseProblem problem(gate_description());
    return problem;
}

DeviceSelection one_device(BackendChoice b) {
    return b == BackendChoice::kCuda ? DeviceSelection::gpus({0}) : DeviceSelection::cpu(1);
}
DeviceSelection two_devices(BackendChoice b) {
    return b == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0}) : DeviceSelection::cpu(2);
}

RunOptions gate_run(BackendChoice backend, const DeviceSelection& devices, BoundaryModel walls) {
    RunOptions o = testing::small_run(backend == BackendChoice::kCuda ? 0.01 : 0.02, 0.6, backend);
    o.devices = devices;
    o.threads = 1;
    o.boundary = walls;
    return o;
}

// The text of cases/gate_release.yaml with its body's motion replaced.
std::string gate_with_motion(const std::string& motion) {
    std::string text = testing::read_text(std::string(SPH_CASES_DIR) + "/gate_release.yaml");
    const std::string was = "motion: {velocity: [0, 0, 1.5], start: 0, stop: 0.2}";
    text.replace(text.find(was), was.size(), motion);
    return text;
}

// The gate swung open downstream about a hinge along its top, 200 degrees a second.
const CaseProblem& swinging_gate_case() {
    static const CaseProblem problem(parse_case_text(
        gate_with_motion(
            "motion: {turn: -200, stop: 0.3, hinge: {axis: y, at: [0.215, 0.05, 0.3]}}"),
        std::string(SPH_CASES_DIR) + "/swinging_gate.yaml"));
    return problem;
}

class MovingBodies : public testing::EveryBackend {};

TEST_P(MovingBodies, TheGateGoesWhereItsLawPutsItAndLetsTheWaterOut) {
    Simulation sim(gate_case(), gate_run(backend(), one_device(backend()), BoundaryModel::kDbc), 0);
    const HostParticles before = sim.particles();
    while (sim.time() < 0.15) sim.step();
    const HostParticles after = sim.particles();
    const testing::ParticleStates start = testing::states_by_id(before);
    const double t = sim.time();
    const std::int64_t lifted = std::llrint(1.5 * t / double(after.frame.unit));
    std::size_t gate = 0, fluid_out = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (after.type[i] == kFluid) {
            fluid_out += after.position(i).x > 0.23f;
            continue;
        }
        const FixedPos was = start.at(after.id[i]).first, now = after.pos[i];
        if (!is_body(after.type[i])) {
            EXPECT_EQ(now.z, was.z);  // still walls stay
            continue;
        }
        ++gate;
        EXPECT_EQ(after.type[i], kFirstBody);
        EXPECT_EQ(now.x, was.x);
        EXPECT_EQ(now.y, was.y);
        EXPECT_EQ(std::int64_t(now.z) - was.z, lifted) << "particle " << after.id[i];
        EXPECT_EQ(after.velrho[i].z, 1.5f);
        EXPECT_EQ(after.velrho[i].x, 0.0f);
    }
    EXPECT_GT(gate, 50u);
    EXPECT_GT(fluid_out, 10u) << "the water should run out under the lifted gate";
}

// On 2, 3 and (DBC) 5 CPU devices, 2 and 3 devices on one GPU, balancing on and off, as on one.
TEST_P(MovingBodies, TheSameBitsOnAnyDeviceCount) {
    const bool cuda = backend() == BackendChoice::kCuda;
    const std::vector<DeviceSelection> splits =
        cuda ? std::vector<DeviceSelection>{DeviceSelection::gpus({0, 0}),
                                            DeviceSelection::gpus({0, 0, 0})}
             : std::vector<DeviceSelection>{DeviceSelection::cpu(2), DeviceSelection::cpu(3),
                                            DeviceSelection::cpu(5)};
    const int iterations = cuda ? 400 : 250;
    for (BoundaryModel walls : {BoundaryModel::kDbc, BoundaryModel::kMdbc}) {
        const Finish one =
            straight(gate_case(), gate_run(backend(), one_device(backend()), walls), iterations);
        for (std::size_t k = 0; k < splits.size(); ++k) {
            // Five devices would hold fewer slices each than mDBC's ghost nodes reach here.
            if (walls == BoundaryModel::kMdbc && splits[k].cpu_devices == 5) continue;
            RunOptions several = gate_run(backend(), splits[k], walls);
            several.balancing =
                k % 2 == 0 ? RunOptions::Balancing::kOn : RunOptions::Balancing::kOff;
            SCOPED_TRACE(std::to_string(k) + (walls == BoundaryModel::kMdbc ? " mDBC" : " DBC"));
            expect_bitwise(one, straight(gate_case(), several, iterations));
        }
    }
}

// The fluid's states and the walls' positions, by id: what a listed run and one under
// --neighbours cells agree on bit for bit (a wall dry at a rebuild keeps rho0 in a listed run,
// where the cells fit it from fluid too far to read it: mdbc_body.h).
testing::ParticleStates fluid_and_wall_places(const HostParticles& p) {
    testing::ParticleStates states;
    for (std::size_t i = 0; i < p.size(); ++i) {
        const Vec4 velrho = p.type[i] == kFluid ? p.velrho[i] : Vec4{0, 0, 0, 0};
        states[p.id[i]] = {p.pos[i], velrho};
    }
    return states;
}

// Under mDBC a wall's density is fitted from the fluid around its ghost node, found through its
// list or, under --neighbours cells, through the cells, in the same order: the fluid moves by the
// same bits, also once the gate has carried its ghost nodes into other cells.
TEST_P(MovingBodies, ListsAndCellsMoveTheWaterByTheSameBitsAsTheGateRises) {
    RunOptions listed = gate_run(backend(), one_device(backend()), BoundaryModel::kMdbc);
    RunOptions cells = listed;
    cells.neighbours = RunOptions::NeighbourSearch::kCells;
    const int iterations = backend() == BackendChoice::kCuda ? 400 : 250;
    Simulation a(gate_case(), listed, 0), b(gate_case(), cells, 0);
    for (int k = 0; k < iterations; ++k) {
        a.step();
        b.step();
    }
    EXPECT_EQ(testing::count_bitwise_differences(fluid_and_wall_places(a.particles()),
                                                 fluid_and_wall_places(b.particles())),
              0);
}

// A gate that turns: every particle keeps its distance from the hinge to a few steps and lies at
// the law's angle; its ghost offsets turn with it; the same bits on one device and on three.
TEST_P(MovingBodies, ASwingingGateTurnsAboutItsHingeOnAnyDeviceCount) {
    RunOptions o = gate_run(backend(), one_device(backend()), BoundaryModel::kMdbc);
    const int iterations = backend() == BackendChoice::kCuda ? 400 : 250;
    Simulation sim(swinging_gate_case(), o, 0);
    const HostParticles before = sim.particles();
    for (int k = 0; k < iterations; ++k) sim.step();
    const HostParticles after = sim.particles();
    const double angle = -200.0 * M_PI / 180.0 * sim.time();
    std::unordered_map<std::uint32_t, std::size_t> was;
    for (std::size_t i = 0; i < before.size(); ++i) was[before.id[i]] = i;
    std::size_t turned = 0;
    for (std::size_t i = 0; i < after.size(); ++i) {
        if (!is_body(after.type[i])) continue;
        const std::size_t k = was.at(after.id[i]);
        double p0[3], p1[3];
        before.position(k, p0);
        after.position(i, p1);
        const double x0 = p0[0] - 0.215, z0 = p0[2] - 0.3;  // from the hinge
        EXPECT_NEAR(p1[0] - 0.215, z0 * std::sin(angle) + x0 * std::cos(angle), 1e-6);
        EXPECT_NEAR(p1[2] - 0.3, z0 * std::cos(angle) - x0 * std::sin(angle), 1e-6);
        const Vec3 g0 = before.to_ghost[k], g1 = after.to_ghost[i];
        EXPECT_NEAR(g1.x, g0.z * std::sin(angle) + g0.x * std::cos(angle), 1e-6);
        EXPECT_NEAR(g1.z, g0.z * std::cos(angle) - g0.x * std::sin(angle), 1e-6);
        turned += g0.x != 0.0f || g0.z != 0.0f;
    }
    EXPECT_GT(turned, 20u);
    EXPECT_LT(angle, -0.15);  // over 8 degrees
    RunOptions three = gate_run(backend(),
                                backend() == BackendChoice::kCuda ? DeviceSelection::gpus({0, 0, 0})
                                                                  : DeviceSelection::cpu(3),
                                BoundaryModel::kMdbc);
    expect_bitwise(finish(sim), straight(swinging_gate_case(), three, iterations));
}

TEST_P(MovingBodies, ARestartGoesOnBitwise) {
    testing::TempDir dir("gate-restart");
    const RunOptions o = gate_run(backend(), one_device(backend()), BoundaryModel::kMdbc);
    expect_bitwise(straight(gate_case(), o, 120),
                   restarted(gate_case(), o, o, 50, 120, dir.path()));
}

SPH_ON_EVERY_BACKEND(MovingBodies);

void expect_refused(const CaseDescription& c, double t_end, const std::string& says) {
    const CaseProblem problem(c);
    RunOptions o = gate_run(BackendChoice::kCpu, DeviceSelection::cpu(1), BoundaryModel::kDbc);
    o.t_end = t_end;
    try {
        Simulation sim(problem, o, 0);
        ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
}

TEST(MovingBodiesRefused, ALawThatLeavesTheDomainOrARegionWithoutWalls) {
    CaseDescription c = gate_description();
    c.bodies[0].law.stop = 10.0;  // 15 m up by t = 10 s
    expect_refused(c, 10.0, "body 'gate': its law takes its particles to z = ");
    CaseDescription empty = gate_description();
    empty.bodies[0].solid.clear();
    empty.bodies[0].region = Box{{0.5, 0.02, 0.5}, {0.6, 0.08, 0.6}};  // only air there
    expect_refused(empty, 0.6, "body 'gate': its region holds no wall particle");
}

TEST(CaseBodies, AWaveFlumesPaddleMovesByThePistonsLaw) {
    const CaseProblem flume(read_case_file(std::string(SPH_CASES_DIR) + "/wave_flume.yaml"));
    const std::vector<MovingBody> bodies = flume.bodies(0.01);
    ASSERT_EQ(bodies.size(), 1u);
    EXPECT_EQ(bodies[0].region.name, "paddle");
    EXPECT_EQ(bodies[0].law.kind, MotionKind::kSinusoid);
    EXPECT_DOUBLE_EQ(bodies[0].law.vector[0], 0.5 * piston_stroke(0.03, 1.0, 0.3));
    EXPECT_EQ(bodies[0].law.period, 1.0);
    EXPECT_EQ(bodies[0].law.ramp, 2.0);
}

TEST(CaseBodies, MotionsThatCannotBeAreRefusedNamingTheLine) {
    const auto refused = [](const std::string& motion, const std::string& says) {
        try {
            CaseProblem p(parse_case_text(gate_with_motion(motion),
                                          std::string(SPH_CASES_DIR) + "/gate.yaml"));
            ADD_FAILURE() << "accepted " << motion;
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused("motion: {velocity: [0, 0, 1.5], period: 1}",
            "gate.yaml:22: a velocity motion takes no");
    refused("motion: {velocity: [0, 1.5], stop: 1}", "gate.yaml:22: velocity is [x, y, z]");
    refused("motion: {velocity: [0, 0, 1], start: 0.5, stop: 0.2}", "stop must come after");
    refused("motion: {sinusoid: [0.1, 0, 0]}", "a sinusoid needs 'period'");
    refused("motion: {sinusoid: [0.1, 0, 0], period: 0}", "period must be positive");
    refused("motion: {velocity: [0, 0, 1], sinusoid: [0, 0, 1]}", "exactly one of");
    refused("motion: {series: missing.csv}", "gate.yaml:20: body 'gate':");
    refused("motion: {waves: {height: 0.2, period: 1, depth: 0.2}}", "Miche");
    refused("motion: {solitary: {height: 0.15, depth: 0.2}}", "gate.yaml:20: body 'gate':");
    refused("motion: {velocity: [0, 0, 1], axis: y}", "axis goes with waves or solitary");
    refused("motion: {velocity: [0, 0, 1]}\n    spin: 3", "spin");
    refused("motion: {turn: 30}", "gate.yaml:22: a body that turns needs its hinge");
    refused("motion: {swing: 5, period: 1, hinge: {axis: w, at: [0, 0, 0]}}", "axis is x, y or z");
    refused("motion: {waves: {height: 0.02, period: 1, depth: 0.2}, paddle: flap}",
            "a flap needs its hinge");
    refused(
        "motion: {waves: {height: 0.02, period: 1, depth: 0.2}, paddle: flap, "
        "hinge: {axis: x, at: [0.2, 0, 0]}}",
        "a flap making waves along x turns about a hinge along y");
    refused("motion: {solitary: {height: 0.02, depth: 0.2}, paddle: flap}", "made by a piston");
    testing::TempDir dir("swing-series");
    const std::string swing = dir.path() + "/swing.csv";
    std::ofstream(swing) << "0,0,0,0,0\n0.5,0,0,0,30\n";
    refused("motion: {series: " + swing + "}", "its series turns the body: give its hinge");
}

TEST(CaseBodies, AFlapSwingsHalfItsStrokeOverTheDepth) {
    const CaseProblem flap(parse_case_text(
        gate_with_motion("motion: {waves: {height: 0.02, period: 1, depth: 0.2}, paddle: flap, "
                         "hinge: {axis: y, at: [0.215, 0.05, 0]}}"),
        std::string(SPH_CASES_DIR) + "/flap.yaml"));
    const BodyLaw& law = flap.bodies(0.01)[0].law;
    EXPECT_EQ(law.kind, MotionKind::kSinusoid);
    EXPECT_DOUBLE_EQ(law.turn, std::atan(0.5 * flap_stroke(0.02, 1.0, 0.2) / 0.2));
    EXPECT_EQ(law.vector[0], 0.0);
    EXPECT_EQ(law.hinge_axis, 1);
    EXPECT_EQ(law.ramp, 2.0);
}

}  // namespace
}  // namespace sph
