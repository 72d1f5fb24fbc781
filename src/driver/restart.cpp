#include "driver/restart.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "bodies/moving_bodies.h"
#include "boundaries/damping_zones.h"
#include "checkpoint/checkpoint_file.h"
#include "checkpoint/checkpoint_folder.h"
#include "common/clock.h"
#include "common/errors.h"
#include "sectioned_file.h"

namespace sph {

namespace {

std::string exact(double value) {
    char text[40];
    std::snprintf(text, sizeof text, "%.17g", value);
    return text;
}

// The fewest digits that read back as `value` (0.15, not 0.14999999999999999), for messages.
std::string shortest(double value) {
    char text[40];
    for (int digits = 1; digits < 17; ++digits) {
        std::snprintf(text, sizeof text, "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value) return text;
    }
    return exact(value);
}

}  // namespace

std::vector<Setting> physics_settings(const Problem& problem, const RunOptions& o,
                                      const CellGrid& grid, std::size_t particles_at_setup) {
    std::ostringstream cells;
    const PositionFrame& f = grid.frame;
    cells << "frame " << exact(f.origin[0]) << "," << exact(f.origin[1]) << ","
          << exact(f.origin[2]) << " step " << exact(f.unit) << " origin " << grid.origin[0] << ","
          << grid.origin[1] << "," << grid.origin[2] << " side " << grid.side << " steps dims "
          << grid.dims[0] << "x" << grid.dims[1] << "x" << grid.dims[2] << " split "
          << grid.order[0];
    const char* slip = o.slip == RunOptions::Slip::kProblem  ? "problem"
                       : o.slip == RunOptions::Slip::kNoSlip ? "no-slip"
                                                             : "free-slip";
    std::vector<Setting> settings{{"problem", problem.name()},
                                  {"dp", exact(o.dp)},
                                  {"h-factor", exact(o.h_factor)},
                                  {"c0-factor", exact(o.c0_factor)},
                                  {"cfl", exact(o.cfl)},
                                  {"alpha", exact(o.viscosity_alpha)},
                                  {"delta", exact(o.diffusion_delta)},
                                  {"rho0", exact(o.rho0)},
                                  {"gamma", exact(o.gamma)},
                                  {"gravity", exact(o.gravity)},
                                  {"boundary", o.boundary == BoundaryModel::kMdbc ? "mdbc" : "dbc"},
                                  {"slip", slip},
                                  {"rebuild-every", std::to_string(o.rebuild_every)},
                                  {"early-rebuild", o.early_rebuild ? "on" : "off"},
                                  {"list-skin", exact(o.list_skin)},
                                  {"still-water depth", exact(problem.still_water_depth())},
                                  {"cell grid", cells.str()},
                                  {"particles at set-up", std::to_string(particles_at_setup)}};
    // Only where it is on: a checkpoint written before the option existed restarts without it.
    if (o.gradient_correction) settings.push_back({"gradient-correction", "on"});
    if (o.no_penetration) settings.push_back({"no-penetration", "on"});
    std::vector<MovingBody> bodies = problem.bodies(o.dp);
    apply_body_changes(bodies, o.body_changes, -1.0);
    for (const MovingBody& body : bodies) {  // only where there are bodies
        settings.push_back({"body " + body.region.name, describe_body(body)});
    }
    const std::vector<DampingZone> damping = problem.damping_zones();
    if (!damping.empty()) settings.push_back({"damping", describe_damping(damping)});
    if (o.perturb_seed != 0) {
        settings.push_back(
            {"perturb", std::to_string(o.perturb_seed) + " size " + exact(o.perturb_size)});
    }
    return settings;
}

std::optional<RunState> read_restart(const RunOptions& options, std::string& notes) {
    if (options.restart_state) return *options.restart_state;
    if (options.restart_from.empty()) return std::nullopt;
    std::string path = options.restart_from;
    try {
        const auto start = SteadyClock::now();
        RunState state;
        if (path == "latest") {
            std::ostringstream warnings;
            LatestCheckpoint latest = read_latest_checkpoint(options.checkpoint_folder(), warnings);
            notes += warnings.str();
            path = latest.path;
            state = std::move(latest.state);
        } else {
            state = read_checkpoint(path);
        }
        std::ostringstream note;
        note << "restarting from " << path << " (t = " << state.time << " s, iteration "
             << state.iteration << "; read and verified in " << seconds_since(start) << " s)\n";
        notes += note.str();
        return state;
    } catch (const CorruptFile& e) {
        throw OptionError(std::string("--restart: the checkpoint is refused: ") + e.what());
    } catch (const std::runtime_error& e) {
        throw OptionError(std::string("--restart: ") + e.what());
    }
}

void check_restart(const RunState& saved, const std::string& problem,
                   const std::vector<Setting>& now, const RunOptions& options) {
    if (saved.problem != problem) {
        throw OptionError("--restart: the checkpoint is of problem " + saved.problem + ", not " +
                          problem);
    }
    if (saved.build_id != build_id()) {
        throw OptionError("--restart: the checkpoint was written by build '" + saved.build_id +
                          "', this is build '" + build_id() +
                          "': another build may round differently, so the run could not go on "
                          "exactly");
    }
    auto fixed = [&](std::vector<Setting> settings) {  // less the branch's changes
        const auto& allowed = options.changes_allowed;
        settings.erase(std::remove_if(settings.begin(), settings.end(),
                                      [&](const Setting& s) {
                                          return std::find(allowed.begin(), allowed.end(),
                                                           s.first) != allowed.end();
                                      }),
                       settings.end());
        return settings;
    };
    const std::vector<std::string> differing = differing_settings(fixed(saved.physics), fixed(now));
    if (!differing.empty()) {
        std::string list;
        for (const std::string& d : differing) list += (list.empty() ? "" : "; ") + d;
        throw OptionError(
            "--restart: options that change the physics differ from the "
            "checkpoint's: " +
            list);
    }
    // An end checkpoint lies before the end its run reached (the last rebuild before it, where
    // the run that never stopped also was): from it a --t-end up to that end is run already.
    if (saved.end_reached && !(options.t_end > *saved.end_reached)) {
        throw OptionError("--restart: the run this checkpoint ends already reached t = " +
                          shortest(*saved.end_reached) + " s; nothing is left to run up to " +
                          "--t-end " + shortest(options.t_end) +
                          " s: give a later --t-end to extend it");
    }
    if (!(options.t_end > saved.time)) {
        throw OptionError("--restart: the checkpoint is at t = " + exact(saved.time) +
                          " s, already at or past --t-end " + exact(options.t_end) +
                          ": give a later --t-end");
    }
}

std::string decision_checkpoint_path(const std::string& output_dir, std::size_t k) {
    return output_dir + "/decision_" + std::to_string(k) + ".chk";
}

}  // namespace sph
