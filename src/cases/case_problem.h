// A case file as a Problem: the `case` executable's problem (problems/case_main.cpp). Its tanks,
// solids and water are laid out on the lattice as the compiled problems lay out theirs, boxes
// through the very same functions (problems/lattice.h), so a case file that describes a compiled
// problem lays out the same particles bit for bit (tests/test_cases.cpp); meshes and terrain
// through the geometry layer (geometry/lattice_fill.h).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "cases/case_description.h"
#include "geometry/shape.h"
#include "problem.h"

namespace sph {

class CaseProblem : public Problem {
public:
    // Loads the case's meshes and rasters (paths relative to the case file); throws OptionError
    // naming the file and line of what is wrong.
    // A case that asks for another split axis than `compiled_axis` (the program's) is refused;
    // -1: any.
    explicit CaseProblem(CaseDescription description, int compiled_axis = -1);
    // The program started without --case: enough for --help, refused at check_resolution.
    CaseProblem();
    ~CaseProblem() override;

    std::string name() const override { return case_.name; }
    void add_options(boost::program_options::options_description& options) override;
    double default_dp() const override { return case_.dp > 0 ? case_.dp : 0.02; }
    double default_t_end() const override { return case_.t_end; }
    int default_split_axis() const override { return std::max(case_.split_axis, 0); }
    double still_water_depth() const override;
    Box domain(double dp) const override;
    Box fluid_reach(double dp) const override;
    void check_resolution(double dp) const override;
    void fill(double dp, const EmitParticle& emit) const override;
    std::vector<NamedRegion> regions(double dp) const override;
    std::vector<MovingBody> bodies(double /*dp*/) const override { return bodies_; }
    std::vector<DampingZone> damping_zones() const override { return case_.damping; }
    Instruments instruments() const override { return case_.instruments; }
    std::vector<ProblemSetting> settings() const override;

    const CaseDescription& description() const { return case_; }
    // The shape of case_.solids[s], loaded.
    const Shape& solid_shape(std::size_t s) const { return *solid_shapes_[s]; }

private:
    double wall_depth(double x, double y, double z, double dp) const;
    void fill_tanks(double dp, const EmitParticle& emit) const;
    void fill_solids(double dp, const EmitParticle& emit) const;
    void fill_water(double dp, const EmitParticle& emit) const;
    // Refuses water at p of case_.water[w] inside a solid, one of the tanks' `walls` or earlier
    // water.
    void check_water_site(std::size_t w, const Vec3d& p, double dp,
                          const std::vector<std::unique_ptr<Shape>>& walls) const;
    // Each tank's walls as a solid at spacing dp (only inside() and bounds() are asked).
    std::vector<std::unique_ptr<Shape>> tank_walls(double dp) const;
    // Whether p lies in the body of water case_.water[w] (its shape, below its level).
    bool in_water(std::size_t w, const Vec3d& p) const;
    // Where the water can reach, seen from the solid `self`: inside the first tank (unbounded
    // above) and inside no other solid.
    bool reachable(const Vec3d& p, const Shape* self) const;

    CaseDescription case_;
    bool given_ = false;
    // One per case_.solids; shared with the named regions a branch removes.
    std::vector<std::shared_ptr<const Shape>> solid_shapes_;
    std::vector<MovingBody> bodies_;                    // the case's bodies, their series read
    std::vector<std::unique_ptr<Shape>> water_shapes_;  // one per case_.water
};

// The case file named by --case FILE (or --case=FILE) in argv, read for a program whose split
// axis is `compiled_axis`; without one, the empty problem for --help.
std::unique_ptr<Problem> case_problem_from_arguments(int argc, const char* const argv[],
                                                     int compiled_axis = -1);

}  // namespace sph
