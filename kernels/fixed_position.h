// Positions in fixed point: a particle's coordinates are whole numbers of a step, a power of two
// of a metre chosen for the domain (PositionFrame), held in 32-bit integers.
//
// Floats hold a position to 24 bits of its distance from the origin, so the spacing of the
// representable positions grows with the domain: 2e-5 dp in the far half of a hydrostatic tank at
// H / dp 100, where the still water was seen to drift from 3 s on, and 2e-4 dp 16 m from the
// origin at dp 1 cm. The pressure forces are large terms that cancel to g, and they moved by a
// part in 1e5 from one representable position to the next: a tank moved 2 m from the origin never
// settled (validation/results/cpu-tank-offset/). GPUSPH keeps positions relative to their cell and
// DualSPHysics in double; GADGET-4 keeps them as integers, as here. Integers spaced evenly over
// the whole domain give every particle the same resolution (a domain 1 m across: 1e-9 m), the
// difference of two positions is exact before it is turned into a float, so a pair's distance is
// as good as a float can hold, and a particle moving by less than a float's spacing still moves.
// A record keeps its 16 bytes: three integers and the w a float position had (particle_record.h).
#pragma once

#include <cmath>
#include <cstdint>

#include "vec.h"

namespace sph {

// A particle's position in steps of its frame; w as Vec4's was (the particle's type).
struct alignas(16) FixedPos {
    std::int32_t x, y, z;
    float w;
};

SPH_HD std::int32_t fixed_component(const FixedPos& p, int axis) {
    return axis == 0 ? p.x : axis == 1 ? p.y : p.z;
}

// a - b in steps as a float: the integer difference is exact (wrapping as unsigned, so that it is
// defined), and its float is the nearest one.
SPH_HD float steps_between(std::int32_t a, std::int32_t b) {
    return static_cast<float>(
        static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b)));
}

// The displacement a - b [m] for positions in steps of `unit` [m].
SPH_HD Vec3 displacement(const FixedPos& a, const FixedPos& b, float unit) {
    return make_vec3(steps_between(a.x, b.x) * unit, steps_between(a.y, b.y) * unit,
                     steps_between(a.z, b.z) * unit);
}

// How a run stores positions: the step (a power of two of a metre, so that scaling by it is
// exact) and where step 0 lies. The same for every device and rank of a run.
struct PositionFrame {
    double origin[3];  // [m] of position (0, 0, 0)
    float unit;        // [m] a step: a power of two
    float inv_unit;    // steps a metre

    // The displacement a - b [m].
    SPH_HD Vec3 between(const FixedPos& a, const FixedPos& b) const {
        return displacement(a, b, unit);
    }

    // Coordinate `steps` along `axis` moved by `metres`, to the nearest step. A move too long for
    // the frame (or not finite: a particle that blew up) ends at the frame's edge, outside every
    // grid, instead of wrapping round into the domain.
    SPH_HD std::int32_t moved(std::int32_t steps, float metres) const {
        constexpr float kLongest = 1073741824.0f;  // 2^30 steps
        const float by = rintf(metres * inv_unit);
        if (!(by > -kLongest && by < kLongest)) return by < 0.0f ? INT32_MIN : INT32_MAX;
        const std::int64_t to = std::int64_t(steps) + std::int64_t(by);
        return to > INT32_MAX ? INT32_MAX : to < INT32_MIN ? INT32_MIN : std::int32_t(to);
    }

    // p moved by d [m]; w kept.
    SPH_HD FixedPos moved(const FixedPos& p, Vec3 d) const {
        return FixedPos{moved(p.x, d.x), moved(p.y, d.y), moved(p.z, d.z), p.w};
    }

    // The coordinate along `axis` [m], to a float's precision (for reports and instruments'
    // absolute coordinates, never for differences).
    SPH_HD float metres(std::int32_t steps, int axis) const {
        return static_cast<float>(origin[axis] + double(steps) * double(unit));
    }
    SPH_HD Vec3 metres(const FixedPos& p) const {
        return make_vec3(metres(p.x, 0), metres(p.y, 1), metres(p.z, 2));
    }
    // In double, as exact as the step.
    void metres(const FixedPos& p, double out[3]) const {
        const std::int32_t s[3] = {p.x, p.y, p.z};
        for (int a = 0; a < 3; ++a) out[a] = origin[a] + double(s[a]) * double(unit);
    }

    // The nearest step to `at` [m] along `axis`, saturating at the frame's edges.
    std::int32_t steps(double at, int axis) const {
        const double s = std::nearbyint((at - origin[axis]) / double(unit));
        return !(s > double(INT32_MIN))   ? INT32_MIN
               : !(s < double(INT32_MAX)) ? INT32_MAX
                                          : std::int32_t(s);
    }
    // The nearest position to (x, y, z) [m], saturating at the frame's edges; w given.
    FixedPos fixed(double x, double y, double z, float w) const {
        return FixedPos{steps(x, 0), steps(y, 1), steps(z, 2), w};
    }
    FixedPos fixed(Vec3 p, float w = 0.0f) const { return fixed(p.x, p.y, p.z, w); }
};

// A frame with step 2^exponent m and step 0 at `origin`.
PositionFrame position_frame(const double origin[3], int exponent);

// The frame of a domain [lo, hi]: step 0 at lo, and the finest power-of-two step that spans the
// domain's longest side in at most 2^30 steps (a particle can then stray more than a domain's
// width beyond any side before its coordinate saturates).
PositionFrame frame_for_domain(const double lo[3], const double hi[3]);

// The frame a set of particles gets where no domain chose one (tests, tools): step 2^-24 m with
// step 0 at the origin, which holds +-128 m.
PositionFrame default_position_frame();

}  // namespace sph
