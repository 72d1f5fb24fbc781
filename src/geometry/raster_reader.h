// Elevation rasters (DEMs) read through GDAL: GeoTIFF and ESRI ASCII grids only, so that no other
// format's parser sees a user's file. Band 1 of a window of the raster, every stride-th sample,
// as the grid a TerrainShape is built from (geometry/terrain.h). Bad input throws an OptionError
// naming the file and the problem. A build without GDAL (-DSPH_WITH_GDAL=OFF) reads ESRI ASCII
// grids only, by the project's own reader (geometry/ascii_grid.h), to the same grid.
#pragma once

#include <cstdint>
#include <string>

#include "geometry/terrain.h"

namespace sph {

// A window of the raster in its pixels; 0 columns or rows: to the raster's edge.
struct RasterWindow {
    int column_offset = 0;
    int row_offset = 0;
    int columns = 0;
    int rows = 0;
};

// More samples than this (2 GiB of doubles) are refused rather than tried: a window and a stride
// bring a large DEM down to what a run needs.
constexpr std::int64_t kMaxElevationSamples = std::int64_t{1} << 28;

// The samples at every stride-th row and column of the window, from its first row and column.
// Refused: a missing file, one neither GTiff nor AAIGrid opens, a raster without bands, a
// rotated or sheared one, a window outside the raster, stride < 1, fewer than 2 x 2 or more than
// max_samples samples, no-data or non-finite values among them.
ElevationGrid read_elevation_raster(const std::string& path, const RasterWindow& window = {},
                                    int stride = 1,
                                    std::int64_t max_samples = kMaxElevationSamples);

}  // namespace sph
