#include "branches/branch_changes.h"

#include <set>
#include <sstream>

#include "common/errors.h"
#include "driver/restart.h"

namespace sph {

RunOptions branch_options(const RunOptions& parent, const Branch& branch, std::size_t k,
                          const std::string& root_dir) {
    RunOptions o = parent;
    o.branches_file.clear();
    o.decision_times.clear();
    o.geometry_changes.clear();  // the parent's are in the state already
    o.adds_instruments = false;
    o.restart_state.reset();
    o.output_dir = root_dir + "/" + branch.name;
    o.checkpoint_dir = o.output_dir + "/checkpoints";
    o.restart_from = decision_checkpoint_path(parent.output_dir, k);
    using Kind = BranchChange::Kind;
    for (const BranchChange& change : branch.changes) {
        switch (change.kind) {
            case Kind::kAlpha:
                o.viscosity_alpha = change.value;
                o.changes_allowed.push_back("alpha");
                break;
            case Kind::kDelta:
                o.diffusion_delta = change.value;
                o.changes_allowed.push_back("delta");
                break;
            case Kind::kRemove:
                o.geometry_changes.push_back(GeometryChange::removing(change.name));
                break;
            case Kind::kAddBox:
                o.geometry_changes.push_back(GeometryChange::adding(change.box));
                break;
            case Kind::kAddMesh:
                o.geometry_changes.push_back(GeometryChange::adding(change.mesh, change.transform));
                break;
            case Kind::kGauge:
                o.gauges.push_back(change.gauge);
                o.adds_instruments = true;
                break;
            case Kind::kProbe:
                o.probes.push_back(change.probe);
                o.adds_instruments = true;
                break;
            case Kind::kSensor:
                o.walls.push_back(change.sensor);
                o.adds_instruments = true;
                break;
            case Kind::kBody:
                o.body_changes.push_back(change.body_change);
                o.changes_allowed.push_back("body " + change.name);
                break;
        }
    }
    return o;
}

namespace {

struct PlanCheck {
    const BranchPlan& plan;
    const Problem& problem;
    const RunOptions& options;
    const Box domain;

    [[noreturn]] void fail(const BranchChange& change, const std::string& why) const {
        throw OptionError("--branches " + options.branches_file + " line " +
                          std::to_string(change.line) + ": " + why);
    }

    bool in_domain(double x, double y, double z) const {
        return x >= domain.lo[0] && x <= domain.hi[0] && y >= domain.lo[1] && y <= domain.hi[1] &&
               z >= domain.lo[2] && z <= domain.hi[2];
    }

    // The branches of `parent` and theirs, each knowing the instrument names above it.
    void check_below(const std::string& parent, const std::set<std::string>& names) const {
        for (const DecisionPoint* point : plan.decisions_of(parent)) {
            if (point->time >= options.t_end) {
                std::ostringstream msg;
                msg << "--branches: the decision point at " << point->time
                    << " s is not before --t-end " << options.t_end;
                throw OptionError(msg.str());
            }
            for (const Branch& branch : point->branches) {
                std::set<std::string> mine = names;
                for (const BranchChange& change : branch.changes) check(change, mine);
                check_below(branch.name, mine);
            }
        }
    }

    void check(const BranchChange& change, std::set<std::string>& names) const {
        using Kind = BranchChange::Kind;
        try {
            if (change.kind == Kind::kRemove) named_region(problem, change.name, options.dp);
            if (change.kind == Kind::kAddBox) check_added_box(problem, change.box, options.dp);
            if (change.kind == Kind::kAddMesh) {
                check_added_mesh(problem, GeometryChange::adding(change.mesh, change.transform),
                                 options.dp);
            }
            if (change.kind == Kind::kBody) {
                std::vector<MovingBody> bodies = problem.bodies(options.dp);
                apply_body_changes(bodies, {change.body_change}, -1.0);
            }
        } catch (const OptionError& e) {
            fail(change, e.what());
        } catch (const std::invalid_argument& e) {
            fail(change, e.what());
        }
        if (change.kind != Kind::kGauge && change.kind != Kind::kProbe &&
            change.kind != Kind::kSensor) {  // a region, a wall or a body: not an instrument
            return;
        }
        if (!names.insert(change.name).second) {
            fail(change, "the instrument name '" + change.name + "' is taken");
        }
        const bool inside = change.kind == Kind::kGauge
                                ? in_domain(change.gauge.x, change.gauge.y, domain.lo[2])
                            : change.kind == Kind::kProbe
                                ? in_domain(change.probe.x, change.probe.y, change.probe.z)
                                : in_domain(change.sensor.x, change.sensor.y, change.sensor.z);
        if (!inside) fail(change, "'" + change.name + "' lies outside the domain");
    }
};

}  // namespace

void check_branch_plan(const BranchPlan& plan, const Problem& problem, const RunOptions& options) {
    std::set<std::string> names;  // the base's instruments
    for (const Gauge& g : problem.instruments().gauges) names.insert(g.name);
    for (const Probe& p : problem.instruments().probes) names.insert(p.name);
    for (const WallSensor& w : problem.instruments().walls) names.insert(w.name);
    for (const Gauge& g : options.gauges) names.insert(g.name);
    for (const Probe& p : options.probes) names.insert(p.name);
    for (const WallSensor& w : options.walls) names.insert(w.name);
    names.insert("time");
    names.insert("front");
    PlanCheck{plan, problem, options, problem.domain(options.dp)}.check_below("", names);
}

}  // namespace sph
