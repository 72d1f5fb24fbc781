// A floating body's integration (bodies/floating_body.h) and its particles' moves
// (kernels/body_motion.h: move_floating), against motions known in closed form: free fall, a
// body held by a force equal to its weight, a spin at constant angular velocity, a constant
// moment about one free axis, held axes; and a run's floating bodies saved and restored
// (bodies/floating_bodies.h) going on with the same bits.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "bodies/floating_bodies.h"
#include "body_loads_body.h"

namespace sph {
namespace {

constexpr double kGravity[3] = {0.0, 0.0, -9.81};

FloatingMass cube(double mass, double side) {
    FloatingMass m;
    m.mass = mass;
    for (int k = 0; k < 9; ++k) m.inertia[k] = k % 4 == 0 ? mass * side * side / 6.0 : 0.0;
    return m;
}

// n steps of dt from `s` under a load that does not change.
FloatingState steps(const FloatingMass& m, FloatingState s, const BodyLoad& load, double dt,
                    int n) {
    for (int k = 0; k < n; ++k) {
        const FloatingState p = predict_floating(m, s, load, kGravity, dt);
        s = correct_floating(m, s, p, load, kGravity, dt);
    }
    return s;
}

TEST(FloatingBody, FallsFreelyAsGravityAlone) {
    FloatingState s;
    s.centre[2] = 1.0;
    const FloatingState end = steps(cube(2.0, 0.1), s, BodyLoad{}, 1e-3, 500);
    EXPECT_NEAR(end.centre[2], 1.0 - 0.5 * 9.81 * 0.25, 1e-12);  // the midpoint rule is exact here
    EXPECT_NEAR(end.velocity[2], -9.81 * 0.5, 1e-12);
    EXPECT_EQ(end.centre[0], 0.0);
    EXPECT_EQ(end.orientation[0], 1.0);
}

TEST(FloatingBody, AForceEqualToItsWeightHoldsItStill) {
    BodyLoad lift;
    lift.force[2] = 2.0 * 9.81;
    FloatingState s;
    s.centre[2] = 0.3;
    const FloatingState end = steps(cube(2.0, 0.1), s, lift, 1e-3, 1000);
    EXPECT_EQ(end.centre[2], 0.3);
    EXPECT_EQ(end.velocity[2], 0.0);
}

TEST(FloatingBody, SpinsAtAConstantRateAboutAPrincipalAxis) {
    FloatingState s;
    s.omega[1] = 2.0;
    const FloatingState end = steps(cube(1.0, 0.2), s, BodyLoad{}, 1e-3, 1000);
    const auto r = rotation_vector(end.orientation);
    EXPECT_NEAR(r[1], 2.0, 1e-9);  // 2 rad/s for 1 s
    EXPECT_NEAR(end.omega[1], 2.0, 1e-12);
    const auto m = rotation_matrix(end.orientation);
    for (int a = 0; a < 3; ++a) {  // still a rotation: orthonormal rows
        for (int b = 0; b < 3; ++b) {
            double dot = 0.0;
            for (int k = 0; k < 3; ++k) dot += m[3 * a + k] * m[3 * b + k];
            EXPECT_NEAR(dot, a == b ? 1.0 : 0.0, 1e-12);
        }
    }
}

TEST(FloatingBody, HeldAxesNeitherMoveNorTurn) {
    FloatingMass m = cube(1.0, 0.2);
    m.move[0] = m.move[1] = false;  // rises and falls only
    m.turn[0] = m.turn[2] = false;  // turns about y only
    BodyLoad load;
    load.force[0] = 5.0;
    load.force[2] = 9.81 + 1.0;
    load.moment[0] = 3.0;
    load.moment[1] = 0.02;
    const FloatingState end = steps(m, FloatingState{}, load, 1e-3, 100);
    EXPECT_EQ(end.centre[0], 0.0);
    EXPECT_NEAR(end.centre[2], 0.5 * 1.0 * 0.01, 1e-12);
    EXPECT_EQ(end.omega[0], 0.0);
    EXPECT_EQ(end.omega[2], 0.0);
    // About y alone: I alpha = M, I = m a^2 / 6.
    EXPECT_NEAR(end.omega[1], 0.02 / (0.04 / 6.0) * 0.1, 1e-9);
}

// A cube of side 0.1 m hanging 0.3 m below a hinge along y, swung 0.02 rad: a compound pendulum
// of period 2 pi sqrt(I_h / (m g d)) (1 + theta0^2 / 16), I_h = m (a^2 / 6 + d^2).
TEST(FloatingBody, AHingedBodySwingsAsACompoundPendulum) {
    FloatingMass m = cube(1.0, 0.1);
    m.hinged = true;
    m.hinge_axis = 1;
    m.hinge[2] = 0.3;
    m.arm[2] = -0.3;
    FloatingState s;
    s.orientation[0] = std::cos(0.01);
    s.orientation[2] = std::sin(0.01);
    s = predict_floating(m, s, BodyLoad{}, kGravity, 0.0);  // carried round the hinge
    const double dt = 1e-4;
    double t = 0.0, previous = rotation_vector(s.orientation)[1];
    std::vector<double> crossings;
    while (crossings.size() < 3 && t < 3.0) {
        const FloatingState p = predict_floating(m, s, BodyLoad{}, kGravity, dt);
        s = correct_floating(m, s, p, BodyLoad{}, kGravity, dt);
        t += dt;
        const double angle = rotation_vector(s.orientation)[1];
        if ((angle < 0.0) != (previous < 0.0)) {
            crossings.push_back(t - dt * angle / (angle - previous));
        }
        previous = angle;
        const double d = std::hypot(s.centre[0] - m.hinge[0], s.centre[2] - m.hinge[2]);
        ASSERT_NEAR(d, 0.3, 1e-12);  // the centre stays on its circle
    }
    ASSERT_EQ(crossings.size(), 3u);
    const double period =
        2.0 * M_PI * std::sqrt((0.01 / 6.0 + 0.09) / (9.81 * 0.3)) * (1.0 + 0.02 * 0.02 / 16.0);
    EXPECT_NEAR(crossings[2] - crossings[0], period, 2e-6 * period);
}

TEST(FloatingBody, ParticlesMoveRigidlyByThePose) {
    const double origin[3] = {0.0, 0.0, 0.0};
    const PositionFrame frame = position_frame(origin, -20);
    FloatingState from, to;
    from.centre[0] = 0.5;
    to = from;
    to.centre[2] = 0.01;  // lifted 1 cm, not turned: whole steps, exactly rigid
    const FixedPos a = frame.fixed(0.45, 0.0, 0.0, 0.0f), b = frame.fixed(0.55, 0.02, 0.0, 0.0f);
    const BodyPose lift = pose_between(from, to);
    const BodyMove ma = move_floating(a, lift, frame), mb = move_floating(b, lift, frame);
    EXPECT_EQ(ma.pos.z - a.z, mb.pos.z - b.z);
    EXPECT_EQ(ma.pos.x, a.x);
    EXPECT_EQ(ma.turned, 0.0);
    // A quarter turn about y: (0.05, 0, 0) from the centre goes to (0, 0, -0.05).
    const double by[3] = {0.0, M_PI / 2, 0.0};
    to = from;
    to.orientation[0] = std::cos(by[1] / 2);
    to.orientation[2] = std::sin(by[1] / 2);
    to.omega[1] = 1.0;
    const BodyMove turned = move_floating(b, pose_between(from, to), frame);
    const Vec3 at = frame.metres(turned.pos);
    EXPECT_NEAR(at.x, 0.5 + 0.02 * 0.0, 2e-6);
    EXPECT_NEAR(at.z, -0.05, 2e-6);
    EXPECT_NEAR(turned.velocity.x, 1.0 * -0.05, 1e-6);  // omega x r, r = (0, 0.02, -0.05)
    EXPECT_EQ(turned.turned, 1.0);
}

// Two bodies, the second floating, laid out as particles of 1 cm: its mass from its density, its
// centre and inertia from its particles; advanced, saved, restored into a fresh set and advanced
// again, the poses are the same bits.
TEST(FloatingBodies, ASavedStateGoesOnWithTheSameBits) {
    const double origin[3] = {0.0, 0.0, 0.0};
    HostParticles particles;
    particles.frame = position_frame(origin, -20);
    for (int i = 0; i < 4; ++i) {
        for (int k = 0; k < 2; ++k) {
            particles.add(particles.frame.fixed(0.1 + 0.01 * i, 0.05, 0.2 + 0.01 * k, 0.0f),
                          make_vec3(0.0f, 0.0f, 0.0f), 1000.0f, ParticleType(kFirstBody + 1));
        }
    }
    std::vector<MovingBody> bodies(2);
    bodies[0].law.kind = MotionKind::kVelocity;
    bodies[1].law.kind = MotionKind::kFloating;
    bodies[1].floating.density = 500.0;
    const Vec3 g = make_vec3(0.0f, 0.0f, -9.81f);
    FloatingBodies run(bodies, particles, 0.01, g);
    EXPECT_TRUE(run.floats(1));
    EXPECT_FALSE(run.floats(0));
    EXPECT_NEAR(run.centre(1)[0], 0.115, 1e-6);
    std::vector<unsigned long long> sums(2 * kBodyLoadSums, 0);
    sums[kBodyLoadSums + 2] = static_cast<unsigned long long>(llrint(0.03 * kLoadScale));
    sums[kBodyLoadSums + 4] = static_cast<unsigned long long>(llrint(-1e-4 * kLoadScale));
    const auto step = [&](FloatingBodies& f) {
        f.advance(false, sums, 1e-3);
        return f.advance(true, sums, 1e-3);
    };
    step(run);
    FloatingBodies again(bodies, particles, 0.01, g);
    again.restore(run.saved(), "test");
    const BodyPose a = step(run)[1], b = step(again)[1];
    for (int k = 0; k < 9; ++k) EXPECT_EQ(a.turn[k], b.turn[k]);
    for (int k = 0; k < 3; ++k) EXPECT_EQ(a.to[k], b.to[k]);
    EXPECT_LT(run.log_state(1).displacement[2], 0.0);  // 4 g of water's lift on 40 g: it sinks
    EXPECT_THROW(again.restore({1.0, 2.0}, "test"), std::runtime_error);
}

}  // namespace
}  // namespace sph
