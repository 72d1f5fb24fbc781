// The checkpoints of a run: checkpoint_<iteration>.chk files in one folder, the newest two kept.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "checkpoint/run_state.h"

namespace sph {

class CheckpointFolder {
public:
    // Makes `dir` if needed; throws std::runtime_error naming it when it cannot be made.
    explicit CheckpointFolder(std::string dir);

    // Writes `state` as checkpoint_<iteration>.chk (atomically), then removes all but the newest
    // two. Returns the path written. Throws std::runtime_error naming the file on failure; the
    // older checkpoints are then left as they were.
    std::string write(const RunState& state);

    const std::string& dir() const { return dir_; }

private:
    std::string dir_;
};

// The checkpoint files in `dir`, oldest first (by iteration); none when it does not exist.
std::vector<std::string> checkpoints_in(const std::string& dir);

// The newest checkpoint in `dir` that verifies, read; a newer one that does not is named on
// `warnings` and passed over. Throws std::runtime_error when there is none.
struct LatestCheckpoint {
    std::string path;
    RunState state;
};
LatestCheckpoint read_latest_checkpoint(const std::string& dir, std::ostream& warnings);
// Its path alone.
std::string latest_checkpoint(const std::string& dir, std::ostream& warnings);

}  // namespace sph
