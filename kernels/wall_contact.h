// Keeps lone fluid particles out of mDBC walls (--no-penetration).
//
// Under mDBC a wall's density is fitted from the fluid around its ghost node (mdbc_body.h), so a
// wall pushes back only as hard as the water beside it is compressed. A particle that flies at a
// wall alone (spray off an impact) brings no compressed water with it. The fit then gives the
// wall the particle's own density, the wall's pressure stays near zero, and nothing stops the
// particle. Inside the wall, continuity with the wall particles raises its density until its own
// pressure throws it out, at several times the flow's speed (bench/NOTES.md entry 36). DBC walls
// let no such particle in, because their density grows as fluid closes on them. DualSPHysics 5.4
// corrects the velocity of its mDBC fluid for the same reason.
//
// The water meets an mDBC wall at dp/2 from its surface, the plane half-way between a wall's
// first layer and its ghost nodes. A fluid particle closing on the face of its nearest wall
// neighbour b (n: b's unit offset to its ghost node, pointing into the water) within dp/4 of
// that surface loses the part phi (v . n) of its velocity along n. phi = 1 - s / (dp/4), for s
// its distance from the surface: 0 at dp/4, 1 on the surface (it stops closing), and at most 2
// from dp/4 inside (it bounces straight back out). That is an inelastic contact, not a force:
// the corrector adds it to the acceleration as that velocity change over the step's dt, and it
// is left out of the particle's stable dt.
//
// Only a face's first layer counts: its ghost node lies dp from it along the face's normal. At
// an edge or a corner the ghost node lies diagonally, and the plane half-way to it cuts the
// corner off, so it would stop particles that only flow past. A deeper layer is the nearest wall
// particle only once a particle is already in. Water at rest, or flowing along a wall, stays dp/2
// off it and never comes within dp/4, so still water is the same to the bit with or without.
#pragma once

#include <cmath>
#include <cstdint>

#include "vec.h"

namespace sph {

// A fluid particle's nearest wall neighbour, tracked through its pair loop.
struct NearestWall {
    float r2 = INFINITY;  // its squared distance [m^2]: infinite where no wall is listed
    std::uint32_t index = 0;
};

// The velocity change [m/s] that keeps a fluid particle moving at v out of the face of wall
// particle b, at r = x_i - x_b from it; zero where none is due (see above).
SPH_HD Vec3 contact_velocity_change(Vec3 r, Vec3 v, Vec3 to_ghost, float dp) {
    const Vec3 none = make_vec3(0.0f, 0.0f, 0.0f);
    const float g2 = length_squared(to_ghost);
    // A face's first layer: its ghost node dp away (an edge's lies sqrt 2 dp away, a corner's
    // sqrt 3 dp, a deeper layer's 3 dp or more).
    if (!(g2 > 0.81f * dp * dp && g2 < 1.21f * dp * dp)) return none;
    const float g = sqrtf(g2);
    const Vec3 n = (1.0f / g) * to_ghost;
    const float closing = dot(v, n);
    const float layer = 0.25f * dp;
    const float s = dot(r, n) - 0.5f * g;  // from the surface, positive on the water's side
    if (!(closing < 0.0f) || !(s < layer)) return none;
    const float phi = fminf(1.0f - s / layer, 2.0f);
    return (-phi * closing) * n;
}

}  // namespace sph
