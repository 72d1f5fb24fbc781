// Moving bodies' laws (kernels/body_motion.h) and motion series (bodies/motion_series.h): where a
// law puts a body and how fast, its moves in whole steps adding up to the law, and every series
// file that must be refused refused, naming its line.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "bodies/motion_series.h"
#include "bodies/moving_bodies.h"
#include "body_motion.h"

namespace sph {
namespace {

BodyLaw velocity_law(double vz, double start, double stop) {
    BodyLaw law;
    law.kind = MotionKind::kVelocity;
    law.vector[2] = vz;
    law.start = start;
    law.stop = stop;
    return law;
}

TEST(BodyLaws, AVelocityLawMovesFromItsStartUntilItsStop) {
    const BodyLaw law = velocity_law(1.5, 0.1, 0.3);
    EXPECT_EQ(body_state(law, nullptr, 0.05).displacement[2], 0.0);
    EXPECT_EQ(body_state(law, nullptr, 0.05).velocity[2], 0.0);
    EXPECT_DOUBLE_EQ(body_state(law, nullptr, 0.2).displacement[2], 0.15);
    EXPECT_EQ(body_state(law, nullptr, 0.2).velocity[2], 1.5);
    EXPECT_DOUBLE_EQ(body_state(law, nullptr, 0.5).displacement[2], 0.3);
    EXPECT_EQ(body_state(law, nullptr, 0.5).velocity[2], 0.0);
    EXPECT_EQ(body_state(law, nullptr, 0.5).displacement[0], 0.0);
}

TEST(BodyLaws, ASinusoidIsRampedInAndItsVelocityIsItsDerivative) {
    BodyLaw law;
    law.kind = MotionKind::kSinusoid;
    law.vector[0] = 0.05;
    law.period = 1.0;
    law.ramp = 2.0;
    law.start = 0.5;
    EXPECT_EQ(body_state(law, nullptr, 0.4).displacement[0], 0.0);
    // Past the ramp: the full stroke.
    EXPECT_NEAR(body_state(law, nullptr, 0.5 + 2.25).displacement[0], 0.05, 1e-12);
    // In the ramp: half of it a period in.
    EXPECT_NEAR(body_state(law, nullptr, 0.5 + 1.25).displacement[0], 0.05 * 1.25 / 2.0, 1e-12);
    for (double t : {0.7, 1.9, 2.6, 3.3}) {  // central differences, in and past the ramp
        const double e = 1e-6;
        const double slope = (body_state(law, nullptr, t + e).displacement[0] -
                              body_state(law, nullptr, t - e).displacement[0]) /
                             (2 * e);
        EXPECT_NEAR(body_state(law, nullptr, t).velocity[0], slope, 1e-6) << t;
    }
}

TEST(BodyLaws, ASeriesIsPiecewiseLinearAndHoldsItsEnds) {
    const double samples[] = {0.1, 0, 0, 0, 0, 0.3, 0, 0, 0.2, 0.1, 0.5, 0.1, 0, 0.2, 0.1};
    BodyLaw law;
    law.kind = MotionKind::kSeries;
    law.samples = 3;
    EXPECT_EQ(body_state(law, samples, 0.0).displacement[2], 0.0);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.2).displacement[2], 0.1);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.2).velocity[2], 1.0);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.4).displacement[0], 0.05);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.4).velocity[0], 0.5);
    EXPECT_EQ(body_state(law, samples, 0.4).velocity[2], 0.0);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 9.0).displacement[0], 0.1);
    EXPECT_EQ(body_state(law, samples, 9.0).velocity[0], 0.0);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.2).angle, 0.05);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.2).angular_velocity, 0.5);
    EXPECT_DOUBLE_EQ(body_state(law, samples, 0.4).angle, 0.1);
}

// Moves over uneven steps add up to the law's displacement at the end in whole steps, and every
// particle of the body moves by the same steps wherever it is.
TEST(BodyLaws, MovesInWholeStepsAddUpToTheLaw) {
    const double origin[3] = {0.0, 0.0, 0.0};
    const PositionFrame frame = position_frame(origin, -20);
    BodyLaw law;
    law.kind = MotionKind::kSinusoid;
    law.vector[0] = 0.0123;
    law.vector[2] = -0.031;
    law.period = 0.37;
    law.ramp = 0.2;
    FixedPos a{1000, -5, 77, 8.0f}, b{-123456, 999999, 3, 8.0f};
    const FixedPos a0 = a, b0 = b;
    double t = 0.0;
    for (int k = 0; k < 500; ++k) {
        const double dt = 1e-3 * (1.0 + 0.5 * std::sin(k * 0.7));
        a = move_with_body(a, law, nullptr, t, t + dt, frame).pos;
        b = move_with_body(b, law, nullptr, t, t + dt, frame).pos;
        t += dt;
    }
    const BodyState end = body_state(law, nullptr, t);
    EXPECT_EQ(a.x - a0.x, std::llrint(end.displacement[0] / frame.unit));
    EXPECT_EQ(a.z - a0.z, std::llrint(end.displacement[2] / frame.unit));
    EXPECT_EQ(a.y, a0.y);
    EXPECT_EQ(b.x - b0.x, a.x - a0.x);
    EXPECT_EQ(b.z - b0.z, a.z - a0.z);
    EXPECT_EQ(a.w, 8.0f);
}

// A body turning about a hinge at a constant rate: each particle where the angle puts it, to a
// step, at the velocity omega x r, its distance from the hinge kept; the hinge itself carried by
// the translation.
TEST(BodyLaws, ATurningBodyTurnsAboutItsMovingHinge) {
    const double origin[3] = {0.0, 0.0, 0.0};
    const PositionFrame frame = position_frame(origin, -24);
    BodyLaw law;
    law.kind = MotionKind::kVelocity;
    law.turn = -2.0;      // rad/s about +y
    law.vector[2] = 0.5;  // and rising
    law.hinge_axis = 1;
    law.hinge[0] = 0.25;
    law.hinge[1] = 0.0;
    law.hinge[2] = 0.30;
    const FixedPos start = frame.fixed(0.25, 0.05, 0.10, 8.0f);  // 0.2 m below the hinge
    FixedPos p = start;
    double t = 0.0;
    BodyMove m{};
    for (int k = 0; k < 400; ++k) {
        const double dt = 5e-4 * (1.0 + 0.3 * std::cos(k));
        m = move_with_body(p, law, nullptr, t, t + dt, frame);
        p = m.pos;
        t += dt;
    }
    const double angle = -2.0 * t;  // below the hinge, turning about +y by angle: x = -0.2 sin
    const Vec3 at = frame.metres(p);
    EXPECT_NEAR(at.x, 0.25 - 0.2 * std::sin(angle), 5e-6);
    EXPECT_NEAR(at.z, 0.30 + 0.5 * t - 0.2 * std::cos(angle), 5e-6);
    EXPECT_EQ(p.y, start.y);
    // omega e_y x r, r = (-0.2 sin a, 0, -0.2 cos a): (omega r_z, 0, -omega r_x), plus the rise.
    EXPECT_NEAR(m.velocity.x, -2.0 * (-0.2 * std::cos(angle)), 1e-5);
    EXPECT_NEAR(m.velocity.z, 0.5 - (-2.0) * (-0.2 * std::sin(angle)), 1e-5);
    // A ghost offset turns by the same angles.
    const Vec3 g = turn_offset(make_vec3(0.01f, 0.0f, 0.0f), BodyLaws{&law, nullptr, 1}, 0, angle);
    EXPECT_NEAR(g.x, 0.01 * std::cos(angle), 1e-8);
    EXPECT_NEAR(g.z, -0.01 * std::sin(angle), 1e-8);
}

TEST(MotionSeries, AFifthColumnIsTheAngleInDegrees) {
    const auto s = parse_motion_series("0,0,0,0,0\n1,0,0,0,90\n", "swing.csv");
    ASSERT_EQ(s.size(), 2u);
    EXPECT_DOUBLE_EQ(s[1][4], M_PI / 2);
    EXPECT_EQ(parse_motion_series("0,0,0,0\n1,0,0,1\n", "lift.csv")[1][4], 0.0);
    try {
        parse_motion_series("0,0,0,0,0\n1,0,0,0\n", "swing.csv");
        ADD_FAILURE() << "accepted a line of four after one of five";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("swing.csv:2: expected 5 numbers"), std::string::npos)
            << e.what();
    }
}

TEST(MotionSeries, ReadsSamplesSkippingAHeaderCommentsAndBlankLines) {
    const auto s = parse_motion_series(
        "t, dx, dy, dz\n# lifted by hand\n0, 0, 0, 0\n\n0.1, 0, 0, 0.05\r\n0.25,0,0,0.2\n",
        "lift.csv");
    ASSERT_EQ(s.size(), 3u);
    EXPECT_EQ(s[1][0], 0.1);
    EXPECT_EQ(s[1][3], 0.05);
    EXPECT_EQ(s[2][3], 0.2);
}

void expect_refused(const std::string& text, const std::string& says) {
    try {
        parse_motion_series(text, "lift.csv");
        ADD_FAILURE() << "accepted: " << text;
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
    }
}

TEST(MotionSeries, RefusesWhatCannotBeAMotionNamingTheLine) {
    expect_refused("0,0,0,0\n0.1,0,0\n", "lift.csv:2: expected 4 numbers");
    expect_refused("0,0,0,0\n0.1,0,0,0,5\n", "lift.csv:2: expected 4 numbers");
    expect_refused("0,0,0\n0.1,0,0,0\n", "lift.csv:1: expected 4 numbers");
    expect_refused("0,0,0,0,0,0\n0.1,0,0,0\n", "lift.csv:1: expected 4 numbers");
    expect_refused("0,0,0,0,5\n0.1,0,0,0,5\n", "lift.csv:1: the first sample's displacement");
    expect_refused("0,0,0,0\n0.1,0,zero,0\n", "lift.csv:2: 'zero' is not a number");
    expect_refused("0,0,0,0\n0.1,0,0,\n", "lift.csv:2: an empty field");
    expect_refused("0,0,0,0\n0.1,0,0,nan\n", "lift.csv:2: a value is not finite");
    expect_refused("0,0,0,0\n0.1,0,0,1e999\n", "lift.csv:2:");
    expect_refused("0,0,0,0\n0.2,0,0,1\n0.2,0,0,2\n",
                   "lift.csv:3: time 0.200000 s does not come after");
    expect_refused("0,0,0,0\n0.2,0,0,1\n0.1,0,0,2\n", "lift.csv:3:");
    expect_refused("-1,0,0,0\n0.2,0,0,1\n", "lift.csv:1: time -1.000000 s is negative");
    expect_refused("0,0,0,0.1\n0.2,0,0,1\n", "lift.csv:1: the first sample's displacement");
    expect_refused("0,0,0,0\n", "at least two samples, found 1");
    expect_refused("", "at least two samples, found 0");
    const char nul[] = "0,0,0,0\n0.1,0,0\0,1\n";
    expect_refused(std::string(nul, sizeof(nul) - 1), "lift.csv:2: a NUL byte");
    EXPECT_THROW(read_motion_series("/nonexistent/lift.csv"), std::invalid_argument);
}

MovingBody body_named(const std::string& name, BodyLaw law) {
    MovingBody b;
    b.region = NamedRegion{name, Box{{0, 0, 0}, {1, 1, 1}}, nullptr};
    b.law = law;
    b.source = "case.yaml:9";
    return b;
}

TEST(MovingBodies, LawsThatCannotBeAreRefusedNamingTheBody) {
    const auto refused = [](std::vector<MovingBody> bodies, const std::string& says) {
        try {
            check_body_laws(bodies);
            ADD_FAILURE() << "accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(says), std::string::npos) << e.what();
        }
    };
    refused({body_named("gate", velocity_law(1, 0.3, 0.2))},
            "case.yaml:9: body 'gate': its stop time must come after its start");
    BodyLaw sine;
    sine.kind = MotionKind::kSinusoid;
    sine.period = 0.0;
    refused({body_named("paddle", sine)}, "body 'paddle': its period must be finite and > 0");
    refused({body_named("a", velocity_law(1, 0, 1)), body_named("a", velocity_law(1, 0, 1))},
            "two bodies of one name");
    refused({body_named("gate", velocity_law(NAN, 0, 1))}, "not finite");
    EXPECT_NO_THROW(check_body_laws({body_named("gate", velocity_law(1.5, 0, 0.2))}));
}

// Each series' samples follow the one before's: a law's first sample counts whole samples.
TEST(MovingBodies, SeriesArePackedOneAfterAnother) {
    MovingBody a = body_named("a", BodyLaw{}), b = body_named("b", BodyLaw{});
    a.law.kind = b.law.kind = MotionKind::kSeries;
    a.series = {{0, 0, 0, 0, 0}, {1, 0, 0, 1, 0}, {2, 0, 0, 2, 0}, {3, 0, 0, 3, 0}};
    b.series = {{0, 0, 0, 0, 0}, {1, 3, 0, 0, 0}};
    const BodyTable table = body_table({a, b});
    EXPECT_EQ(table.laws[1].first_sample, 4u);
    EXPECT_DOUBLE_EQ(body_state(table.laws[1], table.samples.data(), 0.5).displacement[0], 1.5);
}

TEST(MovingBodies, WallParticlesInARegionBecomeTheBodys) {
    std::vector<MovingBody> bodies{body_named("a", velocity_law(1, 0, 1)),
                                   body_named("b", velocity_law(1, 0, 1))};
    bodies[1].region.box = Box{{2, 0, 0}, {3, 1, 1}};
    EXPECT_EQ(body_particle_type(bodies, 0.5, 0.5, 0.5, kBoundary), kFirstBody);
    EXPECT_EQ(body_particle_type(bodies, 2.5, 0.5, 0.5, kFreeSlipBoundary), kFirstBody + 1);
    EXPECT_EQ(body_particle_type(bodies, 0.5, 0.5, 0.5, kFluid), kFluid);
    EXPECT_EQ(body_particle_type(bodies, 1.5, 0.5, 0.5, kBoundary), kBoundary);
}

}  // namespace
}  // namespace sph
