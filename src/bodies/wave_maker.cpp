#include "bodies/wave_maker.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>

#include "common/errors.h"

namespace sph {

namespace {

std::string number(double v) {
    std::ostringstream os;
    os.precision(8);
    os << v;
    return os.str();
}

// The wave maker's inputs come from case files: a NaN or a sign slip must be named, not turned
// into a NaN stroke that only shows as particles leaving the domain.
void require_positive(double v, const char* what) {
    if (!(std::isfinite(v) && v > 0.0)) {
        throw OptionError(std::string("wave maker: ") + what +
                          " must be positive and finite, got " + number(v));
    }
}

void require_axis(int axis) {
    if (axis < 0 || axis > 2) {
        throw OptionError("wave maker: axis must be 0, 1 or 2 (x, y, z), got " +
                          std::to_string(axis));
    }
}

void require_finite(double v, const char* what) {
    if (!std::isfinite(v)) {
        throw OptionError(std::string("wave maker: ") + what + " must be finite, got " + number(v));
    }
}

// The root x = kd of x tanh(x) = y, y = omega^2 d / g > 0. F(x) = x tanh(x) - y increases with
// x, and tanh(x) < min(1, x) gives x > max(y, sqrt(y)) =: lo, hence x = y / tanh(x) <
// y / tanh(lo) =: hi. Newton's steps start from Eckart's approximation, x ~ y / sqrt(tanh(y))
// (Eckart 1952, "The propagation of gravity waves from deep to shallow water", NBS Circular
// 521), within about 5 % everywhere; any step that leaves the shrinking bracket is
// replaced by bisection, so the iteration cannot wander off in the region where F is not convex.
double dispersion_root(double y) {
    double lo = std::max(y, std::sqrt(y));
    double hi = y / std::tanh(lo);
    double x = std::clamp(y / std::sqrt(std::tanh(y)), lo, hi);
    for (int i = 0; i < 200 && lo < hi; ++i) {
        const double t = std::tanh(x);
        const double f = x * t - y;
        if (f == 0.0) return x;
        if (f > 0.0) {
            hi = std::min(hi, x);
        } else {
            lo = std::max(lo, x);
        }
        const double c = std::cosh(x);
        double next = x - f / (t + x / (c * c));  // F' = tanh x + x sech^2 x; sech^2 -> 0 deep
        if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
        if (std::fabs(next - x) <= 2.0 * std::numeric_limits<double>::epsilon() * next) {
            return next;
        }
        x = next;
    }
    return x;
}

// The paddle's speed dX/dt = c eta / (d + eta): under a wave of permanent form the depth-averaged
// velocity is u = c eta / (d + eta) (mass conservation in the frame moving with the wave), and
// Goring's piston moves with it. eta = H sech^2(kappa (c t - X - x0)), Boussinesq's wave.
double solitary_paddle_speed(const SolitaryPiston& p, double t, double x) {
    const double theta = p.kappa * (p.celerity * t - x - p.offset);
    const double ch = std::cosh(theta);  // inf far from the crest: eta 0, as it should be
    const double eta = p.height / (ch * ch);
    return p.celerity * eta / (p.depth + eta);
}

// One classical Runge-Kutta step of h from (t, x).
double rk4_step(const SolitaryPiston& p, double t, double x, double h) {
    const double k1 = solitary_paddle_speed(p, t, x);
    const double k2 = solitary_paddle_speed(p, t + 0.5 * h, x + 0.5 * h * k1);
    const double k3 = solitary_paddle_speed(p, t + 0.5 * h, x + 0.5 * h * k2);
    const double k4 = solitary_paddle_speed(p, t + h, x + h * k3);
    return x + h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
}

}  // namespace

// omega^2 = g k tanh(k d): linear (Airy) theory's dispersion relation, Dean & Dalrymple 1991,
// "Water Wave Mechanics for Engineers and Scientists", ch. 3. Solved for kd, where the
// relation depends on one number only.
double wave_number(double period, double depth, double g) {
    require_positive(period, "wave period");
    require_positive(depth, "water depth");
    require_positive(g, "gravity");
    const double omega = 2.0 * M_PI / period;
    const double y = omega * omega * depth / g;
    if (!(std::isfinite(y) && y > 0.0)) {
        throw OptionError("wave maker: period " + number(period) + " s and depth " + number(depth) +
                          " m are too far apart to solve for the wave number");
    }
    return dispersion_root(y) / depth;
}

// Biesel's piston transfer function (Biesel & Suquet 1951, "Les appareils generateurs de houle
// en laboratoire", La Houille Blanche; Dean & Dalrymple 1991, sec. 6.2):
//   H/S = 2 (cosh 2kd - 1) / (sinh 2kd + 2kd).
// With cosh 2x - 1 = 2 sinh^2 x and sinh 2x = 2 sinh x cosh x this is
//   H/S = 2 tanh x / (1 + 2x / sinh 2x),
// which neither overflows in deep water (cosh 2x is inf past x ~ 355) nor loses digits to the
// cancellation in cosh 2x - 1 in shallow water.
double piston_height_to_stroke(double kd) {
    require_positive(kd, "kd");
    return 2.0 * std::tanh(kd) / (1.0 + 2.0 * kd / std::sinh(2.0 * kd));
}

// The bottom-hinged flap's transfer function, stroke at the still-water level (same sources):
//   H/S = 4 (sinh x / x) (x sinh x - cosh x + 1) / (sinh 2x + 2x),  x = kd.
// Dividing through by sinh 2x, and using 1 - sech x = tanh(x/2) tanh x, gives
//   H/S = 2 tanh x (x - tanh(x/2)) / (x (1 + 2x / sinh 2x)),
// free of overflow and of cancellation (x - tanh(x/2) ~ x/2 for small x). Limits: kd/2 in
// shallow water (the flap moves the column on average half as far as a piston), 2 (1 - 1/kd)
// -> 2 in deep water (the flap's motion near the surface is all that counts there).
double flap_height_to_stroke(double kd) {
    require_positive(kd, "kd");
    const double t = std::tanh(kd);
    // t / kd first: the product t (kd - tanh(kd / 2)) would underflow for kd below ~1e-154.
    return 2.0 * (t / kd) * (kd - std::tanh(0.5 * kd)) / (1.0 + 2.0 * kd / std::sinh(2.0 * kd));
}

double piston_stroke(double height, double period, double depth, double g) {
    require_positive(height, "wave height");
    const double kd = wave_number(period, depth, g) * depth;
    return height / piston_height_to_stroke(kd);
}

double flap_stroke(double height, double period, double depth, double g) {
    require_positive(height, "wave height");
    const double kd = wave_number(period, depth, g) * depth;
    return height / flap_height_to_stroke(kd);
}

// Miche 1944, "Mouvements ondulatoires de la mer en profondeur constante ou decroissante",
// Annales des Ponts et Chaussees: H/L <= 0.142 tanh(kd), L = 2 pi / k. It gives the steepness
// limit 1/7 in deep water and H/d <= 0.89 in shallow water.
double miche_limit(double period, double depth, double g) {
    const double k = wave_number(period, depth, g);
    return 0.142 * (2.0 * M_PI / k) * std::tanh(k * depth);
}

BodyLaw regular_piston_law(double height, double period, double depth, int axis, double start,
                           double ramp_periods, double g) {
    require_axis(axis);
    require_positive(height, "wave height");
    require_finite(start, "start time");
    if (!(std::isfinite(ramp_periods) && ramp_periods >= 0.0)) {
        throw OptionError("wave maker: ramp must be zero or a positive number of periods, got " +
                          number(ramp_periods));
    }
    const double limit = miche_limit(period, depth, g);  // checks period, depth, g
    if (height > limit) {
        throw OptionError("wave maker: wave height " + number(height) + " m breaks at period " +
                          number(period) + " s in depth " + number(depth) +
                          " m (Miche's limit is " + number(limit) + " m)");
    }
    BodyLaw law;
    law.kind = MotionKind::kSinusoid;
    law.start = start;
    // Amplitude, not stroke: the sinusoid swings A either side, the stroke S = 2 A.
    law.vector[axis] = 0.5 * piston_stroke(height, period, depth, g);
    law.period = period;
    // A ramp spares the fluid the paddle's sudden start (a jump from rest to omega A): the
    // transient it would send ahead of the waves.
    law.ramp = ramp_periods * period;
    return law;
}

// Goring 1978, "Tsunamis - the propagation of long waves onto a shelf", Caltech report KH-R-38,
// and Guizien & Barthelemy 2002, "Accuracy of solitary wave generation by a piston wave maker",
// J. Hydraulic Research 40(3): Boussinesq's solitary wave eta = H sech^2(kappa (x - c t)) with
// kappa = sqrt(3 H / (4 d^3)) and c = sqrt(g (d + H)).
//
// With theta = kappa (c t - X - x0), the paddle's law dX/dt = c eta / (d + eta) gives
// dtheta/dt = kappa c d / (d + eta), so dX/dtheta = eta / (kappa d) and
//   X = H / (kappa d) (tanh theta - tanh theta0),  t = (theta - theta0) / (kappa c) + X / c:
// the whole stroke is 2 H / (kappa d) = sqrt(16 H d / 3). Goring starts the virtual crest at
// kappa x0 = 3.8, where the paddle already moves at 0.2 % of its peak speed; here the start is
// put where it moves at kSolitaryRest of it, as the end is, so that the paddle leaves rest and
// comes back to it as the series' law (resting before its first sample and after its last)
// says. That puts kappa x0 near 7.6 (for 1e-6), and costs about 3.8 / (kappa c) more seconds of
// a paddle barely moving at the start.
SolitaryPiston solitary_piston(double height, double depth, double g) {
    require_positive(height, "solitary wave height");
    require_positive(depth, "water depth");
    require_positive(g, "gravity");
    if (height > 0.6 * depth) {
        // Boussinesq's wave is a weakly nonlinear, long-wave approximation: its error grows with
        // H/d, and a solitary wave breaks near H/d = 0.78 (McCowan 1894).
        throw OptionError("wave maker: solitary wave height " + number(height) + " m in depth " +
                          number(depth) + " m is H/d = " + number(height / depth) +
                          ", over the 0.6 this first-order theory allows");
    }
    SolitaryPiston p;
    p.height = height;
    p.depth = depth;
    p.kappa = std::sqrt(3.0 * height / (4.0 * depth * depth * depth));
    p.celerity = std::sqrt(g * (depth + height));
    p.stroke = 2.0 * height / (p.kappa * depth);
    p.peak_speed = p.celerity * height / (depth + height);
    // sech^2 theta = s where c eta / (d + eta) = kSolitaryRest * c H / (d + H).
    const double e = kSolitaryRest;
    const double s = e * depth / (depth + height * (1.0 - e));
    const double theta_end = std::acosh(1.0 / std::sqrt(s));
    p.offset = theta_end / p.kappa;
    const double travel = height / (p.kappa * depth) * 2.0 * std::tanh(theta_end);
    p.duration = 2.0 * theta_end / (p.kappa * p.celerity) + travel / p.celerity;
    return p;
}

std::vector<std::array<double, 4>> solitary_piston_series(double height, double depth, int axis,
                                                          double start, double g,
                                                          double sample_dt) {
    require_axis(axis);
    require_finite(start, "start time");
    if (!(std::isfinite(sample_dt) && sample_dt >= 0.0)) {
        throw OptionError("wave maker: sample interval must be zero (automatic) or positive, got " +
                          number(sample_dt));
    }
    const SolitaryPiston p = solitary_piston(height, depth, g);
    const double dt = sample_dt > 0.0 ? sample_dt : p.duration / 400.0;
    if (dt > p.duration) {
        // Two samples would make the paddle's S-shaped stroke one straight push.
        throw OptionError("wave maker: sample interval " + number(dt) +
                          " s is longer than the paddle's whole motion, " + number(p.duration) +
                          " s");
    }
    const double intervals = std::ceil(p.duration / dt);
    if (intervals > 1e7) {
        throw OptionError("wave maker: sample interval " + number(sample_dt) + " s gives " +
                          number(intervals) + " samples over the paddle's " + number(p.duration) +
                          " s; at most 1e7");
    }
    // RK4 steps of at most 0.005 / (kappa c), so theta moves by at most 0.005 a step: the
    // trajectory then meets Goring's closed form to about 1e-12 of the stroke, far below the
    // sampling's own error. A whole number of steps a sample interval puts samples on steps.
    const double fine = 0.005 / (p.kappa * p.celerity);
    const int substeps = int(std::max(1.0, std::ceil(dt / fine)));
    const double h = dt / substeps;
    const long n = long(intervals);
    std::vector<std::array<double, 4>> samples;
    samples.reserve(std::size_t(n) + 1);
    double x = 0.0;
    for (long i = 0; i <= n; ++i) {
        std::array<double, 4> sample{start + double(i) * dt, 0.0, 0.0, 0.0};
        sample[1 + axis] = x;
        if (i > 0 && !(sample[0] > samples.back()[0])) {
            throw OptionError("wave maker: sample interval " + number(dt) +
                              " s is too fine to tell times apart after start " + number(start) +
                              " s");
        }
        samples.push_back(sample);
        const double t0 = double(i) * dt;
        for (int j = 0; j < substeps && i < n; ++j) x = rk4_step(p, t0 + j * h, x, h);
    }
    return samples;
}

}  // namespace sph
