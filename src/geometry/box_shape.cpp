#include "geometry/box_shape.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace sph {

namespace {

SurfacePoint nearest_from_outside(const Box& box, const Vec3d& p) {
    SurfacePoint s;
    double squared = 0.0;
    int clamped = 0;
    for (int a = 0; a < 3; ++a) {
        s.point[a] = std::min(std::max(p[a], box.lo[a]), box.hi[a]);
        const double d = p[a] - s.point[a];
        squared += d * d;
        clamped += d != 0.0;
    }
    s.distance = std::sqrt(squared);
    s.on_face = clamped == 1;
    s.faces = 1;
    s.face_distance[0] = s.distance;
    for (int a = 0; a < 3; ++a)
        s.normals[0][a] = s.distance > 0 ? (p[a] - s.point[a]) / s.distance : 0;
    return s;
}

SurfacePoint nearest_from_inside(const Box& box, const Vec3d& p) {
    SurfacePoint s;
    s.inside = true;
    // All six faces, sorted by distance (ties by axis, then the low side first).
    struct Face {
        double distance;
        int axis, side;
    } faces[6];
    for (int a = 0; a < 3; ++a) {
        faces[2 * a] = Face{p[a] - box.lo[a], a, -1};
        faces[2 * a + 1] = Face{box.hi[a] - p[a], a, +1};
    }
    std::sort(faces, faces + 6, [](const Face& u, const Face& v) {
        if (u.distance != v.distance) return u.distance < v.distance;
        return u.axis < v.axis || (u.axis == v.axis && u.side < v.side);
    });
    s.distance = faces[0].distance;
    s.point = p;
    s.point[faces[0].axis] = faces[0].side < 0 ? box.lo[faces[0].axis] : box.hi[faces[0].axis];
    for (const Face& f : faces) {
        Vec3d n{0, 0, 0};
        n[f.axis] = f.side;
        s.normals[s.faces] = n;
        s.face_distance[s.faces++] = f.distance;
    }
    s.on_face = true;
    return s;
}

}  // namespace

SurfacePoint BoxShape::nearest(const Vec3d& p, double max_distance) const {
    SurfacePoint s = inside(p) ? nearest_from_inside(box_, p) : nearest_from_outside(box_, p);
    if (s.distance > max_distance) {
        SurfacePoint far;
        far.distance = s.distance;
        return far;
    }
    return s;
}

std::string BoxShape::describe() const {
    std::ostringstream text;
    text << "box [" << box_.lo[0] << ", " << box_.hi[0] << "] x [" << box_.lo[1] << ", "
         << box_.hi[1] << "] x [" << box_.lo[2] << ", " << box_.hi[2] << "]";
    return text.str();
}

}  // namespace sph
