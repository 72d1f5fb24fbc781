// The .pvd collection that turns a run's snapshot files into one time series in ParaView.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace sph {

class PvdSeries {
public:
    // Writes an empty collection at once, so `pvd_path` is valid even before the first add.
    // Replaces any file left there by an earlier run.
    explicit PvdSeries(std::string pvd_path);
    // Continues a series (a restart): writes `entries` at once, with `note` as an XML comment
    // before them (empty: none).
    PvdSeries(std::string pvd_path, std::vector<std::pair<double, std::string>> entries,
              std::string note);

    // Appends a snapshot (`relative_file` is relative to the directory of the .pvd) and
    // rewrites the whole .pvd atomically, so a run that aborts later still leaves a valid
    // series of what it wrote. Throws std::runtime_error naming the .pvd on failure.
    void add(double time, const std::string& relative_file);
    const std::vector<std::pair<double, std::string>>& entries() const { return entries_; }

private:
    void rewrite() const;

    std::string path_;
    std::string note_;
    std::vector<std::pair<double, std::string>> entries_;
};

}  // namespace sph
