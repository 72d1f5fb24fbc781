// An axis-aligned box, the simplest shape: problems' tanks, obstacles, water and regions.
#pragma once

namespace sph {

struct Box {
    double lo[3];
    double hi[3];
    // Half-open: a point on the low faces is inside, one on the high faces is not.
    bool contains(double x, double y, double z) const {
        return x >= lo[0] && x < hi[0] && y >= lo[1] && y < hi[1] && z >= lo[2] && z < hi[2];
    }
};

}  // namespace sph
