// The walls problems/lattice.h lays out for a box: what the geometry layer's fills are held to.
#pragma once

#include <vector>

#include "lattice.h"

namespace sph::testing {

// The wall particles of `box`, every lattice point inside, with ghost nodes across its `wet`
// faces down to `layers` spacings (problems/lattice.h, ghost_inside).
inline std::vector<SetupParticle> box_walls(const Box& box, const Faces& wet, double dp,
                                            int layers) {
    std::vector<SetupParticle> out;
    for_each_lattice_point(box, dp, [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        ghost_inside(box, wet, dp, layers, p);
        out.push_back(p);
    });
    return out;
}

}  // namespace sph::testing
