#include "gauge_csv.h"

#include "atomic_file.h"

#include <cmath>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <stdexcept>

namespace sph {

namespace {

void check_columns(const std::vector<std::string>& columns, const std::string& file) {
    for (const std::string& name : columns) {
        if (name.empty() || name.find_first_of(",\"\r\n") != std::string::npos) {
            throw std::invalid_argument(file + ": bad column name '" + name + "'");
        }
    }
}

void write_header(std::ostream& out, const std::vector<std::string>& columns) {
    out << "time";
    for (const std::string& name : columns) out << ',' << name;
    out << '\n';
}

// Nine significant digits: below float resolution of the values, readable as text.
void write_row(std::ostream& out, double time, const std::vector<double>& values) {
    out << time;
    for (double v : values) {
        out << ',';
        if (std::isnan(v)) {
            out << "nan";
        } else {
            out << v;
        }
    }
    out << '\n';
}

}  // namespace

GaugeCsv::GaugeCsv(const std::string& output_dir, const std::vector<std::string>& columns,
                   const std::string& file)
    : path_((std::filesystem::path(output_dir) / file).string()), columns_(columns.size()) {
    check_columns(columns, file);
    std::error_code ignored;  // a folder that cannot be made shows up as a file that cannot open
    std::filesystem::create_directories(output_dir, ignored);
    out_.open(path_, std::ios::out | std::ios::trunc);
    if (!out_) throw std::runtime_error("cannot write " + path_);
    std::ostringstream header;
    write_header(header, columns);
    out_ << header.str() << std::flush;
    if (!out_) throw std::runtime_error("cannot write " + path_);
    bytes_ = header.str().size();
}

GaugeCsv::GaugeCsv(const std::string& output_dir, const std::vector<std::string>& columns,
                   const std::vector<double>& times, const std::vector<std::vector<double>>& rows,
                   const std::string& keep_old_as, const std::string& file)
    : path_((std::filesystem::path(output_dir) / file).string()), columns_(columns.size()) {
    const std::string text = gauge_csv_text(columns, times, rows);
    std::error_code ec;
    if (std::filesystem::exists(path_, ec)) {
        const std::string old = (std::filesystem::path(output_dir) / keep_old_as).string();
        std::filesystem::rename(path_, old, ec);
        if (ec)
            throw std::runtime_error("cannot keep " + path_ + " as " + old + ": " + ec.message());
    }
    write_text_file_atomically(path_, text);
    bytes_ = text.size();
    out_.open(path_, std::ios::out | std::ios::app);
    if (!out_) throw std::runtime_error("cannot write " + path_);
}

void GaugeCsv::append(double time, const std::vector<double>& values) {
    if (values.size() != columns_) {
        throw std::invalid_argument("gauges.csv: " + std::to_string(values.size()) +
                                    " values for " + std::to_string(columns_) + " columns");
    }
    // The row goes out whole or not at all: a write that fails part-way (a full disk) is cut
    // back, so gauges.csv never ends in half a row.
    std::ostringstream row;
    row.precision(9);
    write_row(row, time, values);
    const std::string text = row.str();
    out_ << text << std::flush;
    if (!out_) {
        std::error_code ignored;
        std::filesystem::resize_file(path_, bytes_, ignored);
        throw std::runtime_error("cannot write " + path_);
    }
    bytes_ += text.size();
}

std::string gauge_csv_text(const std::vector<std::string>& columns,
                           const std::vector<double>& times,
                           const std::vector<std::vector<double>>& rows) {
    check_columns(columns, "gauges.csv");
    std::ostringstream out;
    write_header(out, columns);
    out.precision(9);
    for (std::size_t r = 0; r < rows.size(); ++r) write_row(out, times.at(r), rows[r]);
    return out.str();
}

}  // namespace sph
