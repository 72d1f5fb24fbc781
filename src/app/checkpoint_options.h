// The options of checkpoints, restarts and what-if branches (--checkpoint-every,
// --checkpoint-dir, --restart, --branches), and the parser of --checkpoint-every.
#pragma once

#include <boost/program_options.hpp>

#include <string>

#include "driver/run_options.h"

namespace sph {

// The option group; --checkpoint-every arrives as text in `checkpoint_every`, for
// parse_checkpoint_every once parsing is done.
boost::program_options::options_description checkpoint_options(RunOptions& o,
                                                               std::string& checkpoint_every);

// --checkpoint-every: simulated seconds ("0.5") into checkpoint_every, or a wall time with a
// unit ("90s", "30min", "2h") into checkpoint_wall_seconds. Throws OptionError.
void parse_checkpoint_every(const std::string& text, RunOptions& options);

// Throws OptionError for --branch-slots out of range, --scenario without --branches, or
// --branches with --restart other than latest, or --scenario with --restart.
void check_branch_options(const RunOptions& o);

}  // namespace sph
