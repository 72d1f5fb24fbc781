#include "cases/case_file.h"

#include <fstream>
#include <iterator>
#include <sstream>

#include "cases/case_bodies.h"
#include "cases/case_sections.h"
#include "cases/yaml_fields.h"
#include "common/errors.h"

namespace sph {

namespace {

unsigned tank_face(const YamlFields& f, const YAML::Node& node) {
    const std::string word = f.text(node, "a tank's free-slip wall");
    if (word == "-x") return CaseTank::kMinusX;
    if (word == "+x") return CaseTank::kPlusX;
    if (word == "-y") return CaseTank::kMinusY;
    if (word == "+y") return CaseTank::kPlusY;
    if (word == "floor" || word == "-z") return CaseTank::kFloor;
    f.fail(node, "a tank's free-slip walls are -x, +x, -y, +y and floor (got '" + word + "')");
}

CaseTank read_tank(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "a tank", {"inside", "top", "free-slip"});
    CaseTank tank;
    tank.place = f.place(node);
    tank.inside = f.box(f.required(node, "inside", "a tank"), "a tank's inside");
    tank.top = f.length(f.required(node, "top", "a tank"), "a tank's top");
    if (!(tank.top > tank.inside.lo[2]))
        f.fail(node["top"], "a tank's top must lie above its floor");
    if (const YAML::Node slip = node["free-slip"]) {
        if (!slip.IsSequence()) f.fail(slip, "free-slip must be a list such as [-y, +y]");
        for (const YAML::Node& face : slip) tank.free_slip |= tank_face(f, face);
    }
    return tank;
}

Transform read_transform(const YamlFields& f, const YAML::Node& node) {
    Transform t;
    if (const YAML::Node s = node["scale"]) t.scale = f.number(s, "scale");
    if (!(t.scale > 0.0)) f.fail(node["scale"], "scale must be positive");
    if (const YAML::Node r = node["rotate"]) {
        if (!r.IsSequence() || r.size() != 3)
            f.fail(r, "rotate must be three angles [x, y, z] in degrees");
        for (std::size_t a = 0; a < 3; ++a) t.rotate_deg[a] = f.number(r[a], "rotate");
    }
    if (const YAML::Node m = node["translate"]) t.translate = f.point(m, "translate");
    return t;
}

// The shape of a solid or of water: one of box, mesh or terrain, with a mesh's or terrain's
// placement.
CaseShape read_shape(const YamlFields& f, const YAML::Node& node, const char* what) {
    CaseShape shape;
    shape.place = f.place(node);
    const int given = (node["box"] ? 1 : 0) + (node["mesh"] ? 1 : 0) + (node["terrain"] ? 1 : 0);
    if (given != 1) f.fail(node, std::string(what) + " needs exactly one of box, mesh or terrain");
    if (node["box"]) {
        shape.box = f.box(node["box"], what);
        for (const char* key : {"scale", "rotate", "translate", "window", "stride", "base"}) {
            if (node[key]) f.fail(node[key], std::string("a box takes no '") + key + "'");
        }
        return shape;
    }
    shape.kind = node["mesh"] ? CaseShape::Kind::kMesh : CaseShape::Kind::kTerrain;
    shape.path = f.text(node["mesh"] ? node["mesh"] : node["terrain"], "a file's path");
    shape.transform = read_transform(f, node);
    if (shape.kind == CaseShape::Kind::kMesh) {
        for (const char* key : {"window", "stride", "base"}) {
            if (node[key]) f.fail(node[key], std::string("a mesh takes no '") + key + "'");
        }
        return shape;
    }
    if (const YAML::Node w = node["window"]) {
        if (!w.IsSequence() || w.size() != 4) {
            f.fail(w, "window must be [column, row, columns, rows] in the raster's pixels");
        }
        for (std::size_t k = 0; k < 4; ++k) shape.window[k] = f.whole(w[k], "window", 0);
    }
    if (const YAML::Node s = node["stride"]) shape.stride = f.whole(s, "stride", 1);
    if (const YAML::Node b = node["base"]) shape.base = f.length(b, "base");
    return shape;
}

CaseSolid read_solid(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "a solid",
                  {"box", "mesh", "terrain", "scale", "rotate", "translate", "window", "stride",
                   "base", "name", "hollow"});
    CaseSolid solid;
    solid.place = f.place(node);
    solid.shape = read_shape(f, node, "a solid");
    if (const YAML::Node n = node["name"]) solid.name = f.text(n, "a solid's name");
    if (const YAML::Node h = node["hollow"]) solid.hollow = f.flag(h, "hollow");
    return solid;
}

CaseWater read_water(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "water",
                  {"box", "mesh", "scale", "rotate", "translate", "below", "region", "surface"});
    CaseWater water;
    water.place = f.place(node);
    if (const YAML::Node below = node["below"]) {
        water.level = f.length(below, "below");
        water.shape.place = water.place;
        water.shape.box = f.box(f.required(node, "region", "water below a level"), "a region");
        for (const char* key : {"box", "mesh"}) {
            if (node[key]) f.fail(node[key], "water below a level takes a region, not a shape");
        }
    } else {
        if (node["region"]) f.fail(node["region"], "a region goes with 'below: LEVEL'");
        water.shape = read_shape(f, node, "water");
    }
    if (const YAML::Node s = node["surface"]) water.surface = f.length(s, "surface");
    return water;
}

// Lists of items, each read by `read_item`.
template <class Item, class Read>
std::vector<Item> read_list(const YamlFields& f, const YAML::Node& node, const char* what,
                            Read read_item) {
    if (!node.IsSequence())
        f.fail(node, std::string(what) + " must be a list (items begin with -)");
    std::vector<Item> items;
    for (const YAML::Node& item : node) items.push_back(read_item(f, item));
    return items;
}

CaseWetWalls read_wet_walls(const YamlFields& f, const YAML::Node& node) {
    f.require_map(node, "wet-walls", {"region", "surface", "grow-by-walls"});
    CaseWetWalls wet;
    if (const YAML::Node g = node["grow-by-walls"]) wet.grow_by_walls = f.flag(g, "grow-by-walls");
    wet.region = f.box(f.required(node, "region", "wet-walls"), "a region", true);
    wet.surface = f.length(f.required(node, "surface", "wet-walls"), "surface");
    return wet;
}

void read_domain(const YamlFields& f, const YAML::Node& node, CaseDescription& c) {
    f.require_map(node, "the domain", {"inside", "margin"});
    c.domain_inside = f.box(f.required(node, "inside", "the domain"), "the domain's inside");
    if (const YAML::Node m = node["margin"]) c.domain_margin = f.length(m, "margin");
    if (c.domain_margin < 0.0) f.fail(node["margin"], "margin must not be negative");
}

void read_case_items(const YamlFields& f, const YAML::Node& root, CaseDescription& c) {
    f.require_map(root, "the case",
                  {"name", "domain", "wall-layers", "still-water-depth", "tanks", "solids", "water",
                   "wet-walls", "instruments", "settings", "split-axis", "bodies", "damping"});
    if (const YAML::Node a = root["split-axis"]) {
        const std::string axis = f.text(a, "split-axis");
        if (axis != "x" && axis != "y" && axis != "z") f.fail(a, "split-axis is x, y or z");
        c.split_axis = axis[0] - 'x';
    }
    if (const YAML::Node n = root["name"]) c.name = f.text(n, "name");
    read_domain(f, f.required(root, "domain", "the case"), c);
    if (const YAML::Node l = root["wall-layers"]) c.wall_layers = f.whole(l, "wall-layers", 1);
    if (const YAML::Node d = root["still-water-depth"]) {
        c.still_water_depth = f.length(d, "still-water-depth");
        if (!(c.still_water_depth > 0.0)) f.fail(d, "still-water-depth must be positive");
    }
    if (const YAML::Node t = root["tanks"]) c.tanks = read_list<CaseTank>(f, t, "tanks", read_tank);
    if (const YAML::Node s = root["solids"]) {
        c.solids = read_list<CaseSolid>(f, s, "solids", read_solid);
    }
    if (const YAML::Node w = root["water"]) {
        c.water = read_list<CaseWater>(f, w, "water", read_water);
    }
    if (const YAML::Node w = root["wet-walls"]) {
        c.wet_walls = read_list<CaseWetWalls>(f, w, "wet-walls", read_wet_walls);
    }
    if (const YAML::Node b = root["bodies"]) {
        c.bodies = read_list<CaseBody>(f, b, "bodies", read_case_body);
    }
    if (const YAML::Node z = root["damping"]) {
        c.damping = read_list<DampingZone>(f, z, "damping", read_damping_zone);
        if (c.damping.size() > std::size_t(kMostDampingZones)) {
            f.fail(z, "at most " + std::to_string(kMostDampingZones) + " damping zones");
        }
    }
    if (c.water.empty()) f.fail(root, "a case needs water (the list 'water')");
    if (const YAML::Node i = root["instruments"]) read_case_instruments(f, i, c.instruments);
    read_case_settings(f, f.required(root, "settings", "the case"), c);
}

}  // namespace

CaseDescription parse_case_text(const std::string& text, const std::string& path) {
    YAML::Node root;
    try {
        root = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        const int line = e.mark.line;
        throw OptionError(path + (line >= 0 ? ":" + std::to_string(line + 1) : "") +
                          ": not a YAML document: " + e.msg);
    }
    const YamlFields f(path);
    if (!root.IsMap()) f.fail(root, "a case file is a map of keys (docs/cases.md)");
    CaseDescription c;
    c.path = path;
    try {
        read_case_items(f, root, c);
    } catch (const YAML::Exception& e) {
        f.fail(root, e.msg);  // a node of the wrong kind where yaml-cpp noticed it first
    }
    return c;
}

CaseDescription read_case_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    if (!file) throw OptionError("--case: cannot read '" + path + "'");
    const std::string text((std::istreambuf_iterator<char>(file)),
                           std::istreambuf_iterator<char>());
    return parse_case_text(text, path);
}

}  // namespace sph
