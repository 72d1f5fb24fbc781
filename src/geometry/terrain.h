// Terrain: the ground water runs over, from an elevation raster (a DEM) read by
// geometry/raster_reader.h. The solid is everything below the triangulated heightfield inside the
// grid's footprint, down to a base elevation. The grid is declared here, not beside the reader,
// so that the core geometry library needs no GDAL.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "geometry/shape.h"
#include "geometry/transform.h"

namespace sph {

// Elevation samples on a regular grid, in the raster's own units. Rows run so that y increases
// with the row index (a north-up raster's rows are flipped on reading).
struct ElevationGrid {
    double dx = 1.0;  // spacing of columns (x) and of rows (y), > 0, after any stride
    double dy = 1.0;
    double x0 = 0.0;  // georeferenced position of sample (row 0, column 0): a pixel's centre
    double y0 = 0.0;
    int columns = 0;  // >= 2 each
    int rows = 0;
    std::vector<double> elevations;  // row-major: elevations[row * columns + column]
    std::string source;              // the file it came from, for messages

    double at(int row, int column) const {
        return elevations[static_cast<std::size_t>(row) * columns + column];
    }
};

// The solid below a terrain surface. The surface is the heightfield triangulated with each grid
// cell split along its diagonal from sample (row, column) to (row + 1, column + 1); elevation(),
// inside() and nearest() all evaluate that one triangulation, so they agree exactly. The
// footprint is the rectangle spanned by the samples' positions (pixel centres), placed by the
// transform.
class TerrainShape : public Shape {
public:
    // transform: scale, rotation about z only (a rotation about x or y would make the surface
    // no longer a heightfield: refused with an OptionError), translation. base: the elevation in
    // the run's frame where the solid ends below; by default 1 m below the lowest sample.
    TerrainShape(ElevationGrid grid, const Transform& transform,
                 std::optional<double> base = std::nullopt);

    Box bounds() const override;
    bool inside(const Vec3d& p) const override;
    // The nearest point of the top surface only: the sides and bottom of the solid are not
    // surfaces water meets.
    SurfacePoint nearest(const Vec3d& p, double max_distance) const override;
    // Along z a whole column is answered from one elevation lookup.
    void inside_along(const Vec3d& start, int axis, double step, long count,
                      std::vector<char>& out) const override;
    std::string describe() const override;

    // The surface's elevation at (x, y) in the run's frame; NaN where !covers(x, y).
    double elevation(double x, double y) const;
    // (x, y) lies within the footprint (its edges included).
    bool covers(double x, double y) const;
    double base() const { return base_; }
    const ElevationGrid& grid() const { return grid_; }

private:
    struct Local {
        double u, v;  // position in sample spacings from sample (0, 0)
    };
    // The nearest point found so far, in the grid's rotated frame (run units).
    struct NearestCandidate {
        double distance;
        Vec3d point;
        bool on_face;
        Vec3d face_normal;
    };
    Local to_grid(double x, double y) const;
    bool covers_grid(const Local& g) const;
    double grid_elevation(const Local& g) const;  // in the raster's units
    double to_run_z(double z) const { return z * transform_.scale + transform_.translate[2]; }
    Vec3d run_frame(double a, double b, double z) const;
    void nearest_in_cell(const Vec3d& q, int i, int j, NearestCandidate& best) const;

    ElevationGrid grid_;
    Transform transform_;
    double cos_z_ = 1.0, sin_z_ = 0.0;        // the rotation about z
    double origin_x_ = 0.0, origin_y_ = 0.0;  // sample (0, 0) in the run's frame
    double base_ = 0.0;
    double steepest_ = 0.0;                // the largest gradient of the surface (dimensionless)
    double lowest_ = 0.0, highest_ = 0.0;  // of the samples, in the raster's units
};

}  // namespace sph
