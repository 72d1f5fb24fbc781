// The gauge and probe time series: <output-dir>/gauges.csv, one row per measurement.
//
// Plain text, comma-separated, one header line "time,<column>,..." then one row per call, each
// flushed at once so that a run that stops early (or is watched while it runs) leaves every row
// measured so far. NaN values are written as "nan".
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace sph {

class GaugeCsv {
public:
    // Creates `output_dir` if needed and (over)writes gauges.csv there with the header. Throws
    // std::runtime_error naming the path if it cannot be written, std::invalid_argument if a
    // column name would break the CSV (a comma, quote or line break in it).
    // `file`: another series of the same form (bodies.csv).
    GaugeCsv(const std::string& output_dir, const std::vector<std::string>& columns,
             const std::string& file = "gauges.csv");
    // Continues a series (a restart): gauges.csv is rewritten (atomically) with `times` and
    // `rows`, the rows written before the checkpoint, exactly as they were written; a gauges.csv
    // already there is first renamed to `keep_old_as` in the same folder, so that the rows the
    // interrupted run wrote after its checkpoint are kept, not overwritten.
    GaugeCsv(const std::string& output_dir, const std::vector<std::string>& columns,
             const std::vector<double>& times, const std::vector<std::vector<double>>& rows,
             const std::string& keep_old_as, const std::string& file = "gauges.csv");

    // Appends "time,value,..." and flushes. Throws std::invalid_argument if the number of values
    // is not the number of columns, std::runtime_error naming the path if the write fails.
    void append(double time, const std::vector<double>& values);

    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::size_t columns_;
    std::ofstream out_;
    std::uintmax_t bytes_ = 0;  // written whole so far: where a failed row is cut back to
};

// The whole text of a gauges.csv: the header "time,<column>,..." and one row per time, written
// as GaugeCsv writes them.
std::string gauge_csv_text(const std::vector<std::string>& columns,
                           const std::vector<double>& times,
                           const std::vector<std::vector<double>>& rows);

}  // namespace sph
