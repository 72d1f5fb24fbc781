#include "bodies/body_log.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "bodies/moving_bodies.h"
#include "body_loads_body.h"

namespace sph {
namespace {

// The rows of an earlier bodies.csv with the same header, up to time `until`: where it cannot be
// read, none (the series then starts again at the restart).
void rows_until(const std::string& path, const std::vector<std::string>& columns, double until,
                std::vector<double>& times, std::vector<std::vector<double>>& rows) {
    std::ifstream in(path);
    std::string line, header = "time";
    for (const std::string& c : columns) header += "," + c;
    if (!std::getline(in, line) || line != header) return;
    while (std::getline(in, line)) {
        std::stringstream fields(line);
        std::string field;
        std::vector<double> values;
        while (std::getline(fields, field, ',')) {
            char* end = nullptr;
            values.push_back(std::strtod(field.c_str(), &end));
            if (field.empty() || *end != '\0') return;  // a cut row: the series ends before it
        }
        if (values.size() != columns.size() + 1 || values[0] > until) return;
        times.push_back(values[0]);
        rows.emplace_back(values.begin() + 1, values.end());
    }
}

}  // namespace

std::vector<std::string> BodyLog::columns(const std::string& name) {
    std::vector<std::string> out;
    for (const char* c : {"dx", "dy", "dz", "angle", "vx", "vy", "vz", "omega", "Fx", "Fy", "Fz",
                          "Mx", "My", "Mz"}) {
        out.push_back(name + "_" + c);
    }
    return out;
}

BodyLog::BodyLog(const BodyTable& table, const FloatingBodies* floating, double every,
                 const std::string& file_dir, double resumed_at)
    : table_(table), floating_(floating), every_(every) {
    std::vector<std::string> all;
    for (const std::string& name : table_.names) {
        for (const std::string& c : columns(name)) all.push_back(c);
    }
    if (file_dir.empty()) return;  // another rank writes the file
    if (resumed_at < 0.0) {
        csv_ = std::make_unique<GaugeCsv>(file_dir, all, "bodies.csv");
        return;
    }
    std::vector<double> times;
    std::vector<std::vector<double>> rows;
    rows_until(file_dir + "/bodies.csv", all, resumed_at, times, rows);
    csv_ = std::make_unique<GaugeCsv>(file_dir, all, times, rows, "bodies.before-restart.csv",
                                      "bodies.csv");
}

bool BodyLog::due(double time, double previous, bool last) const {
    return last || std::floor(time / every_) > std::floor(previous / every_);
}

BodyState BodyLog::state(std::size_t b, double time) const {
    if (floating_ != nullptr && floating_->floats(b)) return floating_->log_state(b);
    return body_state_at(table_, b, time);
}

std::vector<FixedPos> BodyLog::moment_points(double time, const PositionFrame& frame) const {
    std::vector<FixedPos> points;
    for (std::size_t b = 0; b < table_.laws.size(); ++b) {
        if (floating_ != nullptr && floating_->floats(b)) {  // about its centre now
            const auto c = floating_->centre(b);
            points.push_back(frame.fixed(c[0], c[1], c[2], 0.0f));
            continue;
        }
        const BodyState s = body_state_at(table_, b, time);
        const auto& p = table_.moment_points[b];
        points.push_back(frame.fixed(p[0] + s.displacement[0], p[1] + s.displacement[1],
                                     p[2] + s.displacement[2], 0.0f));
    }
    return points;
}

void BodyLog::write(double time, const std::vector<unsigned long long>& sums) {
    std::vector<double> values;
    for (std::size_t b = 0; b < table_.laws.size(); ++b) {
        const BodyState s = state(b, time);
        for (int a = 0; a < 3; ++a) values.push_back(s.displacement[a]);
        values.push_back(s.angle);
        for (int a = 0; a < 3; ++a) values.push_back(s.velocity[a]);
        values.push_back(s.angular_velocity);
        for (int k = 0; k < kBodyLoadSums; ++k) {
            const auto units = static_cast<long long>(sums.at(b * kBodyLoadSums + k));
            values.push_back(double(units) / kLoadScale);
        }
    }
    if (csv_) csv_->append(time, values);
}

}  // namespace sph
