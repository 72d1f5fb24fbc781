#include "driver/geometry_change.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_set>

#include "common/errors.h"
#include "driver/run_options.h"
#include "geometry/lattice_fill.h"
#include "geometry/mesh_reader.h"
#include "geometry/mesh_shape.h"
#include "lattice.h"

namespace sph {

std::string GeometryOutcome::describe() const {
    std::ostringstream s;
    s << walls_removed << " wall particle(s) removed, " << walls_added << " added, "
      << fluid_removed << " fluid particle(s) removed where walls were added";
    return s.str();
}

NamedRegion named_region(const Problem& problem, const std::string& name, double dp) {
    std::string known;
    for (const NamedRegion& r : problem.regions(dp)) {
        if (r.name == name) return r;
        known += (known.empty() ? "" : ", ") + r.name;
    }
    throw OptionError(problem.name() + " has no region '" + name + "' (" +
                      (known.empty() ? std::string("it names none") : "it has: " + known) + ")");
}

namespace {

template <class Region>
bool inside(const Region& region, const HostParticles& particles, std::size_t i) {
    double at[3];
    particles.position(i, at);
    return region.contains(at[0], at[1], at[2]);
}

// The faces of `solid` (-x, +x, -y, +y, -z, +z) that no wall particle lies just beyond (within
// one spacing, across the face's extent): those the water can reach.
Faces wet_faces(const Box& solid, const HostParticles& particles, double dp) {
    Faces wet{{true, true, true, true, true, true}};
    for (std::size_t i = 0; i < particles.size(); ++i) {
        if (particles.type[i] == kFluid) continue;
        double at[3];
        particles.position(i, at);
        for (int f = 0; f < 6; ++f) {
            const int a = f / 2;
            const double beyond = f % 2 == 0 ? solid.lo[a] - at[a] : at[a] - solid.hi[a];
            if (beyond <= 0.0 || beyond > dp) continue;
            bool across = true;  // within the face's extent on the other two axes
            for (int b = 0; b < 3; ++b) {
                if (b != a && (at[b] < solid.lo[b] || at[b] > solid.hi[b])) across = false;
            }
            if (across) wet.face[f] = false;
        }
    }
    return wet;
}

template <class Region>
void remove_where(HostParticles& particles, const Region& box, bool fluid, std::size_t& count) {
    HostParticles kept;
    kept.frame = particles.frame;
    for (std::size_t i = 0; i < particles.size(); ++i) {
        if ((particles.type[i] == kFluid) == fluid && inside(box, particles, i)) {
            ++count;
        } else {
            kept.append(particles, i);
        }
    }
    particles = std::move(kept);
}

ParticleType added_wall_kind(const RunOptions& o) {
    return o.slip == RunOptions::Slip::kFreeSlip ? kFreeSlipBoundary : kBoundary;
}

std::uint32_t next_free_id(const HostParticles& particles) {
    std::uint32_t next_id = 0;
    for (std::uint32_t id : particles.id) next_id = std::max(next_id, id + 1);
    return next_id;
}

void add_box(const Box& box, const RunOptions& o, HostParticles& particles,
             GeometryOutcome& outcome) {
    const Box solid = snapped_to_lattice(box, o.dp);
    remove_where(particles, solid, true, outcome.fluid_removed);
    const Faces wet = wet_faces(solid, particles, o.dp);
    std::uint32_t next_id = next_free_id(particles);
    for_each_lattice_point(solid, o.dp, [&](double x, double y, double z) {
        SetupParticle p{x, y, z, kBoundary, 0.0};
        if (o.boundary == BoundaryModel::kMdbc) ghost_inside(solid, wet, o.dp, kWallLayers, p);
        particles.add(particles.frame.fixed(x, y, z, 0.0f), make_vec3(0, 0, 0), float(o.rho0),
                      added_wall_kind(o),
                      make_vec3(float(p.to_ghost[0]), float(p.to_ghost[1]), float(p.to_ghost[2])));
        particles.id.back() = next_id++;
        ++outcome.walls_added;
    });
}

// A shape as remove_where asks of a region.
struct ShapeRegion {
    const Shape& shape;
    bool contains(double x, double y, double z) const { return shape.inside(Vec3d{x, y, z}); }
};

// The lattice points (problems/lattice.h: (i + 1/2) dp) where wall particles stand.
class WallSites {
public:
    WallSites(const HostParticles& particles, double dp) : dp_(dp) {
        for (std::size_t i = 0; i < particles.size(); ++i) {
            if (particles.type[i] == kFluid) continue;
            double at[3];
            particles.position(i, at);
            sites_.insert(key(Vec3d{at[0], at[1], at[2]}));
        }
    }
    // Whether a wall particle stands at the lattice point nearest `p`.
    bool holds(const Vec3d& p) const { return sites_.count(key(p)) != 0; }

private:
    std::uint64_t key(const Vec3d& p) const {
        // 21 bits an axis, offset so that cells below the origin are counted too.
        std::uint64_t k = 0;
        for (int a = 0; a < 3; ++a) {
            const auto cell = static_cast<std::int64_t>(std::floor(p[a] / dp_)) + (1 << 20);
            k = (k << 21) | (static_cast<std::uint64_t>(cell) & ((1u << 21) - 1));
        }
        return k;
    }
    double dp_;
    std::unordered_set<std::uint64_t> sites_;
};

void add_mesh(const GeometryChange& change, const RunOptions& o, HostParticles& particles,
              GeometryOutcome& outcome) {
    const MeshShape solid(read_closed_solid(change.mesh, change.transform));
    remove_where(particles, ShapeRegion{solid}, true, outcome.fluid_removed);
    const WallSites walls(particles, o.dp);
    WallFill fill;
    fill.layers = kWallLayers;
    fill.hollow = false;  // a solid obstacle, as add_box fills a box
    fill.wet = [&walls](const Vec3d& beyond) { return !walls.holds(beyond); };
    std::uint32_t next_id = next_free_id(particles);
    fill_solid_walls(solid, o.dp, fill, [&](const LatticeSite& site) {
        if (walls.holds(site.at)) return;  // the wall it overlaps is there already
        const Vec3d g = o.boundary == BoundaryModel::kMdbc ? site.to_ghost : Vec3d{0, 0, 0};
        particles.add(particles.frame.fixed(site.at[0], site.at[1], site.at[2], 0.0f),
                      make_vec3(0, 0, 0), float(o.rho0), added_wall_kind(o),
                      make_vec3(float(g[0]), float(g[1]), float(g[2])));
        particles.id.back() = next_id++;
        ++outcome.walls_added;
    });
}

}  // namespace

void check_added_mesh(const Problem& problem, const GeometryChange& mesh, double dp) {
    const MeshShape solid(read_closed_solid(mesh.mesh, mesh.transform));
    const Box bounds = solid.bounds(), domain = problem.domain(dp);
    for (int a = 0; a < 3; ++a) {
        if (bounds.lo[a] < domain.lo[a] || bounds.hi[a] > domain.hi[a]) {
            throw OptionError("add_mesh " + mesh.mesh + ": the mesh (" + solid.describe() +
                              ") leaves " + problem.name() + "'s domain");
        }
    }
    std::size_t points = 0;
    WallFill fill;
    fill.hollow = false;
    fill_solid_walls(solid, dp, fill, [&points](const LatticeSite&) { ++points; });
    if (points == 0) {
        throw OptionError("add_mesh " + mesh.mesh + ": no particle fits in it at --dp " +
                          std::to_string(dp) + " (make it at least one spacing wide)");
    }
}

void check_added_box(const Problem& problem, const Box& box, double dp) {
    const Box solid = snapped_to_lattice(box, dp);
    const Box domain = problem.domain(dp);
    std::ostringstream where;
    where << "add_box " << box.lo[0] << " " << box.lo[1] << " " << box.lo[2] << " " << box.hi[0]
          << " " << box.hi[1] << " " << box.hi[2];
    for (int a = 0; a < 3; ++a) {
        if (!(solid.lo[a] < solid.hi[a])) {
            throw OptionError(where.str() + ": no particle fits in it at --dp " +
                              std::to_string(dp) + " (make it at least one spacing wide)");
        }
        if (solid.lo[a] < domain.lo[a] || solid.hi[a] > domain.hi[a]) {
            throw OptionError(where.str() + ": the box leaves " + problem.name() + "'s domain");
        }
    }
}

GeometryOutcome apply_geometry_changes(const std::vector<GeometryChange>& changes,
                                       const Problem& problem, const RunOptions& o,
                                       HostParticles& particles) {
    GeometryOutcome outcome;
    for (const GeometryChange& change : changes) {
        if (change.kind == GeometryChange::Kind::kRemoveRegion) {
            const NamedRegion region = named_region(problem, change.region, o.dp);
            remove_where(particles, region, false, outcome.walls_removed);
        } else if (change.kind == GeometryChange::Kind::kAddBox) {
            check_added_box(problem, change.box, o.dp);
            add_box(change.box, o, particles, outcome);
        } else {
            add_mesh(change, o, particles, outcome);  // checked with the branch plan
        }
    }
    return outcome;
}

}  // namespace sph
