// What a restart checks and restores (checkpoint/run_state.h): the checkpoint to go on from, and
// the settings that must be as they were.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cell_grid.h"
#include "checkpoint/run_state.h"
#include "driver/run_options.h"
#include "problem.h"

namespace sph {

// The settings that fix a run's physics and geometry: a restart must find each as it was. The
// neighbour search, the devices, the output and --t-end may change; these may not.
std::vector<Setting> physics_settings(const Problem& problem, const RunOptions& options,
                                      const CellGrid& grid, std::size_t particles_at_setup);

// The checkpoint --restart names, read and verified (nothing when not restarting). "latest" is
// the newest in the checkpoint folder that verifies; those passed over are named in `notes`.
// Throws OptionError naming the file and the check that failed.
std::optional<RunState> read_restart(const RunOptions& options, std::string& notes);

// Throws OptionError naming every setting of `now` that differs from the checkpoint's (except
// those in options.changes_allowed: a branch's changes), or a checkpoint of another problem or
// build.
void check_restart(const RunState& saved, const std::string& problem,
                   const std::vector<Setting>& now, const RunOptions& options);

// Where the base run of --branches writes its checkpoint at decision point `k`.
std::string decision_checkpoint_path(const std::string& output_dir, std::size_t k);

}  // namespace sph
