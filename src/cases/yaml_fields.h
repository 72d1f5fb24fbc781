// Reading a case file's values through yaml-cpp, each refusal an OptionError that names the file
// and the line: numbers, lengths with their units, points, boxes and the keys a map may hold.
#pragma once

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <string>

#include "cases/case_description.h"

namespace sph {

class YamlFields {
public:
    explicit YamlFields(std::string file) : file_(std::move(file)) {}

    const std::string& file() const { return file_; }
    CasePlace place(const YAML::Node& node) const;
    [[noreturn]] void fail(const YAML::Node& node, const std::string& message) const;

    // A map whose keys are all among `known`; `what` names it in the refusal.
    void require_map(const YAML::Node& node, const char* what,
                     std::initializer_list<const char*> known) const;
    // The value of a key the map must hold.
    YAML::Node required(const YAML::Node& map, const char* key, const char* what) const;

    std::string text(const YAML::Node& node, const char* what) const;
    double number(const YAML::Node& node, const char* what) const;  // finite
    int whole(const YAML::Node& node, const char* what, int at_least) const;
    bool flag(const YAML::Node& node, const char* what) const;
    // A length: a number in metres, or text "550 mm", "55 cm", "0.55 m"; .inf and -.inf allowed
    // where `unbounded` (the sides of a region).
    double length(const YAML::Node& node, const char* what, bool unbounded = false) const;
    Vec3d point(const YAML::Node& node, const char* what, bool unbounded = false) const;
    // {lo: [x, y, z], hi: [x, y, z]}, lo < hi along every axis.
    Box box(const YAML::Node& node, const char* what, bool unbounded = false) const;

private:
    std::string file_;
};

}  // namespace sph
