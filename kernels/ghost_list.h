// The neighbour lists of mDBC's wall particles: of the fluid around their ghost nodes.
//
// Under mDBC a wall particle computes nothing in Forces; its list served only to tell whether
// any fluid was near (a dry wall takes rho0), and its density was then fitted from the fluid
// within 2h of its ghost node, found by testing every particle of the 27 cells around the node:
// about 475 candidates for some 30 fluid particles, per wall particle and step, 46 % of a
// SPHERIC run's loop on the H100. So a wall particle with a ghost node lists instead the fluid
// within the list radius of its ghost node, in the rows of cells around the node's cell, in the
// order the cell walk visits them; and nothing where no fluid lies within the list radius of the
// wall particle itself (dry). mdbc_body.h walks that list; the sums are the cell walk's, in the
// same order, bit for bit, as long as no fluid comes within 2h of the node that was beyond the
// list radius at the rebuild (the skin's promise, as for Forces).
#pragma once

#include <cstdint>

#include "cell_grid.h"
#include "vec.h"

namespace sph {

// A wall particle's ghost node, as its list is built around it: where the node lies, and its
// cell, which is the grid's outside cell where the particle has no node (a zero offset) or the
// node lies outside the grid (the particle's list is then of its own cell).
struct GhostNode {
    FixedPos at;
    std::uint32_t cell;
};

// The ghost node of a particle at `pos` with ghost-node offset `to_ghost`: moved once, its cell
// hashed from where it lies (build_neibs_body.h lists around both).
SPH_HD GhostNode ghost_node(const FixedPos& pos, Vec3 to_ghost, const CellGrid& grid) {
    if (to_ghost.x == 0.0f && to_ghost.y == 0.0f && to_ghost.z == 0.0f) {
        return GhostNode{pos, grid.outside_cell()};
    }
    const FixedPos at = grid.frame.moved(pos, to_ghost);
    return GhostNode{at, grid.cell_of(at)};
}

}  // namespace sph
