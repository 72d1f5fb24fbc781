// A scenario's gauges.csv (io/gauge_csv.h writes it) read back by column, for the tree report
// (tree_report.h): its figures and plots go instrument by instrument.
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace sph {

// The columns after "time", each row's time, and each column's values.
struct GaugeTable {
    std::vector<std::string> columns;
    std::vector<double> times;
    std::vector<std::vector<double>> values;  // [column][row]

    int column(const std::string& name) const {
        const auto it = std::find(columns.begin(), columns.end(), name);
        return it == columns.end() ? -1 : int(it - columns.begin());
    }
};

// Nothing when there is no such file: a branch that failed before writing one. Throws
// std::runtime_error naming the file and line where it is malformed, or the file where it cannot
// be read.
std::optional<GaugeTable> read_gauge_table(const std::string& path);

}  // namespace sph
