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
         "kept. SIGINT or SIGTERM also writes one and stops")
        ("checkpoint-dir", po::value(&o.checkpoint_dir),
         "folder for checkpoints (default: <output-dir>/checkpoints)")
        ("branches", po::value(&o.branches_file),
         "what-if branches: a file of decision points and, at each, branches with their changes "
         "(docs/branches.md); the base runs once to the last decision point, then each branch "
         "goes on from its decision point into <output-dir>/<branch>")
        ("restart", po::value(&o.restart_from),
         "go on from this checkpoint file, or from the newest in the checkpoint folder (latest): "
         "bitwise the run that never stopped, on any number of devices; the output series and "
         "gauges.csv continue. Options that change the physics must be as they were");
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

}  // namespace sph
