#include "app/instrument_options.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/comma_items.h"
#include "common/errors.h"

namespace sph {

namespace {

// One finite number, the whole of `item`.
bool parse_number(const std::string& item, double& value) {
    const char* begin = item.c_str();
    char* end = nullptr;
    errno = 0;
    value = std::strtod(begin, &end);
    return end != begin && *end == '\0' && errno == 0 && std::isfinite(value);
}

}  // namespace

std::vector<double> parse_coordinates(const std::string& text, int count, const char* option) {
    const std::vector<std::string> items = comma_items(text);
    std::vector<double> values(items.size());
    bool ok = int(items.size()) == count;
    for (std::size_t i = 0; ok && i < items.size(); ++i) ok = parse_number(items[i], values[i]);
    if (!ok) {
        std::ostringstream msg;
        msg << "--" << option << " takes " << (count == 2 ? "X,Y" : "X,Y,Z") << " in metres, e.g. "
            << (count == 2 ? "0.5,0.25" : "0.5,0.25,0.1") << " (got '" << text << "')";
        throw OptionError(msg.str());
    }
    return values;
}

WallSensor parse_wall_sensor(const std::string& text, const std::string& name) {
    const auto fail = [&](const std::string& why) {
        throw OptionError(
            "--wall-sensor takes X,Y,Z,FACE,D, e.g. 1.61,0.075,0.03,-x,0.006 (the "
            "disc's centre on the face and its diameter in metres, FACE the "
            "direction from the wall into the water): " +
            why + " (got '" + text + "')");
    };
    const std::vector<std::string> items = comma_items(text);
    if (items.size() != 5) fail("five values needed");
    WallSensor w;
    w.name = name;
    if (!parse_face(items[3], w.axis, w.direction)) fail("FACE must be +x, -x, +y, -y, +z or -z");
    if (!parse_number(items[0], w.x) || !parse_number(items[1], w.y) ||
        !parse_number(items[2], w.z)) {
        fail("X, Y and Z must be numbers");
    }
    if (!parse_number(items[4], w.diameter) || !(w.diameter > 0.0)) {
        fail("the diameter must be a positive number");
    }
    return w;
}

namespace {

// "X0,Y0,Z0,X1,Y1,Z1,FACE" in items[0..6] as a panel named `name`; `fail` names the problem.
template <typename Fail>
WallSensor panel_of(const std::vector<std::string>& items, const std::string& name,
                    const Fail& fail) {
    int axis = 0, direction = 1;
    if (!parse_face(items[6], axis, direction)) fail("FACE must be +x, -x, +y, -y, +z or -z");
    double lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        if (!parse_number(items[a], lo[a]) || !parse_number(items[a + 3], hi[a])) {
            fail("the corners' coordinates must be numbers");
        }
    }
    if (!spans_face_rectangle(lo, hi, axis)) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        fail(std::string("both corners must lie on the face (the same ") + "xyz"[axis] +
             ") and the rectangle have a side along " + "xyz"[u] + " and along " + "xyz"[v]);
    }
    return wall_panel(name, lo, hi, axis, direction);
}

}  // namespace

WallSensor parse_wall_panel(const std::string& text, const std::string& name) {
    const auto fail = [&](const std::string& why) {
        throw OptionError(
            "--wall-panel takes X0,Y0,Z0,X1,Y1,Z1,FACE, e.g. 1.61,0,0,1.61,0.15,0.6,-x (opposite "
            "corners of a rectangle on a wall's face in metres, FACE the direction from the wall "
            "into the water): " +
            why + " (got '" + text + "')");
    };
    const std::vector<std::string> items = comma_items(text);
    if (items.size() != 7) fail("seven values needed");
    return panel_of(items, name, fail);
}

WallSensor parse_wall_moment(const std::string& text, const std::string& name) {
    const auto fail = [&](const std::string& why) {
        throw OptionError(
            "--wall-moment takes X0,Y0,Z0,X1,Y1,Z1,FACE,ARM, e.g. 1.61,0,0,1.61,0.15,0.6,-x,+z "
            "(a rectangle as --wall-panel; ARM +z: the moment about its lowest edge, -z: about "
            "its top edge, likewise along its other side): " +
            why + " (got '" + text + "')");
    };
    const std::vector<std::string> items = comma_items(text);
    if (items.size() != 8) fail("eight values needed");
    WallSensor w = panel_of(items, name, fail);
    if (!parse_arm(items[7], w.axis, w.arm_axis, w.arm_direction)) {
        const int u = (w.axis + 1) % 3, v = (w.axis + 2) % 3;
        fail(std::string("ARM must be +") + "xyz"[u] + ", -" + "xyz"[u] + ", +" + "xyz"[v] +
             " or -" + "xyz"[v] + ", an axis along the face");
    }
    return w;
}

WallSensor parse_wall_surface(const std::string& text, const std::string& name) {
    const auto fail = [&](const std::string& why) {
        throw OptionError(
            "--wall-surface takes X0,Y0,Z0,X1,Y1,Z1,AXIS, e.g. 1.5,0.2,0,1.8,0.8,0.3,+x "
            "(opposite corners of a box holding the part of a wall's surface to read, in "
            "metres, and the direction of the force read): " +
            why + " (got '" + text + "')");
    };
    const std::vector<std::string> items = comma_items(text);
    if (items.size() != 7) fail("seven values needed");
    int axis = 0, direction = 1;
    if (!parse_face(items[6], axis, direction)) fail("AXIS must be +x, -x, +y, -y, +z or -z");
    double lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
        if (!parse_number(items[a], lo[a]) || !parse_number(items[a + 3], hi[a])) {
            fail("the corners' coordinates must be numbers");
        }
        if (lo[a] == hi[a]) fail(std::string("the box has no width along ") + "xyz"[a]);
    }
    return wall_surface(name, lo, hi, axis, direction);
}

void add_instruments(const InstrumentTexts& texts, const Box& domain, RunOptions& o) {
    auto inside = [&](const std::vector<double>& c, const char* option, const std::string& text) {
        for (std::size_t a = 0; a < c.size(); ++a) {
            if (c[a] < domain.lo[a] || c[a] > domain.hi[a]) {
                std::ostringstream msg;
                msg << "--" << option << " " << text << " lies outside the domain ("
                    << "xyz"[a] << " in [" << domain.lo[a] << ", " << domain.hi[a] << "] m)";
                throw OptionError(msg.str());
            }
        }
    };
    for (const std::string& text : texts.gauges) {
        const std::vector<double> c = parse_coordinates(text, 2, "gauge");
        inside(c, "gauge", text);
        o.gauges.push_back({"G" + std::to_string(o.gauges.size() + 1), c[0], c[1]});
    }
    for (const std::string& text : texts.probes) {
        const std::vector<double> c = parse_coordinates(text, 3, "probe");
        inside(c, "probe", text);
        o.probes.push_back({"Q" + std::to_string(o.probes.size() + 1), c[0], c[1], c[2]});
    }
    long discs = 0, panels = 0, moments = 0, surfaces = 0;
    for (const WallSensor& w : o.walls) {
        ++(w.surface() ? surfaces : w.moment() ? moments : w.panel() ? panels : discs);
    }
    for (const std::string& text : texts.walls) {
        const WallSensor w = parse_wall_sensor(text, "W" + std::to_string(++discs));
        inside({w.x, w.y, w.z}, "wall-sensor", text);
        o.walls.push_back(w);
    }
    const auto add_panel = [&](const WallSensor& w, const char* option, const std::string& text) {
        const int u = (w.axis + 1) % 3, v = (w.axis + 2) % 3;
        std::vector<double> lo{w.x, w.y, w.z}, hi{w.x, w.y, w.z};
        lo[u] -= 0.5 * w.side_u, hi[u] += 0.5 * w.side_u;
        lo[v] -= 0.5 * w.side_v, hi[v] += 0.5 * w.side_v;
        inside(lo, option, text);
        inside(hi, option, text);
        o.walls.push_back(w);
    };
    for (const std::string& text : texts.panels) {
        add_panel(parse_wall_panel(text, "F" + std::to_string(++panels)), "wall-panel", text);
    }
    for (const std::string& text : texts.moments) {
        add_panel(parse_wall_moment(text, "M" + std::to_string(++moments)), "wall-moment", text);
    }
    for (const std::string& text : texts.surfaces) {
        const WallSensor w = parse_wall_surface(text, "FS" + std::to_string(++surfaces));
        const std::vector<double> centre{w.x, w.y, w.z};
        std::vector<double> lo = centre, hi = centre;
        for (int a = 0; a < 3; ++a) lo[a] -= 0.5 * w.extent[a], hi[a] += 0.5 * w.extent[a];
        inside(lo, "wall-surface", text);
        inside(hi, "wall-surface", text);
        o.walls.push_back(w);
    }
}

}  // namespace sph
