#include "geometry/shape.h"

namespace sph {

void Shape::inside_along(const Vec3d& start, int axis, double step, long count,
                         std::vector<char>& out) const {
    out.assign(static_cast<std::size_t>(count), 0);
    Vec3d p = start;
    for (long k = 0; k < count; ++k) {
        p[axis] = start[axis] + k * step;
        out[static_cast<std::size_t>(k)] = inside(p) ? 1 : 0;
    }
}

}  // namespace sph
