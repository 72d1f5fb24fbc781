#include "geometry/raster_window.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/errors.h"

namespace sph {

namespace {

AxisSamples select_axis(int raster_size, int offset, int extent, int stride) {
    AxisSamples axis{offset, extent == 0 ? raster_size - offset : extent, 0};
    axis.count = axis.extent > 0 ? (axis.extent - 1) / stride + 1 : 0;
    return axis;
}

void check_window(const std::string& path, const RasterWindow& window, int raster_columns,
                  int raster_rows) {
    const auto outside = [](int offset, int extent, int size) {
        return offset < 0 || extent < 0 || offset >= size ||
               static_cast<long long>(offset) + extent > size;
    };
    if (outside(window.column_offset, window.columns, raster_columns) ||
        outside(window.row_offset, window.rows, raster_rows)) {
        std::ostringstream text;
        text << "the window (column offset " << window.column_offset << ", row offset "
             << window.row_offset << ", " << window.columns << " columns, " << window.rows
             << " rows) lies outside the raster's " << raster_columns << " columns x "
             << raster_rows << " rows";
        refuse_raster(path, text.str());
    }
}

// Where a file pixel's centre lies, for messages.
std::string pixel_place(const Geotransform& gt, int row, int column) {
    return "row " + std::to_string(row) + ", column " + std::to_string(column) + " (x " +
           raster_number(gt[0] + (column + 0.5) * gt[1]) + ", y " +
           raster_number(gt[3] + (row + 0.5) * gt[5]) + ")";
}

}  // namespace

void refuse_raster(const std::string& path, const std::string& problem) {
    throw OptionError("raster " + path + ": " + problem);
}

std::string raster_number(double value) {
    std::ostringstream text;
    text.precision(12);
    text << value;
    return text.str();
}

void check_raster_file(const std::string& path) {
    std::error_code ignored;
    if (!std::filesystem::exists(path, ignored)) refuse_raster(path, "no such file");
    if (!std::filesystem::is_regular_file(path, ignored)) {
        refuse_raster(path, "not a regular file");
    }
}

void check_stride(const std::string& path, int stride) {
    if (stride < 1) refuse_raster(path, "stride " + std::to_string(stride) + " must be at least 1");
}

RasterSampling plan_sampling(const std::string& path, const RasterWindow& window, int stride,
                             int raster_columns, int raster_rows, std::int64_t max_samples) {
    check_window(path, window, raster_columns, raster_rows);
    RasterSampling sampling;
    sampling.stride = stride;
    sampling.columns = select_axis(raster_columns, window.column_offset, window.columns, stride);
    sampling.rows = select_axis(raster_rows, window.row_offset, window.rows, stride);
    const AxisSamples& columns = sampling.columns;
    const AxisSamples& rows = sampling.rows;
    if (columns.count < 2 || rows.count < 2) {
        refuse_raster(path, "the window with stride " + std::to_string(stride) + " holds " +
                                std::to_string(columns.count) + " x " + std::to_string(rows.count) +
                                " samples (columns x rows); at least 2 x 2 are needed");
    }
    const std::int64_t samples = std::int64_t{columns.count} * rows.count;
    // A window's row is read whole: its extent is bounded too.
    if (samples > max_samples || columns.extent > max_samples) {
        refuse_raster(path, "the window holds " + std::to_string(samples) + " samples, more than " +
                                std::to_string(max_samples) +
                                ": choose a smaller window or a stride");
    }
    return sampling;
}

void BadCells::add(int row, int column) {
    if (count++ > 0) return;
    first_row = row;
    first_column = column;
}

void CollectedSamples::add(double z, int file_row, int file_column, bool has_no_data,
                           double no_data) {
    const bool is_no_data = has_no_data && (z == no_data || (std::isnan(no_data) && std::isnan(z)));
    if (is_no_data) {
        this->no_data.add(file_row, file_column);
    } else if (!std::isfinite(z)) {
        non_finite.add(file_row, file_column);
    }
    values.push_back(z);
}

void refuse_bad_cells(const std::string& path, const Geotransform& gt,
                      const CollectedSamples& samples) {
    const auto refuse_cells = [&](const BadCells& cells, const std::string& what) {
        if (cells.count == 0) return;
        refuse_raster(path, std::to_string(cells.count) + " " + what + " in the window, first at " +
                                pixel_place(gt, cells.first_row, cells.first_column) +
                                ": fill them or choose a window without them");
    };
    refuse_cells(samples.no_data, "no-data cells");
    refuse_cells(samples.non_finite, "non-finite values (NaN or infinite)");
}

ElevationGrid arrange_grid(const std::string& path, const Geotransform& gt,
                           const RasterSampling& sampling, const std::vector<double>& values) {
    const AxisSamples& columns = sampling.columns;
    const AxisSamples& rows = sampling.rows;
    const int stride = sampling.stride;
    ElevationGrid grid;
    grid.source = path;
    grid.columns = columns.count;
    grid.rows = rows.count;
    grid.dx = std::abs(gt[1]) * stride;
    grid.dy = std::abs(gt[5]) * stride;
    const bool flip_columns = gt[1] < 0, flip_rows = gt[5] < 0;
    const int first_column = columns.offset + (flip_columns ? (columns.count - 1) * stride : 0);
    const int first_row = rows.offset + (flip_rows ? (rows.count - 1) * stride : 0);
    grid.x0 = gt[0] + (first_column + 0.5) * gt[1];
    grid.y0 = gt[3] + (first_row + 0.5) * gt[5];
    grid.elevations.resize(values.size());
    for (int r = 0; r < rows.count; ++r) {
        const int from_row = flip_rows ? rows.count - 1 - r : r;
        for (int c = 0; c < columns.count; ++c) {
            const int from_column = flip_columns ? columns.count - 1 - c : c;
            grid.elevations[static_cast<std::size_t>(r) * columns.count + c] =
                values[static_cast<std::size_t>(from_row) * columns.count + from_column];
        }
    }
    return grid;
}

}  // namespace sph
