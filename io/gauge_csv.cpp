#include "gauge_csv.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>

namespace sph {

GaugeCsv::GaugeCsv(const std::string& output_dir, const std::vector<std::string>& columns)
    : path_((std::filesystem::path(output_dir) / "gauges.csv").string()), columns_(columns.size()) {
    for (const std::string& name : columns) {
        if (name.empty() || name.find_first_of(",\"\r\n") != std::string::npos) {
            throw std::invalid_argument("gauges.csv: bad column name '" + name + "'");
        }
    }
    std::error_code ignored;  // a folder that cannot be made shows up as a file that cannot open
    std::filesystem::create_directories(output_dir, ignored);
    out_.open(path_, std::ios::out | std::ios::trunc);
    if (!out_) throw std::runtime_error("cannot write " + path_);
    out_ << "time";
    for (const std::string& name : columns) out_ << ',' << name;
    out_ << '\n' << std::flush;
    if (!out_) throw std::runtime_error("cannot write " + path_);
    // Nine significant digits: below float resolution of the values, readable as text.
    out_.precision(9);
}

void GaugeCsv::append(double time, const std::vector<double>& values) {
    if (values.size() != columns_) {
        throw std::invalid_argument("gauges.csv: " + std::to_string(values.size()) +
                                    " values for " + std::to_string(columns_) + " columns");
    }
    out_ << time;
    for (double v : values) {
        out_ << ',';
        if (std::isnan(v)) {
            out_ << "nan";
        } else {
            out_ << v;
        }
    }
    out_ << '\n' << std::flush;
    if (!out_) throw std::runtime_error("cannot write " + path_);
}

}  // namespace sph
