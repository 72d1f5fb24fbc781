// ESRI ASCII grids read by the project's own reader (geometry/ascii_grid.h) and, where GDAL is
// built in, by GDAL: the same refusals, the same header checks, and the same grid bit for bit.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <fstream>
#include <functional>
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

// The readers of an ESRI ASCII grid this build has: the project's own, and GDAL's when built in.
using GridReader = std::function<ElevationGrid(const std::string&, const RasterWindow&, int)>;
std::vector<GridReader> ascii_grid_readers() {
    std::vector<GridReader> readers{
        [](const std::string& path, const RasterWindow& window, int stride) {
            return read_ascii_grid(path, window, stride, kMaxElevationSamples);
        }};
    // Without GDAL, read_elevation_raster is the project's reader; with it, GDAL's.
    readers.push_back([](const std::string& path, const RasterWindow& window, int stride) {
        return read_elevation_raster(path, window, stride);
    });
    return readers;
}

TEST_F(TerrainTest, AsciiGridRefusalsAreTheSameWhicheverReaderReads) {
    std::string bad_number = kAsciiGrid;
    bad_number.replace(bad_number.find("10 11"), 2, "1x");
    write_text(file("bad_number.asc"), bad_number);
    write_text(file("short.asc"), std::string(kAsciiGrid).substr(0, std::strlen(kAsciiGrid) - 3));
    std::string hole = kAsciiGrid;
    hole.replace(hole.find("7 8"), 1, "-9999");
    write_text(file("hole.asc"), hole);
    write_text(file("grid.asc"), kAsciiGrid);
    const struct {
        std::string name;
        RasterWindow window;
        int stride;
        std::string words;
    } cases[] = {
        {"bad_number.asc", {}, 1, "line 9, value 2: '1x' is not a finite number"},
        {"short.asc",
         {},
         1,
         "the grid holds 11 values where its header's ncols x nrows ask for 12"},
        {"hole.asc",
         {},
         1,
         "1 no-data cells in the window, first at row 1, column 2 (x 225, y 315)"},
        {"grid.asc", {3, 0, 2, 0}, 1, "outside the raster's 4 columns x 3 rows"},
        {"grid.asc", {}, 0, "stride 0 must be at least 1"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> messages;
        for (const GridReader& read : ascii_grid_readers()) {
            messages.push_back(refusal([&] { read(file(c.name), c.window, c.stride); }));
            EXPECT_NE(messages.back().find("raster " + file(c.name) + ": "), std::string::npos);
            EXPECT_NE(messages.back().find(c.words), std::string::npos) << messages.back();
        }
        EXPECT_EQ(messages.front(), messages.back());
    }
    // The window without the hole reads.
    for (const GridReader& read : ascii_grid_readers()) {
        EXPECT_EQ(read(file("hole.asc"), {0, 0, 2, 0}, 1).columns, 2);
    }
}

TEST_F(TerrainTest, AsciiGridHeadersAreCheckedKeyByKey) {
    const auto message = [&](const std::string& text) {
        write_text(file("header.asc"), text);
        return refusal([&] { read_ascii_grid(file("header.asc"), {}, 1, kMaxElevationSamples); });
    };
    const std::string values = "1 2\n3 4\n";
    EXPECT_NE(message("nrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n" + values)
                  .find("the header gives no ncols"),
              std::string::npos);
    EXPECT_NE(message("ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 0\n" + values)
                  .find("line 5: cellsize '0' is not a number above 0"),
              std::string::npos);
    EXPECT_NE(message("ncols 2\nnrows -2\nxllcorner 0\nyllcorner 0\ncellsize 1\n" + values)
                  .find("line 2: nrows '-2' is not a number above 0"),
              std::string::npos);
    // Keys in any case and order, dx and dy for cellsize, centres for corners.
    write_text(file("keys.asc"),
               "NROWS 2\nNCols 2\ndy 3\ndx 2\nyllcenter 10\nXLLCENTER 5\n" + values);
    const ElevationGrid grid = read_ascii_grid(file("keys.asc"), {}, 1, kMaxElevationSamples);
    EXPECT_EQ(grid.x0, 5.0);
    EXPECT_EQ(grid.y0, 10.0);
    EXPECT_EQ(grid.dx, 2.0);
    EXPECT_EQ(grid.dy, 3.0);
    EXPECT_EQ(grid.at(0, 0), 3.0);
}

#if SPH_HAVE_GDAL
// Every field equal, the elevations bit for bit.
void expect_same_grid(const ElevationGrid& own, const ElevationGrid& gdal) {
    EXPECT_EQ(own.columns, gdal.columns);
    EXPECT_EQ(own.rows, gdal.rows);
    EXPECT_EQ(own.dx, gdal.dx);
    EXPECT_EQ(own.dy, gdal.dy);
    EXPECT_EQ(own.x0, gdal.x0);
    EXPECT_EQ(own.y0, gdal.y0);
    EXPECT_EQ(own.source, gdal.source);
    ASSERT_EQ(own.elevations.size(), gdal.elevations.size());
    EXPECT_EQ(std::memcmp(own.elevations.data(), gdal.elevations.data(),
                          own.elevations.size() * sizeof(double)),
              0);
}

TEST_F(TerrainTest, OwnAsciiGridReaderGivesGdalsGrid) {
    // Integers, floats (GDAL rounds them to float when any value has a point or an exponent),
    // a float no-data value, centres, dx and dy, a global grid, CRLF, values across lines.
    const std::string header = "ncols 5\nnrows 4\n";
    const std::string floats =
        "0.1 -2.5e1 3 4e-3 5.123456789\n6 7 8 9 10.7\n"
        "11 12.25 13 14 15\n16 17 18 19 1e30\n";
    const std::string integers = "1 -2 +3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 -0\n";
    const std::string files[] = {
        header + "xllcorner 1000.5\nyllcorner 2000.25\ncellsize 0.3\nNODATA_value -9999\n" + floats,
        header + "xllcorner 1000.5\nyllcorner -20.125\ncellsize 0.1\n" + integers,
        header + "XLLCENTER 7.7\nYLLCENTER 8.8\nDX 0.7\nDY 1.9\nnodata_value -1.5\n" + floats,
        "yllcorner -90\nncols 720\nnrows 4\nxllcorner -180\ncellsize 0.5000000001\n" +
            [] {
                std::string v;
                for (int k = 0; k < 2880; ++k) v += std::to_string(k % 97) + ".5 ";
                return v;
            }(),
        "ncols 5\r\nnrows 4\r\nxllcorner 3\r\nyllcorner 4\r\ncellsize 2.5\r\n0.3 1 2 3\r\n4 5 6 7 "
        "8 "
        "9 10\r\n11 12 13 14 15 16 17 18 19\r\n",
    };
    const RasterWindow windows[] = {{}, {1, 1, 0, 0}, {0, 1, 4, 3}, {2, 0, 3, 2}};
    int index = 0;
    for (const std::string& text : files) {
        const std::string path = file("same" + std::to_string(index++) + ".asc");
        write_text(path, text);
        for (const RasterWindow& window : windows) {
            for (int stride : {1, 2, 3}) {
                SCOPED_TRACE(path + " window " + std::to_string(window.column_offset) + "," +
                             std::to_string(window.row_offset) + " stride " +
                             std::to_string(stride));
                const std::string gdal_refusal =
                    refusal([&] { read_elevation_raster(path, window, stride); });
                const std::string own_refusal =
                    refusal([&] { read_ascii_grid(path, window, stride, kMaxElevationSamples); });
                EXPECT_EQ(own_refusal, gdal_refusal);
                if (!gdal_refusal.empty()) continue;
                expect_same_grid(read_ascii_grid(path, window, stride, kMaxElevationSamples),
                                 read_elevation_raster(path, window, stride));
            }
        }
    }
}
#else
TEST_F(TerrainTest, WithoutGdalOnlyAsciiGridsAreRead) {
    write_text(file("plane.tif"), "II*\0 not read");
    EXPECT_NE(refusal([&] { read_elevation_raster(file("plane.tif"), {}, 1); })
                  .find(file("plane.tif") +
                        ": this build reads elevation rasters without GDAL: "
                        "ESRI ASCII grids (.asc) only; rebuild with -DSPH_WITH_GDAL=ON to read "
                        "GeoTIFF"),
              std::string::npos);
    write_text(file("GRID.ASC"), kAsciiGrid);
    EXPECT_EQ(read_elevation_raster(file("GRID.ASC"), {}, 1).columns, 4);
}
#endif  // SPH_HAVE_GDAL

}  // namespace
}  // namespace sph
