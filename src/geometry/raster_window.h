// The parts of reading an elevation raster that do not depend on how the file is parsed: the
// refusal of bad windows and strides, the refusal of no-data cells and the arranging of the
// samples into an ElevationGrid. Both readers use them (GDAL's in raster_reader.cpp, the
// project's own ESRI ASCII grid reader in ascii_grid.cpp), so that a file gives the same grid and
// the same refusals whichever reads it. Internal to geometry/.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "geometry/raster_reader.h"
#include "geometry/terrain.h"

namespace sph {

// GDAL's affine geotransform: x = gt[0] + column * gt[1], y = gt[3] + row * gt[5] for the
// pixel corner (column, row); north-up only, so gt[2] = gt[4] = 0.
using Geotransform = std::array<double, 6>;

// Throws the OptionError "raster PATH: PROBLEM".
[[noreturn]] void refuse_raster(const std::string& path, const std::string& problem);

// A georeferenced coordinate as a message shows it (12 digits: more than the default 6).
std::string raster_number(double value);

void check_raster_file(const std::string& path);  // exists and is a regular file
void check_stride(const std::string& path, int stride);

// The samples taken along one axis of the raster: file pixels offset, offset + stride, ...
struct AxisSamples {
    int offset = 0;
    int extent = 0;  // pixels of the window along this axis
    int count = 0;   // samples taken
    bool takes(int pixel, int stride) const {
        return pixel >= offset && pixel < offset + extent && (pixel - offset) % stride == 0;
    }
};

struct RasterSampling {
    AxisSamples columns, rows;
    int stride = 1;
};

// The window and stride over a raster of the given size, refused when the window lies outside
// it, holds fewer than 2 x 2 samples or more than max_samples.
RasterSampling plan_sampling(const std::string& path, const RasterWindow& window, int stride,
                             int raster_columns, int raster_rows, std::int64_t max_samples);

// Cells the grid cannot use: the first one's place and the count.
struct BadCells {
    long long count = 0;
    int first_row = -1, first_column = -1;
    void add(int row, int column);
};

// The samples in file order (rows as stored, row-major), with the no-data and non-finite ones.
struct CollectedSamples {
    std::vector<double> values;
    BadCells no_data, non_finite;
    void add(double z, int file_row, int file_column, bool has_no_data, double no_data);
};

// Refuses samples holding no-data or non-finite values, naming the first in file pixels and in
// georeferenced x, y.
void refuse_bad_cells(const std::string& path, const Geotransform& gt,
                      const CollectedSamples& samples);

// Pixel centres, spacing and orientation: rows (and columns) whose coordinate falls with the
// index are flipped, so that the grid's x and y increase with column and row.
ElevationGrid arrange_grid(const std::string& path, const Geotransform& gt,
                           const RasterSampling& sampling, const std::vector<double>& values);

}  // namespace sph
