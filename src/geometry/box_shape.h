// A box as a Shape: what a mesh or a terrain is compared with, and the case files' simplest solid.
#pragma once

#include "geometry/shape.h"

namespace sph {

class BoxShape : public Shape {
public:
    explicit BoxShape(const Box& box) : box_(box) {}
    Box bounds() const override { return box_; }
    bool inside(const Vec3d& p) const override { return box_.contains(p[0], p[1], p[2]); }
    // Outside, the nearest point of the box (on a face, an edge or a corner); inside, the nearest
    // faces, every one of them equally near (an edge's or a corner's diagonal).
    SurfacePoint nearest(const Vec3d& p, double max_distance) const override;
    std::string describe() const override;
    const Box& box() const { return box_; }

private:
    Box box_;
};

}  // namespace sph
