#include "geometry/raster_reader.h"

#include "geometry/ascii_grid.h"
#include "geometry/raster_window.h"

#if SPH_HAVE_GDAL

#include <cpl_error.h>
#include <gdal.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>

namespace sph {

namespace {

// GDAL reports through CPLError, which prints to stderr unless a handler is pushed. The handler
// stack is per thread, so this keeps one read's messages to itself: they go into our message.
class CapturedGdalErrors {
public:
    CapturedGdalErrors() { CPLPushErrorHandlerEx(&CapturedGdalErrors::handle, this); }
    ~CapturedGdalErrors() { CPLPopErrorHandler(); }
    CapturedGdalErrors(const CapturedGdalErrors&) = delete;
    CapturedGdalErrors& operator=(const CapturedGdalErrors&) = delete;

    // The errors so far, or `fallback` when GDAL said nothing.
    std::string text(const std::string& fallback) const { return text_.empty() ? fallback : text_; }

private:
    static void CPL_STDCALL handle(CPLErr level, CPLErrorNum, const char* message) {
        auto* self = static_cast<CapturedGdalErrors*>(CPLGetErrorHandlerUserData());
        if (level != CE_Failure && level != CE_Fatal) return;  // debug output and warnings
        if (self->text_.size() > 2000) return;  // a corrupt file can repeat one error per block
        if (!self->text_.empty()) self->text_ += "; ";
        self->text_ += message ? message : "(no message)";
    }
    std::string text_;
};

struct DatasetCloser {
    void operator()(void* dataset) const { GDALClose(static_cast<GDALDatasetH>(dataset)); }
};
using Dataset = std::unique_ptr<void, DatasetCloser>;

Dataset open_raster(const std::string& path, const CapturedGdalErrors& errors) {
    static std::once_flag registered;
    std::call_once(registered, [] { GDALAllRegister(); });
    check_raster_file(path);
    // Only these parse the file: a DEM is a GeoTIFF or an ASCII grid, and no other format's
    // reader should see what a user passes.
    static const char* const kAllowedDrivers[] = {"GTiff", "AAIGrid", nullptr};
    GDALDatasetH dataset =
        GDALOpenEx(path.c_str(), GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR,
                   kAllowedDrivers, nullptr, nullptr);
    if (!dataset) {
        refuse_raster(path, "not a GeoTIFF or ESRI ASCII grid GDAL can read (" +
                                errors.text("GDAL gave no reason") + ")");
    }
    return Dataset(dataset);
}

// North-up only: a rotated or sheared raster's samples do not lie on an x-y grid.
Geotransform read_geotransform(GDALDatasetH dataset, const std::string& path) {
    Geotransform gt{0.0, 1.0, 0.0, 0.0, 0.0, 1.0};  // no georeferencing: pixel units
    if (GDALGetGeoTransform(dataset, gt.data()) != CE_None) gt = {0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    CPLErrorReset();
    if (gt[2] != 0.0 || gt[4] != 0.0) {
        refuse_raster(path, "the raster is rotated or sheared (geotransform terms " +
                                raster_number(gt[2]) + ", " + raster_number(gt[4]) +
                                "): only north-up rasters are read; warp it " +
                                "north-up first (gdalwarp)");
    }
    for (double term : gt) {
        if (!std::isfinite(term)) refuse_raster(path, "the geotransform holds a non-finite number");
    }
    if (gt[1] == 0.0 || gt[5] == 0.0)
        refuse_raster(path, "the geotransform gives a pixel size of 0");
    return gt;
}

// GDAL (libtiff under it) reads a GeoTIFF a whole strip or tile at a time and allocates it first:
// a header may declare one strip of billions of pixels in a file of a few hundred bytes
// (fuzzing's finding 14: 13.8 GB). An uncompressed raster cannot hold more pixels' bytes than its
// file, and no block GDAL reads at once should pass 256 MiB (real DEMs come in strips of a few
// rows or tiles of 256 x 256).
void check_declared_size(GDALDatasetH dataset, GDALRasterBandH band, const std::string& path) {
    const std::int64_t pixel_bytes =
        std::max(1, GDALGetDataTypeSizeBytes(GDALGetRasterDataType(band)));
    const std::int64_t declared = std::int64_t(GDALGetRasterXSize(dataset)) *
                                  std::int64_t(GDALGetRasterYSize(dataset)) * pixel_bytes;
    const char* compression = GDALGetMetadataItem(dataset, "COMPRESSION", "IMAGE_STRUCTURE");
    std::error_code error;
    const auto file_bytes = std::filesystem::file_size(path, error);
    if (compression == nullptr && !error && declared > std::int64_t(file_bytes)) {
        refuse_raster(path, "its header declares " + std::to_string(declared) +
                                " bytes of uncompressed pixels, and the file holds " +
                                std::to_string(file_bytes) + ": it is truncated or corrupt");
    }
    constexpr std::int64_t kMostBlockBytes = std::int64_t(256) << 20;
    int block_x = 0, block_y = 0;
    GDALGetBlockSize(band, &block_x, &block_y);
    const std::int64_t bytes = std::int64_t(block_x) * std::int64_t(block_y) * pixel_bytes;
    if (bytes > kMostBlockBytes) {
        refuse_raster(path, "its blocks are " + std::to_string(block_x) + " x " +
                                std::to_string(block_y) + " pixels (" +
                                std::to_string(bytes >> 20) +
                                " MiB each), more than the 256 MiB read at once: rewrite it tiled "
                                "(gdal_translate -co TILED=YES)");
    }
}

CollectedSamples read_samples(GDALRasterBandH band, const std::string& path,
                              const CapturedGdalErrors& errors, const RasterSampling& sampling) {
    const AxisSamples& columns = sampling.columns;
    const AxisSamples& rows = sampling.rows;
    const int stride = sampling.stride;
    int has_no_data = 0;
    const double no_data = GDALGetRasterNoDataValue(band, &has_no_data);
    CollectedSamples read;
    std::vector<double> line(static_cast<std::size_t>(columns.extent));
    for (int r = 0; r < rows.count; ++r) {
        const int file_row = rows.offset + r * stride;
        // One file row at a time: GDAL's own decimation would not pick exactly every
        // stride-th pixel, and a row failing to read stops before the rest is allocated.
        if (GDALRasterIO(band, GF_Read, columns.offset, file_row, columns.extent, 1, line.data(),
                         columns.extent, 1, GDT_Float64, 0, 0) != CE_None) {
            refuse_raster(path, "reading row " + std::to_string(file_row) +
                                    " failed: the file may be truncated or corrupt (" +
                                    errors.text("GDAL gave no reason") + ")");
        }
        for (int c = 0; c < columns.count; ++c) {
            const double z = line[static_cast<std::size_t>(c) * stride];
            read.add(z, file_row, columns.offset + c * stride, has_no_data != 0, no_data);
        }
    }
    return read;
}

}  // namespace

ElevationGrid read_elevation_raster(const std::string& path, const RasterWindow& window, int stride,
                                    std::int64_t max_samples) {
    check_stride(path, stride);
    const CapturedGdalErrors errors;  // declared first: it outlives the dataset's closing
    const Dataset dataset = open_raster(path, errors);
    GDALDatasetH handle = dataset.get();
    if (GDALGetRasterCount(handle) < 1) refuse_raster(path, "the raster has no bands");
    const Geotransform gt = read_geotransform(handle, path);
    if (std::strcmp(GDALGetDriverShortName(GDALGetDatasetDriver(handle)), "AAIGrid") == 0) {
        check_ascii_grid(path);
    }
    const RasterSampling sampling = plan_sampling(path, window, stride, GDALGetRasterXSize(handle),
                                                  GDALGetRasterYSize(handle), max_samples);
    GDALRasterBandH band = GDALGetRasterBand(handle, 1);
    check_declared_size(handle, band, path);
    const CollectedSamples read = read_samples(band, path, errors, sampling);
    refuse_bad_cells(path, gt, read);
    return arrange_grid(path, gt, sampling, read.values);
}

}  // namespace sph

#else  // without GDAL: the project's own ESRI ASCII grid reader only

namespace sph {

ElevationGrid read_elevation_raster(const std::string& path, const RasterWindow& window, int stride,
                                    std::int64_t max_samples) {
    if (!has_ascii_grid_extension(path)) {
        refuse_raster(path,
                      "this build reads elevation rasters without GDAL: ESRI ASCII grids "
                      "(.asc) only; rebuild with -DSPH_WITH_GDAL=ON to read GeoTIFF");
    }
    return read_ascii_grid(path, window, stride, max_samples);
}

}  // namespace sph

#endif
