#include "cases/case_bodies.h"

#include <cmath>
#include <stdexcept>

#include "bodies/motion_series.h"
#include "bodies/wave_maker.h"
#include "cases/case_shapes.h"
#include "common/errors.h"

namespace sph {
namespace {

double time_of(const YamlFields& f, const YAML::Node& node, const char* what) {
    const double t = f.number(node, what);
    if (t < 0.0) f.fail(node, std::string(what) + " must not be negative");
    return t;
}

void read_vector(const YamlFields& f, const YAML::Node& node, const char* what, BodyLaw& law) {
    if (!node.IsSequence() || node.size() != 3) f.fail(node, std::string(what) + " is [x, y, z]");
    for (std::size_t a = 0; a < 3; ++a) law.vector[a] = f.number(node[a], what);
}

// hinge: {axis: x|y|z, at: [x, y, z]}: the line a body turns about, as laid out.
void read_hinge(const YamlFields& f, const YAML::Node& node, BodyLaw& law) {
    f.require_map(node, "a hinge", {"axis", "at"});
    const YAML::Node a = f.required(node, "axis", "a hinge");
    const std::string axis = f.text(a, "a hinge's axis");
    if (axis != "x" && axis != "y" && axis != "z") f.fail(a, "a hinge's axis is x, y or z");
    law.hinge_axis = axis[0] - 'x';
    const Vec3d at = f.point(f.required(node, "at", "a hinge"), "a hinge's point");
    for (int k = 0; k < 3; ++k) law.hinge[k] = at[k];
}

// A wave maker's waves: {waves: {height, period, depth}, axis, paddle, ramp, start} or
// {solitary: {height, depth}, axis, start}; the law itself is made once the case is read.
void read_waves(const YamlFields& f, const YAML::Node& node, CaseBody& body) {
    const bool regular = bool(node["waves"]);
    const YAML::Node w = regular ? node["waves"] : node["solitary"];
    if (regular) {
        f.require_map(w, "waves", {"height", "period", "depth"});
        body.wave_period = f.number(f.required(w, "period", "waves"), "period");
    } else {
        f.require_map(w, "a solitary wave", {"height", "depth"});
    }
    body.waves = regular ? CaseBody::Waves::kRegular : CaseBody::Waves::kSolitary;
    body.wave_height = f.length(f.required(w, "height", "a wave"), "a wave's height");
    body.wave_depth = f.length(f.required(w, "depth", "a wave"), "the water's depth");
    if (const YAML::Node a = node["axis"]) {
        const std::string axis = f.text(a, "axis");
        if (axis != "x" && axis != "y") f.fail(a, "waves travel along x or y");
        body.axis = axis[0] - 'x';
    }
    if (const YAML::Node r = node["ramp"]) {
        if (!regular) f.fail(r, "a solitary wave takes no 'ramp'");
        body.ramp_periods = time_of(f, r, "ramp") / body.wave_period;
    }
    if (const YAML::Node p = node["paddle"]) {
        const std::string paddle = f.text(p, "paddle");
        if (paddle != "piston" && paddle != "flap") f.fail(p, "a paddle is a piston or a flap");
        body.flap = paddle == "flap";
        if (body.flap && !regular) f.fail(p, "a solitary wave is made by a piston");
    }
    if (body.flap != bool(node["hinge"])) {
        f.fail(node, "a flap needs its hinge (hinge: {axis, at}), and only a flap takes one");
    }
    if (body.flap) {
        read_hinge(f, node["hinge"], body.law);
        if (body.law.hinge_axis != 1 - body.axis) {
            f.fail(node["hinge"], std::string("a flap making waves along ") + "xy"[body.axis] +
                                      " turns about a hinge along " + "yx"[body.axis]);
        }
    }
    if (const YAML::Node s = node["start"]) body.law.start = time_of(f, s, "start");
    for (const char* key : {"stop", "period", "turn", "swing"}) {
        if (node[key]) f.fail(node[key], std::string("a wave maker takes no '") + key + "'");
    }
}

// A law's translation and turn: velocity and turn [deg/s] from start to stop, or sinusoid and
// swing [deg] of a period from start, ramped in.
void read_velocity_or_sinusoid(const YamlFields& f, const YAML::Node& node, BodyLaw& law) {
    const bool velocity = node["velocity"] || node["turn"];
    const auto refuse = [&](std::initializer_list<const char*> keys) {
        for (const char* key : keys) {
            if (node[key]) {
                f.fail(node[key], std::string(velocity ? "a velocity" : "a sinusoid") +
                                      " motion takes no '" + key + "'");
            }
        }
    };
    constexpr double kRadians = M_PI / 180.0;
    if (velocity) {
        refuse({"period", "ramp", "sinusoid", "swing"});
        law.kind = MotionKind::kVelocity;
        if (const YAML::Node v = node["velocity"]) read_vector(f, v, "velocity", law);
        if (const YAML::Node t = node["turn"]) law.turn = f.number(t, "turn") * kRadians;
        if (const YAML::Node s = node["stop"]) law.stop = time_of(f, s, "stop");
        if (!(law.stop > law.start)) f.fail(node, "a motion's stop must come after its start");
        return;
    }
    refuse({"stop"});
    law.kind = MotionKind::kSinusoid;
    if (const YAML::Node a = node["sinusoid"]) read_vector(f, a, "sinusoid (its amplitude)", law);
    if (const YAML::Node w = node["swing"]) law.turn = f.number(w, "swing") * kRadians;
    law.period = f.number(f.required(node, "period", "a sinusoid"), "period");
    if (!(law.period > 0.0)) f.fail(node["period"], "period must be positive");
    if (const YAML::Node r = node["ramp"]) law.ramp = time_of(f, r, "ramp");
}

// motion: velocity/turn | sinusoid/swing (read_velocity_or_sinusoid) | {series: FILE} | waves |
// solitary (read_waves); hinge where the body turns.
BodyLaw read_motion(const YamlFields& f, const YAML::Node& node, CaseBody& body) {
    f.require_map(node, "a body's motion",
                  {"velocity", "turn", "sinusoid", "swing", "series", "waves", "solitary", "axis",
                   "paddle", "hinge", "start", "stop", "period", "ramp"});
    const int given = ((node["velocity"] || node["turn"]) ? 1 : 0) +
                      ((node["sinusoid"] || node["swing"]) ? 1 : 0) + (node["series"] ? 1 : 0) +
                      (node["waves"] ? 1 : 0) + (node["solitary"] ? 1 : 0);
    if (given != 1) {
        f.fail(node,
               "a body's motion needs exactly one of velocity (and turn), sinusoid (and "
               "swing), series, waves or solitary");
    }
    if (node["waves"] || node["solitary"]) {
        read_waves(f, node, body);
        return body.law;
    }
    for (const char* key : {"axis", "paddle"}) {
        if (node[key]) f.fail(node[key], std::string(key) + " goes with waves or solitary");
    }
    BodyLaw law;
    if (const YAML::Node s = node["start"]) law.start = time_of(f, s, "start");
    if (const YAML::Node h = node["hinge"]) read_hinge(f, h, law);
    if ((node["turn"] || node["swing"]) && !node["hinge"]) {
        f.fail(node, "a body that turns needs its hinge (hinge: {axis, at})");
    }
    if (node["series"]) {
        for (const char* key : {"start", "stop", "period", "ramp"}) {
            if (node[key]) f.fail(node[key], std::string("a series motion takes no '") + key + "'");
        }
        law.kind = MotionKind::kSeries;
        body.series = f.text(node["series"], "a series' file");
        body.hinged = bool(node["hinge"]);
        return law;
    }
    read_velocity_or_sinusoid(f, node, law);
    return law;
}

// A wave maker's law from its waves: a piston's sinusoid or Goring's series, a flap's swing of
// half its stroke at the still-water level, the water `depth` above its hinge.
void add_wave_maker_law(const CaseBody& b, MovingBody& body) {
    if (b.waves == CaseBody::Waves::kRegular) {
        const BodyLaw piston = regular_piston_law(b.wave_height, b.wave_period, b.wave_depth,
                                                  b.axis, b.law.start, b.ramp_periods);
        if (!b.flap) {
            body.law = piston;
            return;
        }
        // The same checks and ramp, the stroke a flap's: turning about y moves the flap's top
        // towards +x for a positive angle, about x towards -y.
        body.law.kind = MotionKind::kSinusoid;
        body.law.period = piston.period;
        body.law.ramp = piston.ramp;
        const double half_stroke = 0.5 * flap_stroke(b.wave_height, b.wave_period, b.wave_depth);
        body.law.turn = (b.axis == 0 ? 1.0 : -1.0) * std::atan(half_stroke / b.wave_depth);
    } else if (b.waves == CaseBody::Waves::kSolitary) {
        body.law.kind = MotionKind::kSeries;
        for (const auto& s :
             solitary_piston_series(b.wave_height, b.wave_depth, b.axis, b.law.start)) {
            body.series.push_back({s[0], s[1], s[2], s[3], 0.0});
        }
    }
}

// The axes a list names ([x, z]), for a floating body's move and turn.
void read_axes(const YamlFields& f, const YAML::Node& node, const char* what, bool axes[3]) {
    if (!node.IsSequence()) f.fail(node, std::string(what) + " is a list of axes, as [x, z]");
    for (int a = 0; a < 3; ++a) axes[a] = false;
    for (const YAML::Node& item : node) {
        const std::string axis = f.text(item, what);
        if (axis != "x" && axis != "y" && axis != "z") f.fail(item, "an axis is x, y or z");
        if (axes[axis[0] - 'x']) f.fail(item, "axis " + axis + " is listed twice");
        axes[axis[0] - 'x'] = true;
    }
}

// floating: {density | mass, inertia, centre, move, turn | hinge} (problem.h: FloatingSpec); a
// hinge goes into `law`.
FloatingSpec read_floating(const YamlFields& f, const YAML::Node& node, BodyLaw& law) {
    f.require_map(node, "a floating body",
                  {"density", "mass", "inertia", "centre", "move", "turn", "hinge"});
    FloatingSpec spec;
    if ((node["density"] ? 1 : 0) + (node["mass"] ? 1 : 0) != 1) {
        f.fail(node, "a floating body needs exactly one of density [kg/m^3] or mass [kg]");
    }
    if (const YAML::Node d = node["density"]) {
        spec.density = f.number(d, "density");
        if (!(spec.density > 0.0)) f.fail(d, "density must be positive");
    }
    if (const YAML::Node m = node["mass"]) {
        spec.mass = f.number(m, "mass");
        if (!(spec.mass > 0.0)) f.fail(m, "mass must be positive");
    }
    if (const YAML::Node i = node["inertia"]) {
        if (!i.IsSequence() || i.size() != 3) f.fail(i, "inertia is [Ixx, Iyy, Izz] in kg m^2");
        for (std::size_t a = 0; a < 3; ++a) {
            spec.inertia[a] = f.number(i[a], "inertia");
            if (!(spec.inertia[a] > 0.0)) f.fail(i[a], "a moment of inertia must be positive");
        }
    }
    if (const YAML::Node c = node["centre"]) {
        const Vec3d at = f.point(c, "a floating body's centre");
        spec.centre = {at[0], at[1], at[2]};
        spec.centre_given = true;
    }
    if (const YAML::Node h = node["hinge"]) {
        if (node["move"] || node["turn"])
            f.fail(h,
                   "a hinged body turns about its hinge alone: "
                   "give no move or turn");
        read_hinge(f, h, law);
        spec.hinged = true;
    }
    if (const YAML::Node m = node["move"]) read_axes(f, m, "move", spec.move);
    if (const YAML::Node t = node["turn"]) read_axes(f, t, "turn", spec.turn);
    return spec;
}

}  // namespace

CaseBody read_case_body(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "a body", {"name", "region", "solid", "motion", "floating"});
    CaseBody body;
    body.place = f.place(node);
    body.name = f.text(f.required(node, "name", "a body"), "a body's name");
    if ((node["region"] ? 1 : 0) + (node["solid"] ? 1 : 0) != 1) {
        f.fail(node, "a body needs exactly one of region (a box) or solid (a solid's name)");
    }
    if (const YAML::Node r = node["region"]) body.region = f.box(r, "a body's region");
    if (const YAML::Node s = node["solid"]) body.solid = f.text(s, "a body's solid");
    if ((node["motion"] ? 1 : 0) + (node["floating"] ? 1 : 0) != 1) {
        f.fail(node, "a body needs exactly one of motion (a law) or floating");
    }
    if (const YAML::Node fl = node["floating"]) {
        body.floating = read_floating(f, fl, body.law);
        body.law.kind = MotionKind::kFloating;
        return body;
    }
    body.law = read_motion(f, node["motion"], body);
    return body;
}

std::vector<MovingBody> case_moving_bodies(const CaseDescription& c,
                                           const std::vector<NamedRegion>& solids) {
    std::vector<MovingBody> out;
    for (const CaseBody& b : c.bodies) {
        MovingBody body;
        body.source = b.place.text();
        body.law = b.law;
        body.floating = b.floating;
        body.region = NamedRegion{b.name, b.region, nullptr};
        if (!b.solid.empty()) {
            bool found = false;
            for (const NamedRegion& r : solids) {
                if (r.name != b.solid) continue;
                body.region = NamedRegion{b.name, r.box, r.shape};
                found = true;
            }
            if (!found) throw OptionError(body.source + ": no solid is named '" + b.solid + "'");
        }
        try {
            if (!b.series.empty()) {
                body.series = read_motion_series(case_relative_path(b.series, c.path));
                for (const MotionSample& sample : body.series) {
                    if (sample[4] != 0.0 && !b.hinged) {
                        throw std::invalid_argument(
                            "its series turns the body: give its hinge "
                            "(hinge: {axis, at})");
                    }
                }
            }
            add_wave_maker_law(b, body);
        } catch (const std::invalid_argument& e) {
            throw OptionError(body.source + ": body '" + b.name + "': " + e.what());
        }
        out.push_back(std::move(body));
    }
    return out;
}

}  // namespace sph
