#include "bodies/floating_body.h"

#include <cmath>

namespace sph {
namespace {

using Mat3 = std::array<double, 9>;

Mat3 product(const Mat3& a, const Mat3& b) {
    Mat3 c{};
    for (int r = 0; r < 3; ++r) {
        for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 3; ++j) c[3 * r + j] += a[3 * r + k] * b[3 * k + j];
        }
    }
    return c;
}

Mat3 transposed(const Mat3& a) {
    return {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]};
}

// The inertia tensor about the centre in the world's axes: R I R^T.
Mat3 world_inertia(const FloatingMass& body, const double q[4]) {
    const Mat3 r = rotation_matrix(q);
    Mat3 inertia;
    for (int k = 0; k < 9; ++k) inertia[k] = body.inertia[k];
    return product(product(r, inertia), transposed(r));
}

// Solves m x = b over the free axes (x zero on the others) by Gaussian elimination with
// pivoting; a 3 x 3 system at most.
void solve_free(Mat3 m, double b[3], const bool free[3], double x[3]) {
    int axes[3], n = 0;
    for (int a = 0; a < 3; ++a) {
        x[a] = 0.0;
        if (free[a]) axes[n++] = a;
    }
    double s[3][4];
    for (int r = 0; r < n; ++r) {
        for (int c = 0; c < n; ++c) s[r][c] = m[3 * axes[r] + axes[c]];
        s[r][3] = b[axes[r]];
    }
    for (int c = 0; c < n; ++c) {
        int pivot = c;
        for (int r = c + 1; r < n; ++r) {
            if (std::fabs(s[r][c]) > std::fabs(s[pivot][c])) pivot = r;
        }
        for (int k = 0; k < 4; ++k) std::swap(s[c][k], s[pivot][k]);
        for (int r = c + 1; r < n; ++r) {
            const double f = s[r][c] / s[c][c];
            for (int k = c; k < 4; ++k) s[r][k] -= f * s[c][k];
        }
    }
    for (int r = n - 1; r >= 0; --r) {
        double v = s[r][3];
        for (int c = r + 1; c < n; ++c) v -= s[r][c] * x[axes[c]];
        x[axes[r]] = v / s[r][r];
    }
}

// A hinged body's angular acceleration [rad/s^2] about its hinge line in `state` under `load`
// (its moment about the centre): the moment of the load and of gravity about the line over the
// moment of inertia about it.
double hinged_acceleration(const FloatingMass& body, const FloatingState& state,
                           const BodyLoad& load, const double gravity[3]) {
    const int k = body.hinge_axis, a = (k + 1) % 3, b = (k + 2) % 3;
    double r[3], f[3];
    for (int i = 0; i < 3; ++i) {
        r[i] = state.centre[i] - body.hinge[i];
        f[i] = load.force[i] + body.mass * gravity[i];
    }
    const double moment = load.moment[k] + r[a] * f[b] - r[b] * f[a];
    const Mat3 inertia = world_inertia(body, state.orientation);
    return moment / (inertia[4 * k] + body.mass * (r[a] * r[a] + r[b] * r[b]));
}

// A hinged body's centre and velocity from its orientation and angular velocity.
void carry_round_hinge(const FloatingMass& body, FloatingState& state) {
    const Mat3 r = rotation_matrix(state.orientation);
    double arm[3];
    for (int a = 0; a < 3; ++a) {
        arm[a] = r[3 * a] * body.arm[0] + r[3 * a + 1] * body.arm[1] + r[3 * a + 2] * body.arm[2];
        state.centre[a] = body.hinge[a] + arm[a];
    }
    const double* w = state.omega;
    state.velocity[0] = w[1] * arm[2] - w[2] * arm[1];
    state.velocity[1] = w[2] * arm[0] - w[0] * arm[2];
    state.velocity[2] = w[0] * arm[1] - w[1] * arm[0];
}

// The accelerations of the centre [m/s^2] and about it [rad/s^2] in `state` under `load`.
void accelerations(const FloatingMass& body, const FloatingState& state, const BodyLoad& load,
                   const double gravity[3], double linear[3], double angular[3]) {
    if (body.hinged) {
        for (int a = 0; a < 3; ++a) linear[a] = angular[a] = 0.0;
        angular[body.hinge_axis] = hinged_acceleration(body, state, load, gravity);
        return;
    }
    for (int a = 0; a < 3; ++a) {
        linear[a] = body.move[a] ? load.force[a] / body.mass + gravity[a] : 0.0;
    }
    const Mat3 inertia = world_inertia(body, state.orientation);
    const double* w = state.omega;
    double iw[3];
    for (int a = 0; a < 3; ++a) {
        iw[a] = inertia[3 * a] * w[0] + inertia[3 * a + 1] * w[1] + inertia[3 * a + 2] * w[2];
    }
    double rhs[3] = {load.moment[0] - (w[1] * iw[2] - w[2] * iw[1]),
                     load.moment[1] - (w[2] * iw[0] - w[0] * iw[2]),
                     load.moment[2] - (w[0] * iw[1] - w[1] * iw[0])};
    solve_free(inertia, rhs, body.turn, angular);
}

// q turned by the rotation vector `by` [rad] in the world's axes: exp(by / 2) q, normalised.
void turn_quaternion(const double q[4], const double by[3], double out[4]) {
    const double angle = std::sqrt(by[0] * by[0] + by[1] * by[1] + by[2] * by[2]);
    double d[4] = {1.0, 0.0, 0.0, 0.0};
    if (angle > 0.0) {
        const double s = std::sin(0.5 * angle) / angle;
        d[0] = std::cos(0.5 * angle);
        for (int a = 0; a < 3; ++a) d[1 + a] = s * by[a];
    }
    const double r[4] = {d[0] * q[0] - d[1] * q[1] - d[2] * q[2] - d[3] * q[3],
                         d[0] * q[1] + d[1] * q[0] + d[2] * q[3] - d[3] * q[2],
                         d[0] * q[2] - d[1] * q[3] + d[2] * q[0] + d[3] * q[1],
                         d[0] * q[3] + d[1] * q[2] - d[2] * q[1] + d[3] * q[0]};
    const double norm = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
    for (int k = 0; k < 4; ++k) out[k] = r[k] / norm;
}

}  // namespace

std::array<double, 9> rotation_matrix(const double q[4]) {
    const double w = q[0], x = q[1], y = q[2], z = q[3];
    return {1 - 2 * (y * y + z * z), 2 * (x * y - w * z),     2 * (x * z + w * y),
            2 * (x * y + w * z),     1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y),     2 * (y * z + w * x),     1 - 2 * (x * x + y * y)};
}

std::array<double, 3> rotation_vector(const double q[4]) {
    const double sign = q[0] < 0.0 ? -1.0 : 1.0;  // q and -q are one rotation: take w >= 0
    const double v = std::sqrt(q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (v == 0.0) return {0.0, 0.0, 0.0};
    const double angle = 2.0 * std::atan2(v, sign * q[0]);
    return {sign * q[1] / v * angle, sign * q[2] / v * angle, sign * q[3] / v * angle};
}

FloatingState predict_floating(const FloatingMass& body, const FloatingState& now,
                               const BodyLoad& load, const double gravity[3], double dt) {
    double linear[3], angular[3];
    accelerations(body, now, load, gravity, linear, angular);
    const double half = 0.5 * dt;
    FloatingState p = now;
    double by[3];
    for (int a = 0; a < 3; ++a) {
        p.centre[a] = now.centre[a] + half * now.velocity[a];
        p.velocity[a] = now.velocity[a] + half * linear[a];
        p.omega[a] = now.omega[a] + half * angular[a];
        by[a] = half * now.omega[a];
    }
    turn_quaternion(now.orientation, by, p.orientation);
    if (body.hinged) carry_round_hinge(body, p);
    return p;
}

FloatingState correct_floating(const FloatingMass& body, const FloatingState& now,
                               const FloatingState& predicted, const BodyLoad& load,
                               const double gravity[3], double dt) {
    double linear[3], angular[3];
    accelerations(body, predicted, load, gravity, linear, angular);
    FloatingState c = now;
    double by[3];
    for (int a = 0; a < 3; ++a) {
        c.velocity[a] = now.velocity[a] + dt * linear[a];
        c.omega[a] = now.omega[a] + dt * angular[a];
        c.centre[a] = now.centre[a] + 0.5 * dt * (now.velocity[a] + c.velocity[a]);
        by[a] = 0.5 * dt * (now.omega[a] + c.omega[a]);
    }
    turn_quaternion(now.orientation, by, c.orientation);
    if (body.hinged) carry_round_hinge(body, c);
    return c;
}

BodyPose pose_between(const FloatingState& from, const FloatingState& to) {
    BodyPose pose;
    const Mat3 turn =
        product(rotation_matrix(to.orientation), transposed(rotation_matrix(from.orientation)));
    const bool same =
        from.orientation[0] == to.orientation[0] && from.orientation[1] == to.orientation[1] &&
        from.orientation[2] == to.orientation[2] && from.orientation[3] == to.orientation[3];
    for (int k = 0; k < 9; ++k) pose.turn[k] = same ? (k % 4 == 0 ? 1.0 : 0.0) : turn[k];
    for (int a = 0; a < 3; ++a) {
        pose.from[a] = from.centre[a];
        pose.to[a] = to.centre[a];
        pose.velocity[a] = to.velocity[a];
        pose.omega[a] = to.omega[a];
    }
    return pose;
}

}  // namespace sph
