// Where a shape read from a file is placed in the run's frame: scaled, rotated, then translated.
#pragma once

#include <cmath>

#include "geometry/shape.h"

namespace sph {

struct Transform {
    double scale = 1.0;         // a file in millimetres: 0.001
    Vec3d rotate_deg{0, 0, 0};  // about x, then y, then z (the run's fixed axes) [degrees]
    Vec3d translate{0, 0, 0};   // [m], after scaling and rotating

    Vec3d apply(const Vec3d& p) const {
        constexpr double kRad = 3.14159265358979323846 / 180.0;
        Vec3d q{p[0] * scale, p[1] * scale, p[2] * scale};
        for (int axis = 0; axis < 3; ++axis) {
            if (rotate_deg[axis] == 0.0) continue;
            const double c = std::cos(rotate_deg[axis] * kRad),
                         s = std::sin(rotate_deg[axis] * kRad);
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            const double qu = q[u], qv = q[v];
            q[u] = c * qu - s * qv;
            q[v] = s * qu + c * qv;
        }
        return {q[0] + translate[0], q[1] + translate[1], q[2] + translate[2]};
    }
    bool identity() const {
        return scale == 1.0 && rotate_deg == Vec3d{0, 0, 0} && translate == Vec3d{0, 0, 0};
    }
};

}  // namespace sph
