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
// first layer and its ghost nodes. A fluid particle closing on that surface where its nearest
// wall neighbour b lies (n: the surface's normal there, pointing into the water; on a face, b's
// unit offset to its ghost node) within dp/4 of it loses the part phi (v . n) of its velocity
// along n. phi = 1 - s / (dp/4), for s
// its distance from the surface: 0 at dp/4, 1 on the surface (it stops closing), and at most 2
// from dp/4 inside (it bounces straight back out). That is an inelastic contact, not a force:
// the corrector adds it to the acceleration as that velocity change over the step's dt, and it
// is left out of the particle's stable dt.
//
// Only a wall's first layer counts, where b's ghost node tells where the surface is: a face's
// ghost node lies dp from it along the face's normal, an edge's or a corner's diagonally, dp
// along each of the two or three faces' normals (problems/lattice.h). The surface beside an edge
// or a corner is not the plane half-way to the ghost node, which would cut the corner off and
// stop particles that only flow past: it is the edge or the corner itself, and the two or three
// faces that meet there. A particle outside them is as far from the surface as from its nearest
// point on them (radially from an edge or a corner, straight across from a face), and is pushed
// back along that line; one already in is pushed out across the face it is nearest. That holds
// for a convex edge (an obstacle's) and for a concave one (a tank's corner) alike: the edge
// particle of a concave corner is a fluid particle's nearest wall only once it is inside both
// faces. A deeper layer is the nearest wall particle only once a particle is already in.
//
// Water at rest, or flowing along a wall, stays dp/2 off it and never comes within dp/4, so
// still water is the same to the bit with or without.
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

// Where a fluid particle at r = x_i - x_b from wall particle b is, seen from b's part of the
// wall's surface (see above): its distance s from it (negative inside), and the unit normal n
// along which it closes on it.
struct SurfaceContact {
    bool found = false;  // false: b is no first-layer particle
    float s = 0.0f;
    Vec3 n = make_vec3(0.0f, 0.0f, 0.0f);
};

SPH_HD SurfaceContact surface_contact(Vec3 r, Vec3 to_ghost, float dp) {
    SurfaceContact c;
    const float g2 = length_squared(to_ghost);
    // A face's first layer, in any direction: its ghost node dp away.
    if (g2 > 0.81f * dp * dp && g2 < 1.21f * dp * dp) {
        const float g = sqrtf(g2);
        c.found = true;
        c.n = (1.0f / g) * to_ghost;
        c.s = dot(r, c.n) - 0.5f * g;  // from the surface, positive on the water's side
        return c;
    }
    // An edge's or a corner's first layer: each component of its offset 0 or +-dp (lattices are
    // set along the axes), its edge or corner at half the offset. u: how far the particle is out
    // along each face's normal, from the edge or corner (and of the faces meeting there).
    const float g_axes[3] = {to_ghost.x, to_ghost.y, to_ghost.z};
    const float r_axes[3] = {r.x, r.y, r.z};
    float u[3] = {0.0f, 0.0f, 0.0f}, sign[3] = {0.0f, 0.0f, 0.0f};
    int faces = 0;
    for (int a = 0; a < 3; ++a) {
        const float g = fabsf(g_axes[a]);
        if (g < 0.1f * dp) continue;
        if (!(g > 0.9f * dp && g < 1.1f * dp)) return c;  // a deeper layer
        sign[a] = g_axes[a] > 0.0f ? 1.0f : -1.0f;
        u[a] = sign[a] * (r_axes[a] - 0.5f * g_axes[a]);
        ++faces;
    }
    if (faces < 2) return c;
    float out2 = 0.0f;  // squared distance outside every face that meets there
    for (int a = 0; a < 3; ++a) out2 += sign[a] != 0.0f && u[a] > 0.0f ? u[a] * u[a] : 0.0f;
    float axes_n[3] = {0.0f, 0.0f, 0.0f};
    if (out2 > 0.0f) {  // outside: from the nearest point of the edge or corner and its faces
        c.s = sqrtf(out2);
        for (int a = 0; a < 3; ++a) {
            axes_n[a] = sign[a] != 0.0f && u[a] > 0.0f ? sign[a] * u[a] / c.s : 0.0f;
        }
    } else {  // in: out across the nearest face (the first of equals)
        int nearest = -1;
        c.s = -INFINITY;
        for (int a = 0; a < 3; ++a) {
            const bool nearer = sign[a] != 0.0f && u[a] > c.s;
            nearest = nearer ? a : nearest;
            c.s = nearer ? u[a] : c.s;
        }
        for (int a = 0; a < 3; ++a) axes_n[a] = a == nearest ? sign[a] : 0.0f;
    }
    c.found = true;
    c.n = make_vec3(axes_n[0], axes_n[1], axes_n[2]);
    return c;
}

// The velocity change [m/s] that keeps a fluid particle moving at v out of the wall at wall
// particle b, at r = x_i - x_b from it; zero where none is due (see above).
SPH_HD Vec3 contact_velocity_change(Vec3 r, Vec3 v, Vec3 to_ghost, float dp) {
    const Vec3 none = make_vec3(0.0f, 0.0f, 0.0f);
    const SurfaceContact c = surface_contact(r, to_ghost, dp);
    if (!c.found) return none;
    const float closing = dot(v, c.n);
    const float layer = 0.25f * dp;
    if (!(closing < 0.0f) || !(c.s < layer)) return none;
    const float phi = fminf(1.0f - c.s / layer, 2.0f);
    return (-phi * closing) * c.n;
}

}  // namespace sph
