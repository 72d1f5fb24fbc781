// ESRI ASCII grids (.asc) read by the project itself, so that a build without GDAL still reads
// them: the same grid, elevations bit for bit, and the same refusals as GDAL's AAIGrid driver
// behind raster_reader.h. That driver silently takes "1x" as 1 and "abc" as 0, so with GDAL the
// file is first checked here as well (check_ascii_grid). Internal to geometry/: callers use
// read_elevation_raster.
#pragma once

#include <cstdint>
#include <string>

#include "geometry/raster_reader.h"
#include "geometry/terrain.h"

namespace sph {

// The path ends in .asc, in any case.
bool has_ascii_grid_extension(const std::string& path);

// Refuses an ESRI ASCII grid whose header or values are not what GDAL's AAIGrid driver reads
// faithfully: a missing, repeated or non-positive header value, a value that is not a finite
// decimal number (naming its line), more or fewer values than ncols x nrows.
void check_ascii_grid(const std::string& path);

// read_elevation_raster for an ESRI ASCII grid, without GDAL.
ElevationGrid read_ascii_grid(const std::string& path, const RasterWindow& window, int stride,
                              std::int64_t max_samples);

}  // namespace sph
