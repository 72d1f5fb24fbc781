// Wave-maker theory: the paddle motion that makes a wave of a chosen height, as the laws of
// kernels/body_motion.h that move a body of wall particles. Host-side only and free of the
// simulator's state, so that a case can turn "a 5 cm wave of 1.2 s in 0.4 m of water" into a
// piston's law before a run starts, and the tests can check the theory on its own.
//
// All of it is linear (first-order) theory except the solitary wave, and all of it assumes a
// flat bed of depth d in front of the paddle. Lengths in metres, times in seconds, g in m/s^2.
// Every function refuses (OptionError, a std::invalid_argument) a value it cannot use and names it.
#pragma once

#include <array>
#include <vector>

#include "body_motion.h"

namespace sph {

// The wave number k [1/m] of a linear wave of `period` T in water of `depth` d: the root of the
// dispersion relation omega^2 = g k tanh(k d), omega = 2 pi / T. Accurate to a few ulps from
// deep (kd >> 1) to shallow (kd << 1) water.
double wave_number(double period, double depth, double g = 9.81);

// Biesel's transfer functions H/S: the wave height H a paddle of stroke S (its full excursion,
// twice the amplitude) makes, as functions of kd alone.
//   piston: kd in shallow water, 2 in deep water;
//   flap hinged at the bed, S measured at the still-water level: kd/2 in shallow water, 2 in deep.
double piston_height_to_stroke(double kd);
double flap_height_to_stroke(double kd);

// The stroke S [m] of a piston or of a bottom-hinged flap (at the still-water level) that makes
// regular waves of `height` H and `period` T in water of `depth` d (first order).
double piston_stroke(double height, double period, double depth, double g = 9.81);
double flap_stroke(double height, double period, double depth, double g = 9.81);

// The greatest height of a regular wave of that period in that depth before it breaks, by Miche's
// criterion H/L = 0.142 tanh(kd).
double miche_limit(double period, double depth, double g = 9.81);

// A piston's law for regular waves: a kSinusoid along `axis` (0, 1, 2) of amplitude S/2 and
// period T from `start`, ramped in over `ramp_periods` periods (0: no ramp). The paddle first
// moves towards +axis. Refuses a wave that would break (miche_limit), non-positive height,
// period or depth, a negative ramp, an axis out of range.
BodyLaw regular_piston_law(double height, double period, double depth, int axis, double start,
                           double ramp_periods = 2.0, double g = 9.81);

// The constants of Goring's solitary-wave paddle (see solitary_piston_series).
struct SolitaryPiston {
    double height = 0.0;    // [m] H
    double depth = 0.0;     // [m] d
    double kappa = 0.0;     // [1/m] sqrt(3 H / (4 d^3)), the wave's shape factor
    double celerity = 0.0;  // [m/s] c = sqrt(g (d + H))
    double stroke = 0.0;    // [m] 2 H / (kappa d) = sqrt(16 H d / 3): the theoretical whole stroke
    double offset = 0.0;    // [m] x0: how far behind the paddle the virtual crest is at t = 0
    double duration = 0.0;  // [s] until the paddle's speed has fallen to kSolitaryRest of its peak
    double peak_speed = 0.0;  // [m/s] c H / (d + H), as the crest passes the paddle
};

// The fraction of its peak speed below which the solitary paddle counts as at rest: it starts
// and stops there.
constexpr double kSolitaryRest = 1e-6;

// Goring's constants for a solitary wave of `height` H in `depth` d; refuses H/d > 0.6.
SolitaryPiston solitary_piston(double height, double depth, double g = 9.81);

// A piston's trajectory for one solitary wave of `height` H in `depth` d (Goring 1978), as the
// samples (t, dx, dy, dz) of a kSeries law: the displacement along `axis` (towards +axis) only,
// times from `start`, the first sample (start, 0, 0, 0), times strictly increasing, the last at
// or after start + duration. sample_dt 0 spaces 400 intervals over the duration; one longer than
// the duration is refused.
std::vector<std::array<double, 4>> solitary_piston_series(double height, double depth, int axis,
                                                          double start, double g = 9.81,
                                                          double sample_dt = 0.0);

}  // namespace sph
