// What the terrain tests share: a text file written, an ESRI ASCII grid, an OptionError's
// message, and a fixture with a temporary folder.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <string>

#include "common/errors.h"
#include "test_support.h"

namespace sph::testing {

inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

// An ESRI ASCII grid, 4 columns x 3 rows, lower-left corner (200, 300), cells 10 wide.
const char* const kAsciiGrid =
    "ncols 4\nnrows 3\nxllcorner 200\nyllcorner 300\ncellsize 10\nNODATA_value -9999\n"
    "1 2 3 4\n5 6 7 8\n9 10 11 12\n";

// The message of the OptionError `read` throws ("" when it throws none).
inline std::string refusal(const std::function<void()>& read) {
    try {
        read();
    } catch (const OptionError& error) {
        return error.what();
    }
    return "";
}

class TerrainTest : public ::testing::Test {
protected:
    std::string file(const std::string& name) const { return folder_.path() + "/" + name; }
    TempDir folder_{"terrain"};
};

}  // namespace sph::testing
