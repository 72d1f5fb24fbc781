// read_balance_history (balance_history.h): load_balance.csv's rows, one per device per decision,
// gathered into a series per device. A restart appends to the file and counts its steps from 0
// again, so the rows are told apart by their order: devices 0, 1, ..., D - 1, decision after
// decision.
#include "report/balance_history.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "common/comma_items.h"
#include "multi_device/load_balance_log.h"

namespace sph {

namespace {

// Where LoadBalanceLog::kHeader puts the fields the history reads.
constexpr std::size_t kTime = 2, kDevice = 3, kParticles = 6, kForcesSeconds = 7, kNewFirst = 9,
                      kNewEnd = 10, kFields = 11;

[[noreturn]] void malformed(const std::string& path, int line, const std::string& what) {
    throw std::runtime_error("malformed " + path + ", line " + std::to_string(line) + ": " + what);
}

double parse_number(const std::string& field, const std::string& path, int line) {
    char* end = nullptr;
    const double value = std::strtod(field.c_str(), &end);
    if (field.empty() || end != field.c_str() + field.size())
        malformed(path, line, "'" + field + "' is not a number");
    return value;
}

struct Row {
    int line = 0, device = 0;
    double time = 0, slices = 0, particles = 0, forces_seconds = 0;
};

Row row_of(const std::string& text, const std::string& path, int line) {
    const std::vector<std::string> fields = comma_items(text);
    if (fields.size() != kFields) {
        malformed(path, line,
                  std::to_string(fields.size()) + " fields, not " + std::to_string(kFields));
    }
    Row row;
    row.line = line;
    row.device = int(parse_number(fields[kDevice], path, line));
    row.time = parse_number(fields[kTime], path, line);
    row.slices =
        parse_number(fields[kNewEnd], path, line) - parse_number(fields[kNewFirst], path, line);
    row.particles = parse_number(fields[kParticles], path, line);
    row.forces_seconds = parse_number(fields[kForcesSeconds], path, line);
    return row;
}

// The rows as decisions of `devices` rows each, devices 0, 1, ... in turn.
BalanceHistory history_of(const std::vector<Row>& rows, const std::string& path) {
    std::size_t devices = 1;
    while (devices < rows.size() && rows[devices].device != 0) ++devices;
    BalanceHistory h;
    h.devices = int(devices);
    h.slices.resize(devices);
    h.particles.resize(devices);
    h.forces_seconds.resize(devices);
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        const std::size_t d = i % devices;
        if (row.device != int(d)) {
            malformed(path, row.line,
                      "device " + std::to_string(row.device) + " where device " +
                          std::to_string(d) + " of " + std::to_string(devices) + " was due");
        }
        if (d == 0) h.times.push_back(row.time);
        h.slices[d].push_back(row.slices);
        h.particles[d].push_back(row.particles);
        h.forces_seconds[d].push_back(row.forces_seconds);
    }
    if (rows.size() % devices != 0) {
        malformed(path, rows.back().line,
                  "the last decision has " + std::to_string(rows.size() % devices) + " of " +
                      std::to_string(devices) + " devices' rows");
    }
    return h;
}

}  // namespace

std::optional<BalanceHistory> read_balance_history(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::vector<Row> rows;
    bool have_header = false;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        if (have_header) {
            rows.push_back(row_of(line, path, number));
        } else if (line == LoadBalanceLog::kHeader) {
            have_header = true;
        } else {
            malformed(path, number, "the header is not a load balance log's");
        }
    }
    if (in.bad()) throw std::runtime_error("cannot read " + path);
    if (!have_header) malformed(path, 1, "no header line");
    if (rows.empty()) return BalanceHistory{};
    return history_of(rows, path);
}

}  // namespace sph
