#include "branches/branch_plan.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <sstream>

#include "common/errors.h"

namespace sph {

namespace {

bool is_name(const std::string& word) {
    if (word.empty() || word.size() > 64) return false;
    for (char c : word) {
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-')) return false;
    }
    return true;
}

// A number that is the whole word, finite.
bool read_number(const std::string& word, double& value) {
    std::istringstream in(word);
    in >> value;
    return !in.fail() && in.eof() && std::isfinite(value);
}

// The numbers words[first ...] as `count` finite numbers.
bool read_numbers(const std::vector<std::string>& words, std::size_t first, std::size_t count,
                  double* out) {
    if (words.size() < first + count) return false;
    for (std::size_t i = 0; i < count; ++i) {
        if (!read_number(words[first + i], out[i])) return false;
    }
    return true;
}

// add_mesh FILE [scale S] [rotate RX RY RZ] [translate X Y Z], FILE relative to the folder of
// the branch file `plan_path`; false when malformed.
bool parse_add_mesh(const std::vector<std::string>& words, const std::string& plan_path,
                    BranchChange& change) {
    if (words.size() < 2) return false;
    const std::filesystem::path file(words[1]);
    change.mesh = file.is_absolute()
                      ? words[1]
                      : (std::filesystem::path(plan_path).parent_path() / file).string();
    std::set<std::string> seen;
    for (std::size_t i = 2; i < words.size();) {
        const std::string& key = words[i];
        if (!seen.insert(key).second) return false;
        double n[3] = {};
        if (key == "scale") {
            if (!read_numbers(words, i + 1, 1, n) || !(n[0] > 0.0)) return false;
            change.transform.scale = n[0];
            i += 2;
        } else if (key == "rotate" || key == "translate") {
            if (!read_numbers(words, i + 1, 3, n)) return false;
            Vec3d& to = key == "rotate" ? change.transform.rotate_deg : change.transform.translate;
            to = Vec3d{n[0], n[1], n[2]};
            i += 4;
        } else {
            return false;
        }
    }
    return true;
}

using Kind = BranchChange::Kind;

// alpha X, delta X, remove REGION.
bool parse_setting_change(const std::vector<std::string>& words, BranchChange& change,
                          std::string& why) {
    const std::string& keyword = words[0];
    if (keyword == "remove") {
        change.kind = Kind::kRemove;
        why = "'remove' takes the name of one of the problem's regions (remove obstacle)";
        change.name = words.size() == 2 ? words[1] : "";
        return words.size() == 2 && is_name(words[1]);
    }
    change.kind = keyword == "alpha" ? Kind::kAlpha : Kind::kDelta;
    why = "'" + keyword + "' takes one number >= 0";
    return words.size() == 2 && read_number(words[1], change.value) && change.value >= 0.0;
}

// add_box X0 Y0 Z0 X1 Y1 Z1, add_mesh FILE [placement].
bool parse_wall_change(const std::vector<std::string>& words, const std::string& plan_path,
                       BranchChange& change, std::string& why) {
    if (words[0] == "add_mesh") {
        change.kind = Kind::kAddMesh;
        why =
            "'add_mesh' takes a closed mesh's file (STL, OBJ or PLY, relative to the branch "
            "file) and, each at most once, scale S (> 0), rotate RX RY RZ (degrees about x, then "
            "y, then z) and translate X Y Z (metres): add_mesh wall.stl translate 1.4 0 0";
        return parse_add_mesh(words, plan_path, change);
    }
    change.kind = Kind::kAddBox;
    why =
        "'add_box' takes the box's lowest and highest corners, X0 Y0 Z0 X1 Y1 Z1 in metres, "
        "each lower than the other";
    double n[6] = {};
    if (words.size() != 7 || !read_numbers(words, 1, 6, n)) return false;
    for (int a = 0; a < 3; ++a) {
        change.box.lo[a] = n[a];
        change.box.hi[a] = n[a + 3];
        if (!(n[a] < n[a + 3])) return false;
    }
    return true;
}

// surface NAME X0 Y0 Z0 X1 Y1 Z1 AXIS.
bool parse_surface_change(const std::vector<std::string>& words, BranchChange& change,
                          std::string& why) {
    change.kind = Kind::kSensor;
    why =
        "'surface' takes a name, the opposite corners X0 Y0 Z0 X1 Y1 Z1 of a box holding "
        "part of a wall's surface and the direction of the force it reads (surface FS_house "
        "1.5 0.2 0 1.8 0.8 0.3 +x)";
    double n[6] = {};
    int axis = 0, direction = 1;
    if (words.size() != 9 || !is_name(words[1]) || !read_numbers(words, 2, 6, n) ||
        !parse_face(words[8], axis, direction)) {
        return false;
    }
    for (int a = 0; a < 3; ++a) {
        if (n[a] == n[a + 3]) return false;
    }
    change.name = words[1];
    change.sensor = wall_surface(words[1], n, n + 3, axis, direction);
    return true;
}

// panel NAME X0 Y0 Z0 X1 Y1 Z1 FACE, moment ... FACE ARM.
bool parse_panel_change(const std::vector<std::string>& words, BranchChange& change,
                        std::string& why) {
    const bool moment = words[0] == "moment";
    change.kind = Kind::kSensor;
    why = moment ? "'moment' takes a name, a panel's corners and face as 'panel' does and the "
                   "arm, an axis along the face from the edge the moment is about (+z: the "
                   "lowest edge; moment M_gate 1.2 0 0 1.2 1 0.5 -x +z)"
                 : "'panel' takes a name, the opposite corners X0 Y0 Z0 X1 Y1 Z1 of a "
                   "rectangle on a wall's face (the same coordinate along its normal) and the "
                   "face's normal into the water (panel F_gate 1.2 0 0 1.2 1 0.5 -x)";
    double n[6] = {};
    int axis = 0, direction = 1, arm_axis = -1, arm_direction = 1;
    if (words.size() != (moment ? 10u : 9u) || !is_name(words[1]) ||
        !read_numbers(words, 2, 6, n) || !parse_face(words[8], axis, direction)) {
        return false;
    }
    if (!spans_face_rectangle(n, n + 3, axis)) return false;
    if (moment && !parse_arm(words[9], axis, arm_axis, arm_direction)) return false;
    change.name = words[1];
    change.sensor = moment
                        ? wall_moment(words[1], n, n + 3, axis, direction, arm_axis, arm_direction)
                        : wall_panel(words[1], n, n + 3, axis, direction);
    return true;
}

// gauge NAME X Y, probe NAME X Y Z, sensor NAME X Y Z FACE D.
bool parse_point_instrument(const std::vector<std::string>& words, BranchChange& change,
                            std::string& why) {
    const std::string& keyword = words[0];
    const std::size_t count = keyword == "gauge" ? 2 : 3;
    why = keyword == "gauge"   ? "'gauge' takes a name and X Y (gauge G_wall 1.3 0.5)"
          : keyword == "probe" ? "'probe' takes a name and X Y Z (probe P_wall 1.4 0.5 0.1)"
                               : "'sensor' takes a name, X Y Z on a wall's face, the face's "
                                 "normal into the water (+x -x +y -y +z -z) and the disc's "
                                 "diameter D > 0 (sensor S1 1.4 0.5 0.1 +x 0.03)";
    const std::size_t size = keyword == "sensor" ? 7 : 2 + count;
    double n[3] = {};
    if (words.size() != size || !is_name(words[1]) || !read_numbers(words, 2, count, n)) {
        return false;
    }
    change.name = words[1];
    if (keyword == "gauge") {
        change.kind = Kind::kGauge;
        change.gauge = Gauge{words[1], n[0], n[1]};
        return true;
    }
    if (keyword == "probe") {
        change.kind = Kind::kProbe;
        change.probe = Probe{words[1], n[0], n[1], n[2]};
        return true;
    }
    change.kind = Kind::kSensor;
    WallSensor& s = change.sensor;
    s.name = words[1];
    s.x = n[0];
    s.y = n[1];
    s.z = n[2];
    if (!parse_face(words[5], s.axis, s.direction)) return false;
    return read_number(words[6], s.diameter) && s.diameter > 0.0;
}

// body NAME start T | velocity VX VY VZ | density X | mass X.
bool parse_body_change(const std::vector<std::string>& words, BranchChange& change,
                       std::string& why) {
    change.kind = Kind::kBody;
    why =
        "'body' takes a body's name and one of start T (s >= 0), velocity VX VY VZ (m/s), "
        "density X (kg/m^3 > 0) or mass X (kg > 0): body gate start 0.3";
    if (words.size() < 4 || !is_name(words[1])) return false;
    BodyChange& c = change.body_change;
    c.body = words[1];
    change.name = words[1];
    const std::string& field = words[2];
    if (field == "velocity") {
        c.field = BodyChange::Field::kVelocity;
        return words.size() == 6 && read_numbers(words, 3, 3, c.value);
    }
    if (words.size() != 4 || !read_number(words[3], c.value[0])) return false;
    if (field == "start") {
        c.field = BodyChange::Field::kStart;
        return c.value[0] >= 0.0;
    }
    c.field = field == "density" ? BodyChange::Field::kDensity : BodyChange::Field::kMass;
    return (field == "density" || field == "mass") && c.value[0] > 0.0;
}

// One change statement (its keyword known); false with `why` when malformed.
bool parse_change(const std::vector<std::string>& words, const std::string& plan_path,
                  BranchChange& change, std::string& why) {
    const std::string& keyword = words[0];
    if (keyword == "alpha" || keyword == "delta" || keyword == "remove") {
        return parse_setting_change(words, change, why);
    }
    if (keyword == "add_box" || keyword == "add_mesh") {
        return parse_wall_change(words, plan_path, change, why);
    }
    if (keyword == "surface") return parse_surface_change(words, change, why);
    if (keyword == "body") return parse_body_change(words, change, why);
    if (keyword == "panel" || keyword == "moment") return parse_panel_change(words, change, why);
    return parse_point_instrument(words, change, why);  // gauge, probe, sensor
}

}  // namespace

namespace {

// The plan as its file is read, statement by statement; each refusal names the file and line.
class PlanReader {
public:
    explicit PlanReader(const std::string& name) : name_(name) {}

    void read_line(std::string line) {
        ++number_;
        const std::size_t hash = line.find('#');
        if (hash != std::string::npos) line.resize(hash);
        std::istringstream in(line);
        const std::vector<std::string> words((std::istream_iterator<std::string>(in)),
                                             std::istream_iterator<std::string>());
        if (words.empty()) return;
        if (words[0] == "at") {
            decision_point(words);
        } else if (words[0] == "branch") {
            branch(words);
        } else {
            change(words);
        }
    }

    BranchPlan finished() const {
        if (plan_.decisions.empty()) {
            throw OptionError("--branches " + name_ + ": no decision point ('at T')");
        }
        for (const DecisionPoint& d : plan_.decisions) {
            if (d.branches.empty()) {
                throw OptionError("--branches " + name_ + ": the decision point at " +
                                  std::to_string(d.time) + " s has no branch");
            }
        }
        return plan_;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw OptionError("--branches " + name_ + " line " + std::to_string(number_) + ": " + why);
    }

    // at T, at T in NAME.
    void decision_point(const std::vector<std::string>& words) {
        double time = 0.0;
        const bool nested = words.size() == 4 && words[2] == "in";
        if ((words.size() != 2 && !nested) || !read_number(words[1], time) || time <= 0.0) {
            fail(
                "'at' takes one time after the start, in seconds (at 0.5), and may name the "
                "branch it belongs to (at 1.0 in NAME)");
        }
        const std::string parent = nested ? words[3] : "";
        if (nested && decision_time_of_.count(parent) == 0) {
            fail("no branch '" + parent + "' before this line");
        }
        if (nested && time <= decision_time_of_[parent]) {
            fail("a decision point of branch '" + parent + "' must come after the branch starts");
        }
        const std::vector<const DecisionPoint*> siblings = plan_.decisions_of(parent);
        if (!siblings.empty() && time <= siblings.back()->time) {
            fail("decision points must come in increasing time");
        }
        plan_.decisions.push_back(DecisionPoint{time, parent, {}});
    }

    // branch NAME.
    void branch(const std::vector<std::string>& words) {
        if (plan_.decisions.empty()) fail("a branch before any decision point ('at T' first)");
        if (words.size() != 2 || !is_name(words[1])) {
            fail("'branch' takes one name of letters, digits, '_' and '-'");
        }
        if (words[1] == "base" || !names_.insert(words[1]).second) {
            fail("branch name '" + words[1] + "' is taken (names are folders: unique, not 'base')");
        }
        plan_.decisions.back().branches.push_back(Branch{words[1], {}});
        decision_time_of_[words[1]] = plan_.decisions.back().time;
    }

    // A change of the latest branch.
    void change(const std::vector<std::string>& words) {
        static const std::set<std::string> kChanges = {"alpha",    "delta",  "remove",  "add_box",
                                                       "add_mesh", "gauge",  "probe",   "sensor",
                                                       "panel",    "moment", "surface", "body"};
        if (kChanges.count(words[0]) == 0) {
            fail("unknown statement '" + words[0] +
                 "' (at, branch, and the changes alpha, delta, remove, add_box, add_mesh, gauge, "
                 "probe, sensor, panel, moment, surface, body)");
        }
        if (plan_.decisions.empty() || plan_.decisions.back().branches.empty()) {
            fail("'" + words[0] + "' before any branch ('branch NAME' first)");
        }
        std::string why;
        BranchChange change;
        if (!parse_change(words, name_, change, why)) fail(why);
        change.line = number_;
        plan_.decisions.back().branches.back().changes.push_back(change);
    }

    const std::string name_;
    int number_ = 0;
    BranchPlan plan_;
    std::set<std::string> names_;
    std::map<std::string, double> decision_time_of_;  // each branch's start
};

}  // namespace

BranchPlan parse_branch_plan(const std::string& text, const std::string& name) {
    PlanReader reader(name);
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) reader.read_line(line);
    return reader.finished();
}

const Branch* BranchPlan::find(const std::string& name, const DecisionPoint** from) const {
    for (const DecisionPoint& d : decisions) {
        for (const Branch& b : d.branches) {
            if (b.name != name) continue;
            if (from != nullptr) *from = &d;
            return &b;
        }
    }
    return nullptr;
}

std::vector<const DecisionPoint*> BranchPlan::decisions_of(const std::string& parent) const {
    std::vector<const DecisionPoint*> of;
    for (const DecisionPoint& d : decisions) {
        if (d.parent == parent) of.push_back(&d);
    }
    return of;
}

BranchPlan read_branch_plan(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw OptionError("--branches: cannot read '" + path + "'");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return parse_branch_plan(text, path);
}

}  // namespace sph
