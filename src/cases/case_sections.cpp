#include "cases/case_sections.h"

#include <algorithm>
#include <functional>

#include "app/instrument_options.h"
#include "common/errors.h"

namespace sph {

namespace {

// Each `name: "text"` of a map, the text as its command-line option takes it.
void for_each_named(const YamlFields& f, const YAML::Node& node, const char* option,
                    const std::function<void(const std::string&, const std::string&)>& add) {
    if (!node.IsMap()) {
        f.fail(node, std::string(option) + " must map names to values, e.g. H1: \"0.5, 0.25\"");
    }
    for (const auto& entry : node) {
        const std::string name = f.text(entry.first, "an instrument's name");
        std::string text = f.text(entry.second, option);
        text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
        try {
            add(name, text);
        } catch (const OptionError& e) {
            f.fail(entry.second, std::string(option) + " " + name + ": " + e.what());
        }
    }
}

FrontTracker read_front(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "front", {"axis", "direction", "floor", "band", "min-neighbours"});
    FrontTracker front;
    const std::string axis = f.text(f.required(node, "axis", "front"), "front's axis");
    if (axis != "x" && axis != "y" && axis != "z")
        f.fail(node["axis"], "front's axis is x, y or z");
    front.axis = axis[0] - 'x';
    front.direction = f.whole(f.required(node, "direction", "front"), "front's direction", -1);
    if (front.direction == 0) f.fail(node["direction"], "front's direction is +1 or -1");
    if (front.direction != 1 && front.direction != -1) {
        f.fail(node["direction"], "front's direction is +1 or -1");
    }
    if (const YAML::Node v = node["floor"]) front.floor = f.length(v, "front's floor");
    if (const YAML::Node v = node["band"]) front.band = f.length(v, "front's band");
    if (!(front.band > 0.0)) f.fail(node, "front's band must be positive");
    if (const YAML::Node v = node["min-neighbours"]) {
        front.min_neighbours = f.whole(v, "min-neighbours", 0);
    }
    return front;
}

}  // namespace

void read_case_instruments(const YamlFields& f, const YAML::Node& node, Instruments& in) {
    f.require_map(
        node, "instruments",
        {"gauge", "probe", "wall-sensor", "wall-panel", "wall-moment", "wall-surface", "front"});
    if (const YAML::Node n = node["gauge"]) {
        for_each_named(f, n, "gauge", [&](const std::string& name, const std::string& text) {
            const std::vector<double> xy = parse_coordinates(text, 2, "gauge");
            in.gauges.push_back({name, xy[0], xy[1]});
        });
    }
    if (const YAML::Node n = node["probe"]) {
        for_each_named(f, n, "probe", [&](const std::string& name, const std::string& text) {
            const std::vector<double> p = parse_coordinates(text, 3, "probe");
            in.probes.push_back({name, p[0], p[1], p[2]});
        });
    }
    const std::pair<const char*, WallSensor (*)(const std::string&, const std::string&)> walls[] = {
        {"wall-sensor", parse_wall_sensor},
        {"wall-panel", parse_wall_panel},
        {"wall-moment", parse_wall_moment},
        {"wall-surface", parse_wall_surface}};
    for (const auto& wall : walls) {
        const auto parse = wall.second;  // a plain variable: lambdas capture no bindings in C++17
        if (const YAML::Node n = node[wall.first]) {
            for_each_named(f, n, wall.first, [&](const std::string& name, const std::string& text) {
                in.walls.push_back(parse(text, name));
            });
        }
    }
    if (const YAML::Node n = node["front"]) in.front = read_front(f, n);
}

void read_case_settings(const YamlFields& f, const YAML::Node& node, CaseDescription& c) {
    if (!node.IsMap()) f.fail(node, "settings must map option names to values, e.g. dp: 0.02");
    bool has_dp = false;
    for (const auto& entry : node) {
        const std::string name = f.text(entry.first, "a setting's name");
        if (name == "dp") {
            c.dp = f.length(entry.second, "dp");
            if (!(c.dp > 0.0)) f.fail(entry.second, "dp must be positive");
            has_dp = true;
        } else if (name == "t-end") {
            c.t_end = f.number(entry.second, "t-end");
            if (!(c.t_end > 0.0)) f.fail(entry.second, "t-end must be positive");
        } else if (name == "case" || name == "config" || name == "help") {
            f.fail(entry.first,
                   "'" + name + "' is no setting of a case (it names files or asks for help)");
        } else {
            c.settings.push_back({name, f.text(entry.second, name.c_str()), f.place(entry.first)});
        }
    }
    if (!has_dp) f.fail(node, "settings need dp, the case's default particle spacing [m]");
}

DampingZone read_damping_zone(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "a damping zone", {"axis", "from", "to", "strength"});
    DampingZone z;
    const YAML::Node a = f.required(node, "axis", "a damping zone");
    const std::string axis = f.text(a, "a damping zone's axis");
    if (axis != "x" && axis != "y" && axis != "z") f.fail(a, "a damping zone's axis is x, y or z");
    z.axis = axis[0] - 'x';
    z.start = float(f.number(f.required(node, "from", "a damping zone"), "from"));
    z.end = float(f.number(f.required(node, "to", "a damping zone"), "to"));
    if (z.start == z.end) f.fail(node, "a damping zone's from and to must differ");
    z.strength = 10.0f;
    if (const YAML::Node s = node["strength"]) {
        z.strength = float(f.number(s, "strength"));
        if (!(z.strength >= 0.0f)) f.fail(s, "a damping zone's strength must not be negative");
    }
    return z;
}

}  // namespace sph
