// libFuzzer target: an elevation raster (a DEM), read as a terrain is read
// (geometry/raster_reader.h). The first byte picks the file's extension, .asc or .tif, so both
// the ASCII grid and the GeoTIFF paths are reached; the rest is the file. The reader either
// returns a grid or throws an OptionError (a std::invalid_argument) naming what is wrong;
// anything else is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "geometry/raster_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size < 1) return 0;
    const std::string stem = "/tmp/sph_raster_fuzz_" + std::to_string(::getpid());
    const std::string path = stem + (data[0] % 2 == 0 ? ".asc" : ".tif");
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data + 1, 1, size - 1, f);
        std::fclose(f);
    } else {
        return 0;
    }
    // A tiny file may claim a huge sparse raster: a bound keeps each input's memory and time
    // small, as a run's own window and stride would.
    constexpr std::int64_t kFuzzMaxSamples = std::int64_t{1} << 20;
    try {
        (void)sph::read_elevation_raster(path, {}, 1, kFuzzMaxSamples);
    } catch (const std::invalid_argument&) {
        // Refused, naming the file and the problem: what bad input must get.
    }
    std::remove(path.c_str());
    return 0;
}
