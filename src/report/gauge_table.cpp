#include "report/gauge_table.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

#include "common/comma_items.h"

namespace sph {

namespace {

[[noreturn]] void malformed(const std::string& path, int line, const std::string& what) {
    throw std::runtime_error("malformed " + path + ", line " + std::to_string(line) + ": " + what);
}

// strtod reads "nan" and "inf" as GaugeCsv writes them.
double parse_number(const std::string& field, const std::string& path, int line) {
    char* end = nullptr;
    const double value = std::strtod(field.c_str(), &end);
    if (field.empty() || end != field.c_str() + field.size()) {
        malformed(path, line, "'" + field + "' is not a number");
    }
    return value;
}

void read_header(GaugeTable& table, const std::vector<std::string>& fields, const std::string& path,
                 int line) {
    if (fields[0] != "time") malformed(path, line, "the header does not start with 'time'");
    std::set<std::string> seen;
    for (std::size_t i = 1; i < fields.size(); ++i) {
        if (fields[i].empty()) malformed(path, line, "an empty column name");
        if (!seen.insert(fields[i]).second)
            malformed(path, line, "column '" + fields[i] + "' twice");
        table.columns.push_back(fields[i]);
    }
    table.values.resize(table.columns.size());
}

void read_row(GaugeTable& table, const std::vector<std::string>& fields, const std::string& path,
              int line) {
    if (fields.size() != table.columns.size() + 1) {
        malformed(path, line,
                  std::to_string(fields.size()) + " fields for " +
                      std::to_string(table.columns.size() + 1) + " header columns");
    }
    table.times.push_back(parse_number(fields[0], path, line));
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
        table.values[c].push_back(parse_number(fields[c + 1], path, line));
    }
}

}  // namespace

std::optional<GaugeTable> read_gauge_table(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    GaugeTable table;
    bool have_header = false;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        const std::vector<std::string> fields = comma_items(line);
        if (have_header) {
            read_row(table, fields, path, number);
        } else {
            read_header(table, fields, path, number);
            have_header = true;
        }
    }
    if (in.bad()) throw std::runtime_error("cannot read " + path);
    if (!have_header) malformed(path, 1, "no header line");
    return table;
}

}  // namespace sph
