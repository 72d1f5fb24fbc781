#include "app/checkpoint_options.h"

#include <cmath>
#include <string>

#include "common/errors.h"

namespace po = boost::program_options;

namespace sph {

// clang-format off
po::options_description checkpoint_options(RunOptions& o, std::string& checkpoint_every) {
    po::options_description group("Checkpoints, restarts and what-if branches");
    group.add_options()
        ("checkpoint-every", po::value(&checkpoint_every),
         "write a checkpoint (the whole run state, to restart from) every this many simulated "
         "seconds, e.g. 0.5, or of wall time with a unit: 90s, 30min, 2h; the newest two are "
         "kept. SIGINT or SIGTERM also writes one and stops; a run that reaches --t-end leaves "
         "one to extend it from (--restart latest with a later --t-end)")
        ("checkpoint-dir", po::value(&o.checkpoint_dir),
         "folder for checkpoints (default: <output-dir>/checkpoints)")
        ("branches", po::value(&o.branches_file),
         "what-if branches: a file of decision points and, at each, branches with their changes "
         "(docs/branches.md); the base runs once to the last decision point, then each branch "
         "goes on from its decision point into <output-dir>/<branch>, as many at once as there "
         "are branch slots; tree_report.md compares them")
        ("branch-slots", po::value(&o.branch_slots),
         "--branches: branches that run at once on each device of the run (default 1; more "
         "share a GPU, as many as its memory holds)")
        ("scenario", po::value(&o.scenario),
         "--branches: run only the branch of this name, alone from t = 0 into <output-dir>, its "
         "changes (and those of the branches above it) applied at their decision points")
        ("restart", po::value(&o.restart_from),
         "go on from this checkpoint file, or from the newest in the checkpoint folder (latest): "
         "bitwise the run that never stopped, on any number of devices; the output series and "
         "gauges.csv continue. Options that change the physics must be as they were. With "
         "--branches, latest makes an interrupted tree go on: branches that ended are kept, the "
         "others go on from their newest checkpoints");
    return group;
}
// clang-format on

void parse_checkpoint_every(const std::string& text, RunOptions& o) {
    std::size_t used = 0;
    double value = 0.0;
    try {
        value = std::stod(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    const std::string unit = text.substr(used);
    const double scale = unit.empty()    ? 0.0
                         : unit == "s"   ? 1.0
                         : unit == "min" ? 60.0
                         : unit == "h"   ? 3600.0
                                         : -1.0;
    if (used == 0 || scale < 0.0 || !(value > 0.0) || !std::isfinite(value)) {
        throw OptionError(
            "--checkpoint-every takes a positive number of simulated seconds (0.5) "
            "or a wall time with a unit (90s, 30min, 2h) (got '" +
            text + "')");
    }
    if (unit.empty()) {
        o.checkpoint_every = value;
    } else {
        o.checkpoint_wall_seconds = value * scale;
    }
}

void check_branch_options(const RunOptions& o) {
    if (o.branch_slots < 1 || o.branch_slots > 64) {
        throw OptionError("--branch-slots must be 1 to 64 (got " + std::to_string(o.branch_slots) +
                          ")");
    }
    if (!o.scenario.empty() && o.branches_file.empty()) {
        throw OptionError("--scenario names a branch of a --branches file: give --branches too");
    }
    if (!o.branches_file.empty() && !o.restart_from.empty() && o.restart_from != "latest") {
        throw OptionError(
            "with --branches, --restart takes only 'latest': the tree goes on from "
            "what its folders hold (got '" +
            o.restart_from + "')");
    }
    if (!o.scenario.empty() && !o.restart_from.empty()) {
        throw OptionError("--scenario runs from t = 0: it cannot go on with --restart");
    }
}

}  // namespace sph
