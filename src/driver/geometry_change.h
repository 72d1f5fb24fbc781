// What a what-if branch does to the walls at its decision point (branches/branch_plan.h): a
// problem's named region removed (a gate opens, a wall breaks; a box, or a case's mesh), or a
// box or a closed mesh filled with wall particles (a wall raised, an obstacle placed). Applied to
// the particles of the checkpoint the branch goes on from, before they are uploaded: the same code
// for a branch sharing the base's run and for the scenario run alone (--scenario), so the two stay
// bitwise identical.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "devices/host_particles.h"
#include "geometry/transform.h"
#include "problem.h"

namespace sph {

struct RunOptions;

struct GeometryChange {
    enum class Kind { kRemoveRegion, kAddBox, kAddMesh };
    Kind kind = Kind::kRemoveRegion;
    std::string region;   // kRemoveRegion: one of Problem::regions
    Box box{};            // kAddBox, as given
    std::string mesh;     // kAddMesh: the file of a closed mesh (geometry/mesh_reader.h) ...
    Transform transform;  // ... and where it is placed

    static GeometryChange removing(const std::string& region) {
        GeometryChange c;
        c.region = region;
        return c;
    }
    static GeometryChange adding(const Box& box) {
        GeometryChange c;
        c.kind = Kind::kAddBox;
        c.box = box;
        return c;
    }
    static GeometryChange adding(const std::string& mesh, const Transform& transform) {
        GeometryChange c;
        c.kind = Kind::kAddMesh;
        c.mesh = mesh;
        c.transform = transform;
        return c;
    }
};

struct GeometryOutcome {
    std::size_t walls_removed = 0, walls_added = 0;
    std::size_t fluid_removed = 0;  // water that stood where a box was added
    std::string describe() const;
};

// The region of `problem` called `name` at spacing dp; throws OptionError naming the regions the
// problem has when it has none of that name.
NamedRegion named_region(const Problem& problem, const std::string& name, double dp);

// Throws OptionError when `box` holds no lattice point at spacing dp or leaves the domain.
void check_added_box(const Problem& problem, const Box& box, double dp);

// Throws OptionError when the mesh cannot be read or is not a closed solid (naming the file and
// what is wrong), leaves the domain or holds no lattice point at spacing dp.
void check_added_mesh(const Problem& problem, const GeometryChange& mesh, double dp);

// Applies `changes` in order to `particles`:
// - removing a region removes the wall particles inside its box (the water stays);
// - adding a box fills it with wall particles on the run's lattice, at rest with density rho0,
//   the box snapped to the lattice points it holds (its faces half a spacing beyond them, as the
//   problems' walls are); the water inside goes. Its faces that touch other walls are dry, the
//   others wet: under mDBC the particles within the wall layers of a wet face get their ghost
//   offsets across it.
// - adding a mesh fills every lattice point inside it where no wall particle stands with wall
//   particles (geometry/lattice_fill.h); the water inside goes. Under mDBC, those within the
//   wall layers of its surface get ghost offsets across it where the water can reach it: where
//   the lattice point half a spacing beyond the surface holds no wall particle.
// New particles take ids after the largest in use.
// Throws OptionError for an unknown region, or a box or a mesh that does not fit (see above).
GeometryOutcome apply_geometry_changes(const std::vector<GeometryChange>& changes,
                                       const Problem& problem, const RunOptions& options,
                                       HostParticles& particles);

}  // namespace sph
