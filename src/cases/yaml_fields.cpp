#include "cases/yaml_fields.h"

#include <cmath>
#include <sstream>

#include "common/errors.h"

namespace sph {

CasePlace YamlFields::place(const YAML::Node& node) const {
    return CasePlace{file_, node.Mark().line + 1};
}

void YamlFields::fail(const YAML::Node& node, const std::string& message) const {
    const int line = node.Mark().line;
    throw OptionError(file_ + (line >= 0 ? ":" + std::to_string(line + 1) : "") + ": " + message);
}

void YamlFields::require_map(const YAML::Node& node, const char* what,
                             std::initializer_list<const char*> known) const {
    if (!node.IsMap()) fail(node, std::string(what) + " must be a map of keys and values");
    for (const auto& entry : node) {
        if (!entry.first.IsScalar())
            fail(entry.first, std::string(what) + ": a key must be a word");
        const std::string key = entry.first.Scalar();
        bool found = false;
        for (const char* k : known) found = found || key == k;
        if (found) continue;
        std::string list;
        for (const char* k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        fail(entry.first, "unknown key '" + key + "' in " + what + " (known: " + list + ")");
    }
}

YAML::Node YamlFields::required(const YAML::Node& map, const char* key, const char* what) const {
    const YAML::Node value = map[key];
    if (!value) fail(map, std::string(what) + " needs '" + key + "'");
    return value;
}

std::string YamlFields::text(const YAML::Node& node, const char* what) const {
    if (!node.IsScalar()) fail(node, std::string(what) + " must be a single value");
    return node.Scalar();
}

double YamlFields::number(const YAML::Node& node, const char* what) const {
    const std::string word = text(node, what);
    double value = 0.0;
    if (!YAML::convert<double>::decode(node, value) || !std::isfinite(value)) {
        fail(node, std::string(what) + " must be a finite number (got '" + word + "')");
    }
    return value;
}

int YamlFields::whole(const YAML::Node& node, const char* what, int at_least) const {
    const double value = number(node, what);
    if (value != std::floor(value) || value < at_least || value > 1e9) {
        fail(node, std::string(what) + " must be a whole number of at least " +
                       std::to_string(at_least) + " (got '" + node.Scalar() + "')");
    }
    return static_cast<int>(value);
}

bool YamlFields::flag(const YAML::Node& node, const char* what) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
        fail(node, std::string(what) + " must be true or false");
    }
    return value;
}

double YamlFields::length(const YAML::Node& node, const char* what, bool unbounded) const {
    const std::string word = text(node, what);
    double value = 0.0;
    if (YAML::convert<double>::decode(node, value)) {
        if (std::isnan(value) || (std::isinf(value) && !unbounded)) {
            fail(node, std::string(what) + " must be a finite length (got '" + word + "')");
        }
        return value;
    }
    std::istringstream in(word);
    std::string unit, rest;
    if (!(in >> value) || !(in >> unit) || (in >> rest) || !std::isfinite(value)) {
        fail(node, std::string(what) +
                       " must be a length: a number in metres, or a number and "
                       "m, cm or mm (got '" +
                       word + "')");
    }
    if (unit == "m") return value;
    if (unit == "cm") return value * 0.01;
    if (unit == "mm") return value * 0.001;
    fail(node, std::string(what) + ": '" + unit + "' is not a unit of length (m, cm or mm)");
}

Vec3d YamlFields::point(const YAML::Node& node, const char* what, bool unbounded) const {
    if (!node.IsSequence() || node.size() != 3) {
        fail(node, std::string(what) + " must be three coordinates [x, y, z]");
    }
    Vec3d p{};
    for (std::size_t a = 0; a < 3; ++a) p[a] = length(node[a], what, unbounded);
    return p;
}

Box YamlFields::box(const YAML::Node& node, const char* what, bool unbounded) const {
    require_map(node, what, {"lo", "hi"});
    const Vec3d lo = point(required(node, "lo", what), what, unbounded);
    const Vec3d hi = point(required(node, "hi", what), what, unbounded);
    Box b{};
    for (int a = 0; a < 3; ++a) {
        if (!(lo[a] < hi[a])) {
            fail(node, std::string(what) + ": lo must lie below hi along " +
                           std::string(1, "xyz"[a]) + " (" + std::to_string(lo[a]) + " against " +
                           std::to_string(hi[a]) + ")");
        }
        b.lo[a] = lo[a];
        b.hi[a] = hi[a];
    }
    return b;
}

}  // namespace sph
