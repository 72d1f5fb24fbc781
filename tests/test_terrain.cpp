// Elevation rasters (geometry/raster_reader.h) and the terrain solid built from them
// (geometry/terrain.h). Rasters are written here by GDAL itself (GeoTIFF) or by hand (ASCII
// grids) with values known exactly: a tilted plane, which the linear triangulation reproduces.
// Without GDAL (SPH_HAVE_GDAL unset) only the ESRI ASCII grid tests are compiled; with it, the
// project's own ASCII grid reader is compared with GDAL's.
#include <gtest/gtest.h>

#if SPH_HAVE_GDAL
#if __has_include(<gdal.h>)
#include <gdal.h>
#else
#include <gdal/gdal.h>  // Debian's layout, when the test is not given GDAL's include folder
#endif
#endif

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "common/errors.h"
#include "geometry/ascii_grid.h"
#include "geometry/raster_reader.h"
#include "geometry/terrain.h"
#include "terrain_samples.h"
#include "test_support.h"

namespace sph {
namespace {

using testing::kAsciiGrid;
using testing::refusal;
using testing::TerrainTest;
using testing::write_text;

using Geotransform = std::array<double, 6>;
using CellValue = std::function<double(int row, int column)>;

// The tilted plane every exact test reads back, in georeferenced coordinates.
constexpr double kA = 0.03, kB = -0.02, kC = 7.0;
double plane(double x, double y) {
    return kA * x + kB * y + kC;
}

#if SPH_HAVE_GDAL
// A north-up raster: origin (1000, 5000) at its top-left corner, 2 x 3 pixels, rows southward.
const Geotransform kNorthUp{1000.0, 2.0, 0.0, 5000.0, 0.0, -3.0};

double centre_x(const Geotransform& gt, int column) {
    return gt[0] + (column + 0.5) * gt[1];
}
double centre_y(const Geotransform& gt, int row) {
    return gt[3] + (row + 0.5) * gt[5];
}

CellValue plane_cells(const Geotransform& gt) {
    return [gt](int row, int column) { return plane(centre_x(gt, column), centre_y(gt, row)); };
}

void write_geotiff(const std::string& path, int columns, int rows, const Geotransform& gt,
                   const CellValue& value, const double* no_data = nullptr) {
    GDALAllRegister();
    GDALDatasetH dataset = GDALCreate(GDALGetDriverByName("GTiff"), path.c_str(), columns, rows, 1,
                                      GDT_Float64, nullptr);
    ASSERT_NE(dataset, nullptr) << path;
    Geotransform transform = gt;
    GDALSetGeoTransform(dataset, transform.data());
    GDALRasterBandH band = GDALGetRasterBand(dataset, 1);
    if (no_data) GDALSetRasterNoDataValue(band, *no_data);
    std::vector<double> cells;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < columns; ++c) cells.push_back(value(r, c));
    }
    EXPECT_EQ(GDALRasterIO(band, GF_Write, 0, 0, columns, rows, cells.data(), columns, rows,
                           GDT_Float64, 0, 0),
              CE_None);
    GDALClose(dataset);
}

#endif  // SPH_HAVE_GDAL

#if SPH_HAVE_GDAL
TEST_F(TerrainTest, NorthUpGeoTiffComesOutWithYIncreasing) {
    const std::string path = file("plane.tif");
    write_geotiff(path, 6, 5, kNorthUp, plane_cells(kNorthUp));
    const ElevationGrid grid = read_elevation_raster(path, {}, 1);
    EXPECT_EQ(grid.columns, 6);
    EXPECT_EQ(grid.rows, 5);
    EXPECT_DOUBLE_EQ(grid.dx, 2.0);
    EXPECT_DOUBLE_EQ(grid.dy, 3.0);
    EXPECT_DOUBLE_EQ(grid.x0, 1001.0);
    EXPECT_DOUBLE_EQ(grid.y0, 4986.5);  // the southmost row's centre
    for (int r = 0; r < grid.rows; ++r) {
        for (int c = 0; c < grid.columns; ++c) {
            EXPECT_EQ(grid.at(r, c), plane(grid.x0 + c * grid.dx, grid.y0 + r * grid.dy));
        }
    }
    EXPECT_EQ(grid.source, path);
}

// Fuzzing's finding 14: a GeoTIFF of a few hundred bytes whose header declares one strip of
// billions of pixels, which GDAL would allocate whole before reading a row.
TEST_F(TerrainTest, AGeoTiffOfHugeBlocksIsRefusedBeforeReading) {
    std::ifstream in(
        std::string(SPH_FUZZ_CORPUS) + "/raster_reader/finding-14-tiff-block-of-billions-of-pixels",
        std::ios::binary);
    ASSERT_TRUE(in) << "the corpus file";
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string path = file("huge_block.tif");
    std::ofstream(path, std::ios::binary) << bytes.substr(1);  // the first byte picks .tif
    try {
        read_elevation_raster(path, RasterWindow{}, 1);
        FAIL() << "read";
    } catch (const OptionError& e) {
        EXPECT_NE(std::string(e.what()).find("huge_block.tif"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("bytes of uncompressed pixels"), std::string::npos)
            << e.what();
    }
}

TEST_F(TerrainTest, SouthUpGeoTiffKeepsItsRows) {
    const std::string path = file("south_up.tif");
    const Geotransform gt{0.0, 1.0, 0.0, 10.0, 0.0, 0.5};
    write_geotiff(path, 3, 4, gt, [](int row, int column) { return 10.0 * row + column; });
    const ElevationGrid grid = read_elevation_raster(path, {}, 1);
    EXPECT_DOUBLE_EQ(grid.y0, 10.25);
    EXPECT_DOUBLE_EQ(grid.dy, 0.5);
    EXPECT_EQ(grid.at(3, 2), 32.0);
}

TEST_F(TerrainTest, WindowAndStridePickEveryKthSample) {
    const std::string path = file("indexed.tif");
    write_geotiff(path, 7, 9, kNorthUp, [](int row, int column) { return 100.0 * row + column; });
    // File columns 1, 3, 5 and rows 2, 4, 6, 8.
    const ElevationGrid grid = read_elevation_raster(path, {1, 2, 5, 7}, 2);
    ASSERT_EQ(grid.columns, 3);
    ASSERT_EQ(grid.rows, 4);
    EXPECT_DOUBLE_EQ(grid.dx, 4.0);
    EXPECT_DOUBLE_EQ(grid.dy, 6.0);
    EXPECT_DOUBLE_EQ(grid.x0, centre_x(kNorthUp, 1));
    EXPECT_DOUBLE_EQ(grid.y0, centre_y(kNorthUp, 8));
    for (int r = 0; r < 4; ++r) {
        for (int c = 0; c < 3; ++c) EXPECT_EQ(grid.at(r, c), 100.0 * (8 - 2 * r) + 1 + 2 * c);
    }
    // 0 columns and rows: to the raster's edge; stride 3 from column 1 takes 1 and 4.
    const ElevationGrid rest = read_elevation_raster(path, {1, 0, 0, 0}, 3);
    EXPECT_EQ(rest.columns, 2);
    EXPECT_EQ(rest.rows, 3);
    EXPECT_EQ(rest.at(0, 1), 604.0);
}

#endif  // SPH_HAVE_GDAL

TEST_F(TerrainTest, AsciiGridIsReadNorthUp) {
    const std::string path = file("grid.asc");
    write_text(path, kAsciiGrid);
    const ElevationGrid grid = read_elevation_raster(path, {}, 1);
    EXPECT_EQ(grid.columns, 4);
    EXPECT_EQ(grid.rows, 3);
    EXPECT_DOUBLE_EQ(grid.x0, 205.0);
    EXPECT_DOUBLE_EQ(grid.y0, 305.0);
    EXPECT_EQ(grid.at(0, 0), 9.0);
    EXPECT_EQ(grid.at(2, 3), 4.0);
}

#if SPH_HAVE_GDAL
TEST_F(TerrainTest, ElevationIsThePlaneAtSamplesAndInsideCells) {
    const std::string path = file("plane.tif");
    write_geotiff(path, 6, 5, kNorthUp, plane_cells(kNorthUp));
    const ElevationGrid grid = read_elevation_raster(path, {}, 1);
    Transform transform;
    transform.translate = {-1000.0, -5000.0, 0.0};
    const TerrainShape terrain(grid, transform);
    const auto run_plane = [](double x, double y) { return plane(x + 1000.0, y + 5000.0); };
    for (int r = 0; r < grid.rows; ++r) {
        for (int c = 0; c < grid.columns; ++c) {
            const double x = grid.x0 - 1000.0 + c * grid.dx, y = grid.y0 - 5000.0 + r * grid.dy;
            EXPECT_NEAR(terrain.elevation(x, y), run_plane(x, y), 1e-9);
        }
    }
    for (double fx : {0.13, 0.5, 0.77, 0.99}) {
        for (double fy : {0.02, 0.41, 0.66, 0.93}) {
            const double x = grid.x0 - 1000.0 + fx * 5 * grid.dx;
            const double y = grid.y0 - 5000.0 + fy * 4 * grid.dy;
            EXPECT_NEAR(terrain.elevation(x, y), run_plane(x, y), 1e-9) << x << " " << y;
        }
    }
    EXPECT_TRUE(std::isnan(terrain.elevation(grid.x0 - 1000.0 - 0.1, grid.y0 - 5000.0)));
    EXPECT_FALSE(terrain.covers(grid.x0 - 1000.0 - 0.1, grid.y0 - 5000.0));
    EXPECT_EQ(terrain.describe(), "terrain " + path);
}

#endif  // SPH_HAVE_GDAL

// A plane terrain in the run's frame, over [0, 40] x [0, 30] with its samples 1 apart.
TerrainShape plane_terrain(const Transform& transform = {}) {
    ElevationGrid grid;
    grid.columns = 41;
    grid.rows = 31;
    grid.source = "plane";
    for (int r = 0; r < grid.rows; ++r) {
        for (int c = 0; c < grid.columns; ++c) grid.elevations.push_back(plane(c, r));
    }
    return TerrainShape(grid, transform);
}

TEST_F(TerrainTest, NearestIsThePointPlaneDistanceAboveAndBelow) {
    const TerrainShape terrain = plane_terrain();
    const double norm = std::sqrt(kA * kA + kB * kB + 1.0);
    const Vec3d up{-kA / norm, -kB / norm, 1.0 / norm};
    for (double x : {10.0, 17.3, 25.55}) {
        for (double y : {8.0, 14.71, 21.2}) {
            for (double offset : {-1.2, -0.7, -0.05, 0.0, 0.2, 1.9, 4.0}) {
                const Vec3d p{x, y, plane(x, y) + offset};
                const SurfacePoint s = terrain.nearest(p, 10.0);
                EXPECT_NEAR(s.distance, std::abs(offset) / norm, 1e-9) << x << " " << y;
                EXPECT_EQ(s.inside, offset < 0);
                EXPECT_EQ(s.faces, 1);
                EXPECT_NEAR(s.point[2], plane(s.point[0], s.point[1]), 1e-9);
                for (int a = 0; a < 3; ++a) EXPECT_NEAR(s.normals[0][a], up[a], 1e-9);
            }
        }
    }
    // Farther than asked: nothing but the distance.
    const SurfacePoint far = terrain.nearest({20.0, 15.0, plane(20.0, 15.0) + 5.0}, 1.0);
    EXPECT_GT(far.distance, 1.0);
    EXPECT_EQ(far.faces, 0);
}

TEST_F(TerrainTest, NearestOutsideTheFootprintIsOnItsEdge) {
    const TerrainShape terrain = plane_terrain();
    const SurfacePoint s = terrain.nearest({-2.0, 15.0, plane(0.0, 15.0)}, 5.0);
    EXPECT_NEAR(s.point[0], 0.0, 1e-12);
    EXPECT_FALSE(s.inside);
    EXPECT_FALSE(s.on_face);
    EXPECT_LE(s.distance, 2.0);
}

TEST_F(TerrainTest, InsideAgreesWithThePlaneAndColumnsWithPoints) {
    const TerrainShape terrain = plane_terrain();
    EXPECT_DOUBLE_EQ(terrain.base(), plane(0.0, 30.0) - 1.0);  // the lowest sample, 1 m below
    const Box box = terrain.bounds();
    EXPECT_DOUBLE_EQ(box.lo[2], terrain.base());
    EXPECT_DOUBLE_EQ(box.hi[2], plane(40.0, 0.0));
    EXPECT_DOUBLE_EQ(box.lo[0], 0.0);
    EXPECT_GE(box.hi[1], 30.0);
    for (double x : {0.0, 3.3, 20.5, 40.0}) {
        for (double y : {0.0, 7.25, 30.0}) {
            EXPECT_TRUE(terrain.inside({x, y, plane(x, y) - 1e-6}));
            EXPECT_FALSE(terrain.inside({x, y, plane(x, y) + 1e-6}));
            const Vec3d start{x, y, terrain.base() - 0.37};
            std::vector<char> column;
            terrain.inside_along(start, 2, 0.05, 400, column);
            for (long k = 0; k < 400; ++k) {
                EXPECT_EQ(column[k] != 0, terrain.inside({x, y, start[2] + k * 0.05}));
            }
        }
    }
    EXPECT_FALSE(terrain.inside({40.01, 3.0, 0.0}));
    EXPECT_FALSE(terrain.inside({20.0, 15.0, terrain.base() - 0.01}));
}

TEST_F(TerrainTest, ScaleRotationAboutZAndTranslationPlaceTheSurface) {
    Transform transform;
    transform.scale = 2.0;
    transform.rotate_deg = {0.0, 0.0, 30.0};
    transform.translate = {5.0, -4.0, 1.5};
    const TerrainShape terrain = plane_terrain(transform);
    for (double x : {3.0, 18.5, 33.25}) {
        for (double y : {2.0, 11.5, 27.0}) {
            const Vec3d run = transform.apply({x, y, plane(x, y)});
            EXPECT_NEAR(terrain.elevation(run[0], run[1]), run[2], 1e-9);
            const SurfacePoint s = terrain.nearest({run[0], run[1], run[2] + 0.5}, 2.0);
            EXPECT_NEAR(s.distance, 0.5 / std::sqrt(kA * kA + kB * kB + 1.0), 1e-9);
        }
    }
}

TEST_F(TerrainTest, ABaseAboveTheLowestPointIsRefused) {
    ElevationGrid grid;
    grid.columns = grid.rows = 2;
    grid.elevations = {1.0, 2.0, 3.0, 4.0};
    grid.source = "square";
    EXPECT_DOUBLE_EQ(TerrainShape(grid, {}, 0.5).base(), 0.5);
    EXPECT_NE(refusal([&] { TerrainShape(grid, {}, 1.5); }).find("lies above the lowest point"),
              std::string::npos);
}

TEST_F(TerrainTest, RotationAboutXOrYIsRefused) {
    Transform transform;
    transform.rotate_deg = {90.0, 0.0, 0.0};
    EXPECT_NE(refusal([&] { plane_terrain(transform); }).find("rotation about x"),
              std::string::npos);
    transform.rotate_deg = {0.0, 5.0, 0.0};
    EXPECT_NE(refusal([&] { plane_terrain(transform); }).find("rotation about y"),
              std::string::npos);
}

#if SPH_HAVE_GDAL
TEST_F(TerrainTest, NoDataCellsAreRefusedNamingTheFirst) {
    const std::string path = file("holes.tif");
    const double no_data = -9999.0;
    write_geotiff(
        path, 10, 6, kNorthUp,
        [&](int row, int column) {
            return (row == 3 && column == 8) || (row == 5 && column == 1) ? no_data : 1.0;
        },
        &no_data);
    const std::string message = refusal([&] { read_elevation_raster(path, {}, 1); });
    EXPECT_NE(message.find("raster " + path), std::string::npos) << message;
    EXPECT_NE(message.find("2 no-data cells in the window, first at row 3, column 8 (x 1017, "
                           "y 4989.5)"),
              std::string::npos)
        << message;
    // Not-a-number without a no-data value set: refused as non-finite.
    const std::string nan_path = file("nan.tif");
    write_geotiff(nan_path, 4, 4, kNorthUp,
                  [](int row, int column) { return row == 2 && column == 1 ? std::nan("") : 1.0; });
    EXPECT_NE(refusal([&] { read_elevation_raster(nan_path, {}, 1); })
                  .find("1 non-finite values (NaN or infinite) in the window, first at row 2, "
                        "column 1"),
              std::string::npos);
    // A window without them reads.
    EXPECT_EQ(read_elevation_raster(path, {0, 0, 8, 5}, 1).columns, 8);
}

TEST_F(TerrainTest, BadFilesAreRefusedNamingThem) {
    const auto expect_refused = [](const std::string& path, const std::string& words) {
        SCOPED_TRACE(path);
        ::testing::internal::CaptureStderr();
        const std::string message = refusal([&] { read_elevation_raster(path, {}, 1); });
        EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << "GDAL printed by itself";
        EXPECT_NE(message.find(path), std::string::npos) << message;
        EXPECT_NE(message.find(words), std::string::npos) << message;
    };
    expect_refused(file("missing.tif"), "no such file");
    write_text(file("garbage.tif"), std::string("\x13\x37 not a raster at all \xff\x00", 26));
    expect_refused(file("garbage.tif"), "not a GeoTIFF or ESRI ASCII grid");

    const std::string whole = file("whole.tif"), truncated = file("truncated.tif");
    write_geotiff(whole, 64, 64, kNorthUp, plane_cells(kNorthUp));
    std::ifstream in(whole, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    write_text(truncated, bytes.substr(0, bytes.size() / 2));
    expect_refused(truncated, "truncated or corrupt");
}

#endif  // SPH_HAVE_GDAL

TEST_F(TerrainTest, BadWindowsAndStridesAreRefused) {
    const std::string path = file("grid.asc");
    write_text(path, kAsciiGrid);
    const auto message = [&](const RasterWindow& window, int stride) {
        return refusal([&] { read_elevation_raster(path, window, stride); });
    };
    EXPECT_NE(message({0, 0, 0, 0}, 0).find("stride 0 must be at least 1"), std::string::npos);
    EXPECT_NE(message({3, 0, 2, 0}, 1).find("outside the raster's 4 columns x 3 rows"),
              std::string::npos);
    EXPECT_NE(message({0, 3, 0, 0}, 1).find("outside"), std::string::npos);
    EXPECT_NE(message({-1, 0, 0, 0}, 1).find("outside"), std::string::npos);
    EXPECT_NE(message({0, 0, 0, 0}, 3).find("holds 2 x 1 samples"), std::string::npos);
    EXPECT_NE(refusal([&] { read_elevation_raster(path, {}, 1, 11); }).find("more than 11"),
              std::string::npos);
}

#if SPH_HAVE_GDAL
TEST_F(TerrainTest, RotatedRastersAreRefused) {
    const std::string path = file("rotated.tif");
    write_geotiff(path, 4, 4, {0.0, 1.0, 0.2, 0.0, 0.1, -1.0}, [](int, int) { return 1.0; });
    EXPECT_NE(refusal([&] { read_elevation_raster(path, {}, 1); }).find("rotated or sheared"),
              std::string::npos);
}

#endif  // SPH_HAVE_GDAL

}  // namespace
}  // namespace sph
