#include "bodies/motion_series.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sph {
namespace {

// A file's line, as messages name it.
struct Where {
    const std::string& name;
    int line;
    std::invalid_argument error(const std::string& what) const {
        return std::invalid_argument(name + ":" + std::to_string(line) + ": " + what);
    }
};

// Splits a line at commas into `out`; the count of fields, or 0 where a field is not one whole
// number (`bad` says which).
std::size_t parse_numbers(const std::string& line, MotionSample& out, std::string& bad) {
    std::stringstream fields(line);
    std::string field;
    std::size_t count = 0;
    while (std::getline(fields, field, ',')) {
        const std::size_t first = field.find_first_not_of(" \t\r");
        const std::size_t last = field.find_last_not_of(" \t\r");
        const std::string value =
            first == std::string::npos ? "" : field.substr(first, last - first + 1);
        char* end = nullptr;
        errno = 0;
        const double v = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0' || errno == ERANGE) {
            bad = "'" + value + "' is not a number";
            return 0;
        }
        if (count < out.size()) out[count] = v;
        ++count;
    }
    if (!line.empty() && line.back() == ',') {
        bad = "an empty field at the end of the line";
        return 0;
    }
    return count;
}

void check_sample(const MotionSample& s, const std::vector<MotionSample>& before, const Where& at) {
    for (double v : s) {
        if (!std::isfinite(v)) throw at.error("a value is not finite");
    }
    if (std::fabs(s[4]) > 1e3 * M_PI) throw at.error("an angle beyond 180,000 degrees");
    if (s[0] < 0.0) throw at.error("time " + std::to_string(s[0]) + " s is negative");
    if (before.empty()) {
        if (s[1] != 0.0 || s[2] != 0.0 || s[3] != 0.0 || s[4] != 0.0) {
            throw at.error(
                "the first sample's displacement (and angle) must be 0 (a body starts "
                "where it is laid out)");
        }
        return;
    }
    if (!(s[0] > before.back()[0])) {
        throw at.error("time " + std::to_string(s[0]) + " s does not come after the one before (" +
                       std::to_string(before.back()[0]) + " s): times must increase");
    }
}

}  // namespace

std::vector<MotionSample> parse_motion_series(const std::string& text, const std::string& name) {
    std::vector<MotionSample> samples;
    std::istringstream lines(text);
    std::string line;
    bool first_content = true;
    std::size_t columns = 0;  // of the first sample: 4, or 5 with angles
    for (int number = 1; std::getline(lines, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        const std::size_t start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line[start] == '#') continue;
        const Where at{name, number};
        if (line.find('\0') != std::string::npos) throw at.error("a NUL byte: not a text file");
        MotionSample s{};
        std::string bad;
        const std::size_t count = parse_numbers(line, s, bad);
        const bool header = first_content && line.find_first_of("0123456789") == std::string::npos;
        first_content = false;
        if (header) continue;
        if (count == 0) throw at.error(bad);
        if (columns == 0 && (count == 4 || count == 5)) columns = count;
        if (count != columns) {
            throw at.error("expected " + std::string(columns == 5 ? "5" : "4") +
                           " numbers (t, dx, dy, dz" + (columns == 5 ? ", angle" : "") +
                           "), found " + std::to_string(count) + " fields");
        }
        s[4] = columns == 5 ? s[4] * (M_PI / 180.0) : 0.0;
        check_sample(s, samples, at);
        samples.push_back(s);
    }
    if (samples.size() < 2) {
        throw std::invalid_argument(name + ": a motion series needs at least two samples, found " +
                                    std::to_string(samples.size()));
    }
    return samples;
}

std::vector<MotionSample> read_motion_series(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::invalid_argument(path + ": cannot open the motion series");
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw std::invalid_argument(path + ": cannot read the motion series");
    return parse_motion_series(text.str(), path);
}

}  // namespace sph
