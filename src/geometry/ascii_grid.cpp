#include "geometry/ascii_grid.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <vector>

#include "common/errors.h"
#include "geometry/raster_window.h"

namespace sph {

namespace {

// The band type GDAL's AAIGrid driver gives the grid, which decides how each value is rounded:
// integers without a decimal point or exponent anywhere, else floats (doubles only for a
// no-data value beyond float's range).
enum class ValueType { Int32, Float32, Float64 };

struct AsciiHeader {
    int columns = 0;
    int rows = 0;
    Geotransform gt{};
    bool has_no_data = false;
    double no_data = 0.0;
    ValueType type = ValueType::Int32;
};

struct HeaderField {
    std::string value;
    long long line = 0;
};
using HeaderFields = std::map<std::string, HeaderField>;  // by lower-case key

std::string lower(std::string word) {
    for (char& c : word) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return word;
}

bool is_header_key(const std::string& lower_word) {
    static const char* const kKeys[] = {"ncols",     "nrows",       "xllcorner", "yllcorner",
                                        "xllcenter", "yllcenter",   "cellsize",  "dx",
                                        "dy",        "nodata_value"};
    return std::any_of(std::begin(kKeys), std::end(kKeys),
                       [&](const char* key) { return lower_word == key; });
}

// The word as a message may show it: short and printable.
std::string quoted(const std::string& word) {
    std::string shown = word.substr(0, 32);
    for (char& c : shown) {
        if (!std::isprint(static_cast<unsigned char>(c))) c = '?';
    }
    return "'" + shown + (word.size() > 32 ? "...'" : "'");
}

// A finite decimal number. strtod alone would take hexadecimal, "nan" and "inf", which GDAL
// reads as 0; GDAL gives up on a token of 500 characters.
bool parse_number(const std::string& word, double& value) {
    if (word.empty() || word.size() > 400) return false;
    if (word.find_first_not_of("0123456789+-.eE") != std::string::npos) return false;
    char* end = nullptr;
    value = std::strtod(word.c_str(), &end);
    return *end == '\0' && std::isfinite(value);
}

// The file's non-blank lines as words, numbered from 1.
class GridLines {
public:
    explicit GridLines(const std::string& path) : in_(path, std::ios::binary) {
        if (!in_) refuse_raster(path, "cannot be opened for reading");
    }
    bool next(std::vector<std::string>& words) {
        std::string line;
        while (std::getline(in_, line)) {
            ++number_;
            starts_with_letter_ =
                !line.empty() && std::isalpha(static_cast<unsigned char>(line[0]));
            words.clear();
            std::size_t at = 0;
            const auto blank = [&](std::size_t i) {
                return std::isspace(static_cast<unsigned char>(line[i])) != 0;
            };
            while (at < line.size()) {
                while (at < line.size() && blank(at)) ++at;
                const std::size_t from = at;
                while (at < line.size() && !blank(at)) ++at;
                if (at > from) words.push_back(line.substr(from, at - from));
            }
            if (!words.empty()) return true;
        }
        return false;
    }
    long long number() const { return number_; }
    // GDAL takes the first line not beginning with a letter in its first column as the data's.
    bool starts_with_letter() const { return starts_with_letter_; }

private:
    std::ifstream in_;
    long long number_ = 0;
    bool starts_with_letter_ = false;
};

std::string on_line(long long line) {
    return "line " + std::to_string(line) + ": ";
}

// The header's key-value pairs; `data` is left holding the first line of values.
HeaderFields read_header_fields(const std::string& path, GridLines& lines,
                                std::vector<std::string>& data) {
    HeaderFields fields;
    std::vector<std::string> words;
    while (lines.next(words)) {
        const bool header_line = lines.starts_with_letter() && is_header_key(lower(words[0]));
        if (fields.empty() &&
            (!header_line || lines.number() != 1 || lower(words[0]) == "nodata_value")) {
            // GDAL recognises the format only by these first bytes.
            refuse_raster(path,
                          "not an ESRI ASCII grid: it does not begin with ncols, nrows, "
                          "xllcorner, yllcorner, xllcenter, yllcenter, cellsize, dx or dy");
        }
        if (!header_line) {
            data = words;
            return fields;
        }
        for (std::size_t k = 0; k < words.size(); k += 2) {
            const std::string key = lower(words[k]);
            if (!is_header_key(key)) {
                refuse_raster(path, on_line(lines.number()) + quoted(words[k]) +
                                        " is not an ESRI ASCII grid header key");
            }
            if (k + 1 == words.size())
                refuse_raster(path, on_line(lines.number()) + key + " has no value");
            const auto [at, added] = fields.emplace(key, HeaderField{words[k + 1], lines.number()});
            if (!added) {
                refuse_raster(path, on_line(lines.number()) + key +
                                        " is given twice (first on line " +
                                        std::to_string(at->second.line) + ")");
            }
        }
    }
    data.clear();
    return fields;
}

const HeaderField& required(const std::string& path, const HeaderFields& fields,
                            const std::string& key) {
    const auto at = fields.find(key);
    if (at == fields.end()) refuse_raster(path, "the header gives no " + key);
    return at->second;
}

double header_number(const std::string& path, const HeaderFields& fields, const std::string& key,
                     bool positive) {
    const HeaderField& field = required(path, fields, key);
    double value = 0.0;
    if (!parse_number(field.value, value) || (positive && value <= 0.0)) {
        refuse_raster(path, on_line(field.line) + key + " " + quoted(field.value) + " is not " +
                                (positive ? "a number above 0" : "a finite number"));
    }
    return value;
}

int header_count(const std::string& path, const HeaderFields& fields, const std::string& key) {
    const HeaderField& field = required(path, fields, key);
    const bool digits = field.value.find_first_not_of("0123456789") == std::string::npos;
    const double value = header_number(path, fields, key, true);
    if (!digits || value > INT_MAX) {
        refuse_raster(path, on_line(field.line) + key + " " + quoted(field.value) +
                                " is not a whole number from 1 to " + std::to_string(INT_MAX));
    }
    return static_cast<int>(value);
}

bool given(const HeaderFields& fields, const char* key) {
    return fields.count(key) > 0;
}

// As GDAL's AAIGrid driver computes it, term by term, so that both readers agree bit for bit.
Geotransform header_geotransform(const std::string& path, const HeaderFields& fields, int columns,
                                 int rows) {
    if (given(fields, "cellsize") && (given(fields, "dx") || given(fields, "dy"))) {
        refuse_raster(path, "the header gives cellsize and dx or dy: give one or the other");
    }
    if (!given(fields, "cellsize") && !given(fields, "dx")) {
        refuse_raster(path, "the header gives no cellsize (nor dx and dy)");
    }
    const bool square = given(fields, "cellsize");
    double dx = header_number(path, fields, square ? "cellsize" : "dx", true);
    double dy = square ? dx : header_number(path, fields, "dy", true);
    const bool corner = given(fields, "xllcorner") || given(fields, "yllcorner");
    if (corner && (given(fields, "xllcenter") || given(fields, "yllcenter"))) {
        refuse_raster(path, "the header mixes xllcorner/yllcorner and xllcenter/yllcenter");
    }
    if (!corner && !given(fields, "xllcenter") && !given(fields, "yllcenter")) {
        refuse_raster(path, "the header gives no xllcorner (nor xllcenter)");
    }
    const double x = header_number(path, fields, corner ? "xllcorner" : "xllcenter", false);
    const double y = header_number(path, fields, corner ? "yllcorner" : "yllcenter", false);
    // GDAL's correction of global grids whose cellsize was written with too few digits.
    if (corner && columns % 360 == 0 && std::fabs(x - (-180.0)) < 1e-12 && dx == dy &&
        std::fabs(dx - (360.0 / columns)) < 1e-9) {
        dx = dy = 360.0 / columns;
    }
    if (corner) return {x, dx, 0.0, y + rows * dy, 0.0, -dy};
    return {x - 0.5 * dx, dx, 0.0, y - 0.5 * dy + rows * dy, 0.0, -dy};
}

// GDAL rounds a float band's no-data value as it rounds the band's values.
double no_data_as_float(double value) {
    constexpr double kMax = std::numeric_limits<float>::max();
    if (value >= kMax) return kMax;
    if (value <= -kMax) return -kMax;
    return static_cast<double>(static_cast<float>(value));
}

// The no-data value, and the band type its text implies (GDAL's rules).
void read_no_data(const std::string& path, const HeaderFields& fields, AsciiHeader& header) {
    if (!given(fields, "nodata_value")) return;
    const std::string& text = fields.at("nodata_value").value;
    const double value = header_number(path, fields, "nodata_value", false);
    header.has_no_data = true;
    header.no_data = value;
    if (text.find('.') != std::string::npos || value < INT_MIN || value > INT_MAX) {
        const double magnitude = std::fabs(value);
        const bool fits_float = magnitude >= std::numeric_limits<float>::min() &&
                                magnitude <= std::numeric_limits<float>::max();
        header.type = fits_float ? ValueType::Float32 : ValueType::Float64;
    }
    if (header.type == ValueType::Float32) header.no_data = no_data_as_float(value);
}

AsciiHeader read_header(const std::string& path, GridLines& lines, std::vector<std::string>& data) {
    const HeaderFields fields = read_header_fields(path, lines, data);
    AsciiHeader header;
    header.columns = header_count(path, fields, "ncols");
    header.rows = header_count(path, fields, "nrows");
    header.gt = header_geotransform(path, fields, header.columns, header.rows);
    read_no_data(path, fields, header);
    return header;
}

// A value as GDAL stores it in the band: a float band clamps to float's range.
double band_value(double parsed, ValueType type) {
    if (type == ValueType::Float64) return parsed;
    if (type == ValueType::Float32) return no_data_as_float(parsed);
    return static_cast<double>(static_cast<std::int32_t>(parsed));  // -0 becomes 0, as atoi's
}

// What a scan of the values found besides the values themselves.
struct ValueScan {
    long long count = 0;
    bool decimal = false;  // a point or an exponent somewhere: GDAL makes the band float
    std::string wide;      // the first integer beyond 32 bits, where it is, for a message
};

// Every value checked and counted; those `sampling` takes kept in file order.
ValueScan scan_values(const std::string& path, GridLines& lines, std::vector<std::string> words,
                      const AsciiHeader& header, const RasterSampling* sampling,
                      std::vector<double>& kept) {
    ValueScan scan;
    const long long expected = static_cast<long long>(header.columns) * header.rows;
    do {
        for (std::size_t k = 0; k < words.size(); ++k, ++scan.count) {
            double value = 0.0;
            if (!parse_number(words[k], value)) {
                refuse_raster(path, "line " + std::to_string(lines.number()) + ", value " +
                                        std::to_string(k + 1) + ": " + quoted(words[k]) +
                                        " is not a finite number");
            }
            const bool decimal = words[k].find_first_of(".eE") != std::string::npos;
            scan.decimal = scan.decimal || decimal;
            if (!decimal && scan.wide.empty() && (value < INT_MIN || value > INT_MAX)) {
                scan.wide = "line " + std::to_string(lines.number()) + ", value " +
                            std::to_string(k + 1) + ": " + quoted(words[k]);
            }
            if (!sampling || scan.count >= expected) continue;
            const int row = static_cast<int>(scan.count / header.columns);
            const int column = static_cast<int>(scan.count % header.columns);
            if (sampling->rows.takes(row, sampling->stride) &&
                sampling->columns.takes(column, sampling->stride)) {
                kept.push_back(value);
            }
        }
    } while (lines.next(words));
    if (scan.count != expected) {
        refuse_raster(path, "the grid holds " + std::to_string(scan.count) +
                                " values where its header's ncols x nrows ask for " +
                                std::to_string(expected));
    }
    return scan;
}

// The band type once the values are seen; integers beyond 32 bits, which GDAL would wrap round,
// are refused.
ValueType band_type(const std::string& path, const AsciiHeader& header, const ValueScan& scan) {
    if (header.type != ValueType::Int32) return header.type;
    if (scan.decimal) return ValueType::Float32;
    if (!scan.wide.empty()) {
        refuse_raster(path, scan.wide + " does not fit the 32-bit integers GDAL reads a grid " +
                                "without decimal points as: write it with a decimal point");
    }
    return ValueType::Int32;
}

}  // namespace

bool has_ascii_grid_extension(const std::string& path) {
    return path.size() >= 4 && lower(path.substr(path.size() - 4)) == ".asc";
}

void check_ascii_grid(const std::string& path) {
    GridLines lines(path);
    std::vector<std::string> data;
    const AsciiHeader header = read_header(path, lines, data);
    std::vector<double> none;
    band_type(path, header, scan_values(path, lines, data, header, nullptr, none));
}

ElevationGrid read_ascii_grid(const std::string& path, const RasterWindow& window, int stride,
                              std::int64_t max_samples) {
    check_stride(path, stride);
    check_raster_file(path);
    GridLines lines(path);
    std::vector<std::string> data;
    const AsciiHeader header = read_header(path, lines, data);
    // The file's own faults are named before the window's, in the order the GDAL path names
    // them; only the window's samples are kept.
    std::optional<RasterSampling> sampling;
    std::exception_ptr window_refused;
    try {
        sampling = plan_sampling(path, window, stride, header.columns, header.rows, max_samples);
    } catch (const OptionError&) {
        window_refused = std::current_exception();
    }
    std::vector<double> kept;
    const ValueScan scan =
        scan_values(path, lines, data, header, sampling ? &*sampling : nullptr, kept);
    const ValueType type = band_type(path, header, scan);
    if (window_refused) std::rethrow_exception(window_refused);
    CollectedSamples samples;
    std::size_t next = 0;
    for (int r = 0; r < sampling->rows.count; ++r) {
        const int file_row = sampling->rows.offset + r * stride;
        for (int c = 0; c < sampling->columns.count; ++c) {
            samples.add(band_value(kept[next++], type), file_row,
                        sampling->columns.offset + c * stride, header.has_no_data, header.no_data);
        }
    }
    refuse_bad_cells(path, header.gt, samples);
    return arrange_grid(path, header.gt, *sampling, samples.values);
}

}  // namespace sph
