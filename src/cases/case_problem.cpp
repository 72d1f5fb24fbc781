#include "cases/case_problem.h"

#include <boost/program_options.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "cases/case_bodies.h"
#include "cases/case_file.h"
#include "cases/case_shapes.h"
#include "common/errors.h"
#include "geometry/lattice_fill.h"
#include "geometry/terrain.h"
#include "lattice.h"

namespace po = boost::program_options;

namespace sph {

namespace {

// A tank's walls as a solid: its outer box less its inside open to the top. Only inside() is
// asked of it (water below a level keeps out of it).
class TankWalls : public Shape {
public:
    TankWalls(const CaseTank& tank, double dp, int layers) {
        const double t = layers * dp;
        outer_ = Box{{tank.inside.lo[0] - t, tank.inside.lo[1] - t, tank.inside.lo[2] - t},
                     {tank.inside.hi[0] + t, tank.inside.hi[1] + t, tank.top}};
        open_ = Box{{tank.inside.lo[0], tank.inside.lo[1], tank.inside.lo[2]},
                    {tank.inside.hi[0], tank.inside.hi[1], tank.top}};
    }
    Box bounds() const override { return outer_; }
    bool inside(const Vec3d& p) const override {
        return outer_.contains(p[0], p[1], p[2]) && !open_.contains(p[0], p[1], p[2]);
    }
    SurfacePoint nearest(const Vec3d&, double max_distance) const override {
        SurfacePoint far;
        far.distance = 2.0 * max_distance + 1.0;
        return far;
    }
    std::string describe() const override { return "a tank's walls"; }

private:
    Box outer_{}, open_{};
};

// Everything beneath a terrain's surface within its footprint, down to any depth: where water
// below a level does not go. Only inside() is asked of it.
class BeneathTerrain : public Shape {
public:
    explicit BeneathTerrain(const TerrainShape& terrain) : terrain_(terrain) {}
    Box bounds() const override {
        Box b = terrain_.bounds();
        b.lo[2] = -1e300;
        return b;
    }
    bool inside(const Vec3d& p) const override {
        return terrain_.covers(p[0], p[1]) && p[2] < terrain_.elevation(p[0], p[1]);
    }
    SurfacePoint nearest(const Vec3d& p, double max_distance) const override {
        return terrain_.nearest(p, max_distance);
    }
    std::string describe() const override { return "beneath " + terrain_.describe(); }

private:
    const TerrainShape& terrain_;
};

// The free-slip walls a tank's wall particle belongs to, from where it lies outside the inside.
unsigned tank_walls_of(const CaseTank& tank, const SetupParticle& p) {
    unsigned walls = 0;
    if (p.z < tank.inside.lo[2]) walls |= CaseTank::kFloor;
    if (p.y < tank.inside.lo[1]) walls |= CaseTank::kMinusY;
    if (p.y > tank.inside.hi[1]) walls |= CaseTank::kPlusY;
    if (p.x < tank.inside.lo[0]) walls |= CaseTank::kMinusX;
    if (p.x > tank.inside.hi[0]) walls |= CaseTank::kPlusX;
    return walls;
}

bool box_within(const Box& inner, const Box& outer) {
    for (int a = 0; a < 3; ++a) {
        if (inner.lo[a] < outer.lo[a] || inner.hi[a] > outer.hi[a]) return false;
    }
    return true;
}

std::string box_text(const Box& b) {
    std::ostringstream text;
    text << "[" << b.lo[0] << ", " << b.hi[0] << "] x [" << b.lo[1] << ", " << b.hi[1] << "] x ["
         << b.lo[2] << ", " << b.hi[2] << "]";
    return text.str();
}

}  // namespace

CaseProblem::CaseProblem() = default;
CaseProblem::~CaseProblem() = default;

CaseProblem::CaseProblem(CaseDescription description, int compiled_axis)
    : case_(std::move(description)), given_(true) {
    if (compiled_axis >= 0 && case_.split_axis >= 0 && case_.split_axis != compiled_axis) {
        const char* axes = "xyz";
        throw OptionError(case_.path + ": split-axis " + axes[case_.split_axis] +
                          ", but this program splits along " + axes[compiled_axis] +
                          " (compiled in): build it with -DCASE_SPLIT_AXIS=" +
                          std::to_string(case_.split_axis) + ", or drop split-axis");
    }
    if (case_.split_axis < 0) case_.split_axis = std::max(compiled_axis, 0);
    for (const CaseSolid& solid : case_.solids) {
        solid_shapes_.push_back(load_case_shape(solid.shape, case_.path));
    }
    for (const CaseWater& water : case_.water) {
        water_shapes_.push_back(load_case_shape(water.shape, case_.path));
    }
    bodies_ = case_moving_bodies(case_, regions(0.0));
}

void CaseProblem::add_options(po::options_description& options) {
    options.add_options()("case", po::value<std::string>(),
                          "the case file to run (YAML, docs/cases.md); its settings are the "
                          "options' defaults, the command line and --config override them");
}

double CaseProblem::still_water_depth() const {
    if (!std::isnan(case_.still_water_depth)) return case_.still_water_depth;
    double deepest = 0.0;
    for (std::size_t w = 0; w < case_.water.size(); ++w) {
        const CaseWater& water = case_.water[w];
        const Box b = water_shapes_[w]->bounds();
        const double top = std::isfinite(water.level) ? water.level : b.hi[2];
        const double surface = std::isnan(water.surface) ? top : water.surface;
        deepest = std::max(deepest, surface - b.lo[2]);
    }
    return deepest > 0.0 ? deepest : 1.0;
}

Box CaseProblem::domain(double dp) const {
    const double m = case_.domain_margin + case_.wall_layers * dp;
    const Box& in = case_.domain_inside;
    return Box{{in.lo[0] - m, in.lo[1] - m, in.lo[2] - m}, {in.hi[0] + m, in.hi[1] + m, in.hi[2]}};
}

Box CaseProblem::fluid_reach(double dp) const {
    if (case_.tanks.empty()) return Problem::fluid_reach(dp);
    return open_tank_fluid_reach(case_.tanks.front().inside, dp);
}

std::vector<ProblemSetting> CaseProblem::settings() const {
    std::vector<ProblemSetting> out;
    for (const CaseSetting& s : case_.settings) out.push_back({s.name, s.value, s.place.text()});
    return out;
}

std::vector<NamedRegion> CaseProblem::regions(double) const {
    std::vector<NamedRegion> out;
    for (std::size_t s = 0; s < case_.solids.size(); ++s) {
        const CaseSolid& solid = case_.solids[s];
        if (solid.name.empty()) continue;
        if (solid.shape.kind == CaseShape::Kind::kBox) {
            out.push_back({solid.name, solid.shape.box, nullptr});
        } else {
            out.push_back({solid.name, solid_shapes_[s]->bounds(), solid_shapes_[s]});
        }
    }
    return out;
}

double CaseProblem::wall_depth(double x, double y, double z, double dp) const {
    for (const CaseWetWalls& wet : case_.wet_walls) {
        Box region = wet.region;
        if (wet.grow_by_walls) {
            const double t = case_.wall_layers * dp;
            for (int a = 0; a < 3; ++a) {
                if (std::isfinite(region.lo[a])) region.lo[a] -= t;
                if (std::isfinite(region.hi[a])) region.hi[a] += t;
            }
        }
        if (region.contains(x, y, z)) return std::max(0.0, wet.surface - z);
    }
    return 0.0;
}

bool CaseProblem::reachable(const Vec3d& p, const Shape* self) const {
    if (!case_.tanks.empty()) {
        const Box& in = case_.tanks.front().inside;
        if (p[0] < in.lo[0] || p[0] >= in.hi[0] || p[1] < in.lo[1] || p[1] >= in.hi[1] ||
            p[2] < in.lo[2]) {
            return false;
        }
    }
    for (const auto& solid : solid_shapes_) {
        if (solid.get() != self && solid->inside(p)) return false;
    }
    return true;
}

std::vector<std::unique_ptr<Shape>> CaseProblem::tank_walls(double dp) const {
    std::vector<std::unique_ptr<Shape>> walls;
    for (const CaseTank& tank : case_.tanks) {
        walls.push_back(std::make_unique<TankWalls>(tank, dp, case_.wall_layers));
    }
    return walls;
}

void CaseProblem::check_resolution(double dp) const {
    if (!given_)
        throw OptionError("the case program needs --case FILE (a YAML case, docs/cases.md)");
    const Box room = domain(dp);
    const auto refuse = [&](const CasePlace& place, const std::string& what, const Box& b) {
        throw OptionError(place.text() + ": " + what + " " + box_text(b) +
                          " reaches outside the domain " + box_text(room) + " at --dp " +
                          std::to_string(dp) + " m");
    };
    const std::vector<std::unique_ptr<Shape>> walls = tank_walls(dp);
    for (std::size_t t = 0; t < walls.size(); ++t) {
        const Box outer = walls[t]->bounds();
        if (!box_within(outer, room))
            refuse(case_.tanks[t].place, "the tank with its walls", outer);
    }
    for (std::size_t s = 0; s < case_.solids.size(); ++s) {
        Box b = solid_shapes_[s]->bounds();
        if (case_.solids[s].shape.kind == CaseShape::Kind::kTerrain) b.lo[2] = room.lo[2];
        if (!box_within(b, room)) refuse(case_.solids[s].place, "the solid", b);
    }
    for (std::size_t w = 0; w < case_.water.size(); ++w) {
        Box b = water_shapes_[w]->bounds();
        b.hi[2] = std::min(b.hi[2], case_.water[w].level);
        if (!box_within(b, room)) refuse(case_.water[w].place, "the water", b);
    }
}

void CaseProblem::check_water_site(std::size_t w, const Vec3d& p, double dp,
                                   const std::vector<std::unique_ptr<Shape>>& walls) const {
    const auto refuse = [&](const std::string& what) {
        std::ostringstream msg;
        msg << case_.water[w].place.text() << ": water at (" << p[0] << ", " << p[1] << ", " << p[2]
            << ") lies inside " << what << " at --dp " << dp
            << " m: water fills a shape clear of every wall (or use 'below: LEVEL' and a region, "
               "which keeps out of them)";
        throw OptionError(msg.str());
    };
    for (std::size_t s = 0; s < solid_shapes_.size(); ++s) {
        if (solid_shapes_[s]->inside(p)) {
            refuse("the solid of line " + std::to_string(case_.solids[s].place.line) + " (" +
                   solid_shapes_[s]->describe() + ")");
        }
    }
    for (std::size_t t = 0; t < walls.size(); ++t) {
        if (walls[t]->inside(p)) {
            refuse("the walls of the tank of line " + std::to_string(case_.tanks[t].place.line));
        }
    }
    for (std::size_t earlier = 0; earlier < w; ++earlier) {
        if (in_water(earlier, p)) {
            refuse("the water of line " + std::to_string(case_.water[earlier].place.line));
        }
    }
}

bool CaseProblem::in_water(std::size_t w, const Vec3d& p) const {
    return p[2] < case_.water[w].level && water_shapes_[w]->inside(p);
}

void CaseProblem::fill(double dp, const EmitParticle& emit) const {
    fill_tanks(dp, emit);
    fill_solids(dp, emit);
    fill_water(dp, emit);
}

void CaseProblem::fill_tanks(double dp, const EmitParticle& emit) const {
    for (const CaseTank& tank : case_.tanks) {
        const EmitParticle typed = free_slip_where(emit, [&](const SetupParticle& p) {
            return (tank_walls_of(tank, p) & tank.free_slip) != 0;
        });
        add_open_tank(
            tank.inside, tank.top, dp, case_.wall_layers,
            [&](double x, double y, double z) { return wall_depth(x, y, z, dp); }, typed);
    }
}

void CaseProblem::fill_solids(double dp, const EmitParticle& emit) const {
    const int layers = case_.wall_layers;
    for (std::size_t s = 0; s < case_.solids.size(); ++s) {
        const CaseSolid& solid = case_.solids[s];
        if (solid.shape.kind == CaseShape::Kind::kBox) {
            // As the compiled problems lay out their obstacles: the faces the water can reach
            // are those inside the tank (problems/lattice.h, faces_inside).
            const Box& box = solid.shape.box;
            Faces wet{};
            if (case_.tanks.empty())
                std::fill(wet.face, wet.face + 6, true);
            else
                wet = faces_inside(box, case_.tanks.front().inside);
            for_each_lattice_point(box, dp, [&](double x, double y, double z) {
                SetupParticle p{x, y, z, kBoundary, wall_depth(x, y, z, dp)};
                ghost_inside(box, wet, dp, layers, p);
                const bool ghost = p.to_ghost[0] != 0 || p.to_ghost[1] != 0 || p.to_ghost[2] != 0;
                if (solid.hollow && !ghost) return;
                emit(p);
            });
            continue;
        }
        WallFill fill;
        fill.layers = layers;
        fill.hollow = solid.hollow || solid.shape.kind == CaseShape::Kind::kTerrain;
        const Shape* self = solid_shapes_[s].get();
        fill.wet = [this, self](const Vec3d& p) { return reachable(p, self); };
        fill_solid_walls(*self, dp, fill, [&](const LatticeSite& site) {
            // Where solids overlap (a building sunk into the terrain), the earlier one's particle
            // stands there already.
            for (std::size_t earlier = 0; earlier < s; ++earlier) {
                if (solid_shapes_[earlier]->inside(site.at)) return;
            }
            SetupParticle p{site.at[0], site.at[1], site.at[2], kBoundary,
                            wall_depth(site.at[0], site.at[1], site.at[2], dp)};
            for (int a = 0; a < 3; ++a) p.to_ghost[a] = site.to_ghost[a];
            emit(p);
        });
    }
}

void CaseProblem::fill_water(double dp, const EmitParticle& emit) const {
    const std::vector<std::unique_ptr<Shape>> walls = tank_walls(dp);
    for (std::size_t w = 0; w < case_.water.size(); ++w) {
        const CaseWater& water = case_.water[w];
        const bool below = std::isfinite(water.level);
        const Shape& region = *water_shapes_[w];
        const double surface = !std::isnan(water.surface) ? water.surface
                               : below                    ? water.level
                                                          : region.bounds().hi[2];
        std::vector<const Shape*> blocking;
        std::vector<std::unique_ptr<Shape>> owned;
        if (below) {
            for (std::size_t s = 0; s < solid_shapes_.size(); ++s) {
                if (case_.solids[s].shape.kind == CaseShape::Kind::kTerrain) {
                    // Water lies above the terrain: nothing beneath its surface, its solid's
                    // base or not.
                    owned.push_back(std::make_unique<BeneathTerrain>(
                        static_cast<const TerrainShape&>(*solid_shapes_[s])));
                    blocking.push_back(owned.back().get());
                } else {
                    blocking.push_back(solid_shapes_[s].get());
                }
            }
            for (const auto& tank : walls) blocking.push_back(tank.get());
        }
        sph::fill_water(region, water.level, surface, blocking, dp, [&](const LatticeSite& site) {
            const Vec3d& p = site.at;
            if (!below) check_water_site(w, p, dp, walls);
            for (std::size_t earlier = 0; below && earlier < w; ++earlier) {
                if (in_water(earlier, p)) return;  // filled already
            }
            emit(SetupParticle{p[0], p[1], p[2], kFluid, site.depth});
        });
    }
}

std::unique_ptr<Problem> case_problem_from_arguments(int argc, const char* const argv[],
                                                     int compiled_axis) {
    for (int k = 1; k < argc; ++k) {
        const char* word = argv[k];
        if (std::strncmp(word, "--case=", 7) == 0) {
            return std::make_unique<CaseProblem>(read_case_file(word + 7), compiled_axis);
        }
        if (std::strcmp(word, "--case") == 0 && k + 1 < argc) {
            return std::make_unique<CaseProblem>(read_case_file(argv[k + 1]), compiled_axis);
        }
    }
    return std::make_unique<CaseProblem>();
}

}  // namespace sph
